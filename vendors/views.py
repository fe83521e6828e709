from django.http import Http404
from django.shortcuts import get_object_or_404
from django.views.generic import DetailView, ListView, TemplateView
from django_filters.views import FilterView

from claims.citation import Citation, citation_response
from editorial.registry import publication_for
from editorial.views import PublishedPageMixin
from infra.stored import shows

from . import listings, rows, selectors
from .documents import VendorDocument, document_of
from .filters import VendorFilter
from .models import Lane, Vendor, total_max
from .weights import WEIGHT_MAX, WEIGHT_MIN, field_name, read_weights


class VendorDetailView(PublishedPageMixin, TemplateView):
    """A profile: the live version's document, or the working copy's for an editor's preview."""

    model = Vendor
    template_name = "vendors/vendor_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        version = selectors.live_version(slug=self.kwargs["slug"])
        version, working = self.get_page(live_version=version, slug=self.kwargs["slug"])
        if working is not None:
            document, vendor_id = VendorDocument.parse(publication_for(Vendor).document(working)), working.pk
        else:
            document, vendor_id = document_of(version), version.item_id
        live = version if version is not None and version.item_id == vendor_id else None
        profile = selectors.build_profile(
            document,
            vendor_id=vendor_id,
            history=live.history if live else (),
            live_lane_id=live.lane_id if live else None,
        )
        context.update(
            vendor=profile.vendor,
            vendor_id=vendor_id,
            profile=profile,
            site=selectors.site_settings(),
            # A preview marks what the working copy changes against the live version.
            changes=document.changes_from(document_of(live)) if working is not None and live else None,
            **self.preview_context(working, version),
        )
        if live and working is None:  # what visitors see: citable, described for search engines
            context.update(
                citation=Citation.of(live, verification=profile.verification, request=self.request),
                live_page=True,  # the template adds the JSON-LD (discovery's tags)
            )
        return context


class VendorVersionView(TemplateView):
    """One published version at its permanent address, as it was published, so that a
    citation of it never rots; a banner links to the current version when it is not that."""

    template_name = "vendors/vendor_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        version = selectors.published_version(slug=self.kwargs["slug"], number=self.kwargs["number"])
        if version is None:
            raise Http404("No such published version.")
        current = selectors.live_vendors().filter(item_id=version.item_id).defer("document").first()
        assert current is not None  # a vendor with a published version has a live one
        profile = selectors.build_profile(
            document_of(version),
            vendor_id=version.item_id,
            history=version.history,
            live_lane_id=current.lane_id,
        )
        context.update(
            vendor=profile.vendor,
            vendor_id=version.item_id,
            profile=profile,
            site=selectors.site_settings(),
            is_preview=False,
            shown_version=version,
            latest_version=current,  # the banner's "of M" and its link to the current page
            current_version=current if current.pk != version.pk else None,
            citation=Citation.of(version, verification=profile.verification, request=self.request),
        )
        return context


def citation_download(request, slug, number, format):
    """A version's citation as a file for a reference manager: BibTeX or CSL-JSON."""
    version = selectors.published_version(slug=slug, number=number, banner=False)
    if version is None:
        raise Http404("No such published version.")
    response = citation_response(
        Citation.of(version, verification=version.verification, request=request), format
    )
    if response is None:
        raise Http404("No such citation format.")
    return response


class ChangeLogView(TemplateView):
    """Every published change of one profile, newest first."""

    template_name = "vendors/vendor_changes.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        version = selectors.live_version(slug=self.kwargs["slug"], change_log=True)
        if version is None:
            raise Http404("No such published page.")
        context.update(version=version, entries=selectors.change_log(version.history))
        return context


RANKINGS_PER_PAGE = 50
LANE_PER_PAGE = 50


class RankingsView(TemplateView):
    """The rankings by the editorial total, or, with a reader's weights in the address
    (vendors/weights.py), by “your score” beside the total, which stays as it is."""

    template_name = "vendors/rankings.html"

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if self.weights.given:
            # One address per set of weights: worth sharing, not worth indexing.
            response["X-Robots-Tag"] = "noindex"
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        axes = selectors.active_axes()
        self.weights = weights = read_weights(self.request.GET, axes=axes)
        if weights.given:
            vendors, sort, asked = listings.weighted_rankings(weights=weights.by_axis, axes=axes), None, None
        else:
            asked = self.request.GET.get("sort", "-total")[:60]
            vendors, sort = listings.rankings(sort=asked, axes=axes)
        page = listings.page_of(
            vendors, per_page=RANKINGS_PER_PAGE, number=self.request.GET.get("page"), weighted=weights.given
        )
        not_scored = listings.not_scored_yet()
        yours = _your_ranking(page, weights=weights, axis_count=len(axes)) if weights.given else None
        rows.add_ranking_rows(list(page.object_list), not_scored=not_scored, yours=yours)
        context.update(
            axes=axes,
            page_obj=page,
            sort=sort or "-total",
            ignored_sort=None if sort or weights.given else asked,
            # Your weights set the order: a column sort in the same address is set aside, saying so.
            sort_set_aside=weights.given and "sort" in self.request.GET,
            site=selectors.site_settings(),
            total_max=total_max(len(axes)),
            # Total comes second so that a phone shows it without scrolling.
            columns=[("name", "Vendor"), ("total", "Total")]
            + [(f"axis-{axis.slug}", axis.name) for axis in axes]
            + [("lane", "Lane"), ("verified", "Facts verified")],
            weights=weights,
            weight_fields=[(field_name(axis), axis, weights.by_axis[axis.pk]) for axis in axes],
            weight_min=WEIGHT_MIN,
            weight_max=WEIGHT_MAX,
            not_scored=not_scored,
        )
        return context


def _your_ranking(page, *, weights, axis_count):
    """Each row's place and score in the reader's ranking."""
    return [
        (place, weights.your_score(version.weighted, axis_count=axis_count))
        for place, version in enumerate(page.object_list, start=page.start_index())
    ]


class LaneListView(ListView):
    template_name = "vendors/lane_list.html"
    context_object_name = "lanes"

    def get_queryset(self):
        return selectors.lanes_with_vendor_counts()


class LaneDetailView(DetailView):
    template_name = "vendors/lane_detail.html"
    context_object_name = "lane"

    def get_object(self, queryset=None):
        return get_object_or_404(Lane, slug=self.kwargs["slug"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        vendors = listings.lane_vendors(self.object)
        number = self.request.GET.get("page")
        context["page_obj"] = listings.page_of(vendors, per_page=LANE_PER_PAGE, number=number)
        context["not_scored"] = not_scored = listings.not_scored_yet(lane=self.object)
        rows.add_lane_rows(list(context["page_obj"].object_list), not_scored=not_scored)
        return context


class VendorListView(FilterView):
    filterset_class = VendorFilter
    template_name = "vendors/vendor_list.html"
    context_object_name = "vendors"
    paginate_by = 20
    strict = False  # an invalid value is ignored and said so, not a reason to show nothing

    def get_queryset(self):
        return selectors.live_vendors().only(*listings.LISTED)

    def get_filterset_kwargs(self, filterset_class):
        kwargs = super().get_filterset_kwargs(filterset_class)
        # Always bound, so that the default sort applies to a bare /vendors/ too.
        kwargs["data"] = self.request.GET
        return kwargs

    def paginate_queryset(self, queryset, page_size):
        """A page number that is not one (``-1``, ``abc``, ``999``) shows the nearest real page."""
        page = listings.page_of(queryset, per_page=page_size, number=self.request.GET.get("page"))
        return page.paginator, page, page.object_list, page.has_other_pages()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        self.filterset.count_options(listed=context["paginator"].listed)
        shows(*self.filterset.shown_keys())
        rows.add_rows(rows.CARD, list(context["vendors"]))
        context["total_max"] = total_max(len(self.filterset.axes))  # the total filter's "of 10"
        context["query_without_page"] = _query_without(self.request.GET, "page")
        return context


def _query_without(query, *names):
    query = query.copy()
    for name in names:
        query.pop(name, None)
    return query.urlencode()
