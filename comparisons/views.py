from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import ListView, TemplateView

from claims.citation import Citation, citation_response
from editorial.registry import publication_for
from editorial.views import PublishedPageMixin
from infra.stored import shows

from . import selectors
from .documents import ComparisonDocument, comparison_document_of
from .models import MAX_VENDORS, Comparison, ComparisonVersion


class ComparisonListView(ListView):
    """The live comparisons; with ?vendors=..., the door to a generated comparison."""

    template_name = "comparisons/comparison_list.html"
    context_object_name = "comparisons"

    def get_queryset(self):
        shows("comparisons")
        return ComparisonVersion.objects.live().order_by("title")

    def get(self, request, *args, **kwargs):
        picked = request.GET.getlist("vendors")
        if "vendors" in request.GET:
            try:
                slugs = selectors.canonical_slugs(picked[: MAX_VENDORS * 4])
            except selectors.SelectionError as error:
                self.object_list = self.get_queryset()
                context = self.get_context_data(selection_error=str(error))
                return self.render_to_response(context, status=400)
            return redirect("comparisons:generated", slugs="/".join(slugs))
        return super().get(request, *args, **kwargs)


class ComparisonDetailView(PublishedPageMixin, TemplateView):
    """An editorial comparison: the live version, or the working copy for an editor's preview."""

    model = Comparison
    template_name = "comparisons/comparison_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        version = selectors.live_comparison(slug=self.kwargs["slug"])
        version, working = self.get_page(live_version=version, slug=self.kwargs["slug"])
        if working is not None:
            page = ComparisonDocument.parse(publication_for(Comparison).document(working))
        else:
            page = comparison_document_of(version)
        table = selectors.editorial_table(page)
        live = version if working is not None and version and version.item_id == working.pk else None
        context.update(
            comparison=page,
            table=table,
            # A preview marks what the working copy changes against the live version.
            changes=page.changes_from(comparison_document_of(live)) if live else None,
            **self.preview_context(working, version),
        )
        if working is None:  # what visitors see: citable, described for search engines
            context.update(
                citation=comparison_citation(version, page, table, request=self.request),
                live_page=True,  # the template adds the JSON-LD (discovery's tags)
            )
        return context


class ComparisonVersionView(TemplateView):
    """One published version at its permanent address, with its vendors' profiles as they
    stood when it was published, so a citation of it never rots; a banner links to the
    current version when it is not that."""

    template_name = "comparisons/comparison_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        version = selectors.published_comparison(slug=self.kwargs["slug"], number=self.kwargs["number"])
        if version is None:
            raise Http404("No such published version.")
        current = ComparisonVersion.objects.live().filter(item_id=version.item_id).defer("document").get()
        page = comparison_document_of(version)
        table = selectors.editorial_table(page, at=version.published_at)
        table.added_later = selectors.added_later(table, page=page, current=current)
        context.update(
            comparison=page,
            table=table,
            is_preview=False,
            shown_version=version,
            latest_version=current,  # the banner's "of M" and its link to the current page
            current_version=current if current.pk != version.pk else None,
            citation=comparison_citation(version, page, table, request=self.request),
        )
        return context


def comparison_citation(version, page, table, *, request):
    """The citation of a comparison version: verified as of its oldest verified column or text."""
    dates = [verification.oldest for verification in table.verified_on if verification.oldest]
    if page.verified_on:
        dates.append(page.verified_on)
    return Citation.of_page(
        version,
        namespace="comparisons",
        title=f"{version.title}: AI chip comparison",
        key=f"chipsite-compare-{version.slug}-v{version.number}",
        verified=min(dates, default=None),
        request=request,
    )


def citation_download(request, slug, number, format):
    """A comparison version's citation as a BibTeX or CSL-JSON file."""
    version = selectors.published_comparison(slug=slug, number=number)
    if version is None:
        raise Http404("No such published version.")
    page = comparison_document_of(version)
    table = selectors.editorial_table(page, at=version.published_at)
    response = citation_response(comparison_citation(version, page, table, request=request), format)
    if response is None:
        raise Http404("No such citation format.")
    return response


class GeneratedComparisonView(TemplateView):
    """Any two to five live vendors side by side, at one canonical address per set."""

    template_name = "comparisons/comparison_detail.html"

    def get(self, request, *args, slugs, **kwargs):
        try:
            canonical = selectors.canonical_slugs(slugs.strip("/").split("/"))
        except selectors.SelectionError as error:
            raise Http404(str(error)) from None
        if "/".join(canonical) != slugs.strip("/"):
            return redirect("comparisons:generated", slugs="/".join(canonical), permanent=True)
        versions = selectors.live_vendors_by_slug(canonical)
        if versions is None:
            # Unknown and unpublished look the same: a draft's existence is not revealed.
            raise Http404("No such published vendors.")
        self.versions = versions
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["table"] = selectors.build_table(self.versions)
        context["editorial"] = selectors.editorial_for_exact_set(self.versions)
        context["generated"] = True
        context["title"] = " vs ".join(version.name for version in self.versions)
        context["canonical_url"] = reverse(
            "comparisons:generated", kwargs={"slugs": "/".join(v.slug for v in self.versions)}
        )
        return context
