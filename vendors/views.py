from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.views.generic import DetailView, ListView, TemplateView
from django_filters.views import FilterView

from comparisons.selectors import comparisons_for

from . import selectors
from .filters import VendorFilter
from .models import SCORE_MAX, Lane, SiteSettings, Vendor


class PreviewMixin:
    """Editors who may change vendors see drafts; such responses never enter a shared cache."""

    def can_preview(self):
        return self.request.user.has_perm("vendors.change_vendor")

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        if context.get("is_preview"):
            patch_cache_control(response, private=True, no_store=True)
        return response


class VendorDetailView(PreviewMixin, DetailView):
    model = Vendor
    context_object_name = "vendor"

    def get_queryset(self):
        return selectors.profile_queryset(preview=self.can_preview())

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["profile"] = selectors.build_profile(self.object)
        context["comparisons"] = comparisons_for(self.object)
        context["site"] = SiteSettings.load()
        context["is_preview"] = not self.object.is_public
        return context


class RankingsView(TemplateView):
    template_name = "vendors/rankings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        asked = self.request.GET.get("sort", "-total")[:60]
        axes = selectors.active_axes()
        vendors, sort = selectors.rankings(sort=asked, axes=axes)
        context.update(
            axes=axes,
            vendors=vendors,
            sort=sort or "-total",
            ignored_sort=None if sort else asked,
            site=SiteSettings.load(),
            # Total comes second so that a phone shows it without scrolling.
            columns=[("name", "Vendor"), ("total", "Total")]
            + [(f"axis-{axis.slug}", axis.name) for axis in axes]
            + [("lane", "Lane"), ("verified", "Verified")],
        )
        return context


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
        context["vendors"] = selectors.lane_vendors(self.object)
        context["total_max"] = selectors.total_max()
        return context


class VendorListView(FilterView):
    filterset_class = VendorFilter
    template_name = "vendors/vendor_list.html"
    context_object_name = "vendors"
    paginate_by = 20
    strict = False  # an invalid value is ignored and said so, not a reason to show nothing

    def get_queryset(self):
        return selectors.with_total(Vendor.objects.published().select_related("lane"))

    def get_filterset_kwargs(self, filterset_class):
        kwargs = super().get_filterset_kwargs(filterset_class)
        # Always bound, so that the default sort applies to a bare /vendors/ too.
        kwargs["data"] = self.request.GET
        return kwargs

    def paginate_queryset(self, queryset, page_size):
        """A page number that is not one (``-1``, ``abc``, ``999``) shows the nearest real page."""
        paginator = Paginator(queryset, page_size)
        page = paginator.get_page(self.request.GET.get("page"))
        return paginator, page, page.object_list, page.has_other_pages()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        self.filterset.count_options()
        context["total_max"] = SCORE_MAX * len(self.filterset.axes)
        context["query_without_page"] = _query_without(self.request.GET, "page")
        return context


def _query_without(query, *names):
    query = query.copy()
    for name in names:
        query.pop(name, None)
    return query.urlencode()
