from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.generic import DetailView, ListView, TemplateView

from . import selectors
from .models import MAX_VENDORS, Comparison


class ComparisonListView(ListView):
    """The published comparisons; with ?vendors=..., the door to a generated comparison."""

    template_name = "comparisons/comparison_list.html"
    context_object_name = "comparisons"

    def get_queryset(self):
        return Comparison.objects.published().order_by("title")

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


class ComparisonDetailView(DetailView):
    template_name = "comparisons/comparison_detail.html"
    context_object_name = "comparison"

    def get_queryset(self):
        preview = self.request.user.has_perm("comparisons.change_comparison")
        return selectors.comparison_queryset(preview=preview)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["table"] = selectors.editorial_table(self.object)
        context["is_preview"] = not self.object.is_public
        return context

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        if context["is_preview"]:
            patch_cache_control(response, private=True, no_store=True)
        return response


class GeneratedComparisonView(TemplateView):
    """Any two to five published vendors side by side, at one canonical address per set."""

    template_name = "comparisons/comparison_detail.html"

    def get(self, request, *args, slugs, **kwargs):
        try:
            canonical = selectors.canonical_slugs(slugs.strip("/").split("/"))
        except selectors.SelectionError as error:
            raise Http404(str(error)) from None
        if "/".join(canonical) != slugs.strip("/"):
            return redirect("comparisons:generated", slugs="/".join(canonical), permanent=True)
        vendors = selectors.published_vendors_by_slug(canonical)
        if vendors is None:
            # Unknown and unpublished look the same: a draft's existence is not revealed.
            raise Http404("No such published vendors.")
        self.vendors = vendors
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["table"] = selectors.build_table(self.vendors)
        context["editorial"] = selectors.editorial_for_exact_set(self.vendors)
        context["generated"] = True
        context["title"] = " vs ".join(vendor.name for vendor in self.vendors)
        context["canonical_url"] = reverse(
            "comparisons:generated", kwargs={"slugs": "/".join(v.slug for v in self.vendors)}
        )
        return context
