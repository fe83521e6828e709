from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import ListView, TemplateView

from discovery import structured_data
from editorial.registry import publication_for
from editorial.views import PublishedPageMixin

from . import selectors
from .documents import read_comparison
from .models import MAX_VENDORS, Comparison, ComparisonVersion


class ComparisonListView(ListView):
    """The live comparisons; with ?vendors=..., the door to a generated comparison."""

    template_name = "comparisons/comparison_list.html"
    context_object_name = "comparisons"

    def get_queryset(self):
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
        document = publication_for(Comparison).document(working) if working else version.document
        page = read_comparison(document)
        table = selectors.editorial_table(page)
        context.update(
            comparison=page,
            table=table,
            structured_data=None if working else structured_data.comparison(self.request, page, table),
            **self.preview_context(working, version),
        )
        return context


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
