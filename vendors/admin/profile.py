"""A whole vendor profile on one admin page: facts, chips, events, scores, FAQs and their sources.

The forms of its rows are in vendors/admin/profile_forms.py."""

from functools import partial
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages

from chips.models import Availability, Price, Result, Spec
from chips.services import recompute_sources_differ
from claims.admin.editing import CitedInline, FillsPositions, ResolvesChoicesOnce
from claims.admin.sections import CARD_TABLE, SECTIONED_CHANGE_FORM, ErrorEntry, InSections
from claims.authoring import logo_warnings
from editorial import services as workflow
from editorial.workflow import SAVE_FIELDSET, EditorialAdmin, EditorialForm

from ..images import LogoField
from ..models import FAQ, Attribute, Axis, Event, Fact, Score, Vendor, logo_upload_to
from ..services import mark_verified
from .importing import ImportsCSV
from .market_forms import PriceForm, ResultForm
from .profile_forms import AvailabilityForm, EventForm, FactForm, FAQForm, ScoreForm, SpecForm
from .staleness import MARK_VERIFIED_LABEL, plural


class ProfileInline(CitedInline):
    """A part of the profile: a table on a wide screen, a card per row on a phone."""

    template = CARD_TABLE


if TYPE_CHECKING:
    from django.contrib.admin.options import InlineModelAdmin

    ProfileInlinePart = InlineModelAdmin[Any, Any]  # what ShowsVerifier is mixed into
else:
    ProfileInlinePart = object


class ShowsVerifier(ProfileInlinePart):
    """For an inline: who last verified each row, read-only, without a query per row."""

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("verified_by")


class FactInline(ShowsVerifier, ProfileInline):
    model = Fact
    form = FactForm
    verbose_name_plural = "At a glance"
    autocomplete_fields = ["attribute"]
    readonly_fields = ["verified_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("attribute")  # each row's title names it

    def get_extra(self, request, obj=None, **kwargs):
        """A new profile starts with one empty row per at-a-glance attribute (see VendorAdmin)."""
        return len(standard_attributes()) if is_new(obj) else 0


def is_new(vendor):
    """On the add page: None when opened, the unsaved vendor when posted."""
    return vendor is None or vendor.pk is None


def standard_attributes():
    """The at-a-glance labels every profile shares, in the order pages show them."""
    return list(Attribute.objects.all())


class SpecInline(ShowsVerifier, ProfileInline):
    """A vendor's chips, one number a row: the rows naming the same chip make up that chip."""

    model = Spec
    form = SpecForm
    verbose_name = "spec"
    verbose_name_plural = "Chips"
    readonly_fields = ["verified_by"]


class AvailabilityInline(ShowsVerifier, ProfileInline):
    """When each chip was announced, in preview, generally available: one stage a row, to the month."""

    model = Availability
    form = AvailabilityForm
    verbose_name = "availability date"
    verbose_name_plural = "Chip availability"
    readonly_fields = ["verified_by"]


class PriceInline(ShowsVerifier, ProfileInline):
    """What each chip costs: one offer's price a row, as its source gives it."""

    model = Price
    form = PriceForm
    verbose_name = "price"
    verbose_name_plural = "Chip prices"
    readonly_fields = ["verified_by"]


class ResultInline(ShowsVerifier, ProfileInline):
    """What each chip did: one measured result of a named benchmark a row."""

    model = Result
    form = ResultForm
    verbose_name = "measured result"
    verbose_name_plural = "Measured results"
    readonly_fields = ["verified_by"]


class EventInline(ShowsVerifier, ProfileInline):
    model = Event
    form = EventForm
    verbose_name_plural = "What changed"
    readonly_fields = ["verified_by"]


class ScoreInline(ShowsVerifier, ProfileInline):
    model = Score
    form = ScoreForm
    readonly_fields = ["verified_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("axis")  # each row's title names it

    def get_extra(self, request, obj=None, **kwargs):
        """One empty row, axis filled in, for each active axis the vendor has no score on."""
        return len(unscored_axes(obj))


def unscored_axes(vendor):
    axes = Axis.objects.filter(is_active=True)
    if vendor is not None and vendor.pk:
        axes = axes.exclude(scores__vendor=vendor)
    return list(axes)


class FAQInline(ProfileInline):
    model = FAQ
    form = FAQForm
    verbose_name = "FAQ"
    verbose_name_plural = "FAQs"


class VendorAdminForm(EditorialForm):
    markdown_fields = ["summary", "what_it_is", "best_for", "watch_out", "verdict"]

    class Meta:
        model = Vendor
        fields = [
            "name", "slug", "company", "lane", "logo", "logo_alt", "summary", "what_it_is", "best_for",
            "watch_out", "verdict", "alternative_blurb",
        ]  # fmt: skip
        widgets = {
            field: forms.Textarea(attrs={"rows": 3, "cols": 80})
            for field in ["what_it_is", "best_for", "watch_out"]
        }

        # A new upload is checked, re-encoded and stored while the form is cleaned.
        field_classes = {"logo": partial(LogoField, upload_to=logo_upload_to)}


@admin.register(Vendor)
class VendorAdmin(ImportsCSV, InSections, ResolvesChoicesOnce, FillsPositions, EditorialAdmin):
    form = VendorAdminForm
    item_noun = "profile"  # “editor2 has this profile open since 19:13”
    change_form_template = SECTIONED_CHANGE_FORM
    list_display = ["name", "company", "lane", "updated_at"]
    list_filter = ["lane"]
    list_select_related = ["lane"]
    search_fields = ["name", "company", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["lane"]
    readonly_fields = ["created_at", "updated_at"]
    date_hierarchy = "updated_at"
    fieldsets = [
        ("Profile", {"fields": ["name", "slug", "company", "lane", "logo", "logo_alt"]}),
        (
            "Summary and verdict",
            {
                "fields": ["summary", "what_it_is", "best_for", "watch_out", "verdict", "alternative_blurb"],
                "description": "Markdown is allowed in the summary, takeaways and verdict.",
            },
        ),
        ("This save", {"fields": [*SAVE_FIELDSET]}),
    ]
    # The page shows them in section_order; the chips come last here, so that the forms of the
    # inlines that were there before keep their places in the page's context.
    inlines = [
        FactInline, EventInline, ScoreInline, FAQInline,
        SpecInline, AvailabilityInline, PriceInline, ResultInline,
    ]  # fmt: skip
    section_order = [
        "Profile",
        "Summary and verdict",
        "At a glance",
        "Chips",
        "Chip availability",
        "Chip prices",
        "Measured results",
        "What changed",
        "Scores",
        "FAQs",
        "This save",
    ]
    actions = [*EditorialAdmin.actions, "mark_verified_today"]

    def authoring_warnings(self, forms_on_page):
        warnings = super().authoring_warnings(forms_on_page)
        form = forms_on_page[0][1]
        has_logo = bool(form.files.get("logo")) or (
            bool(form.instance.logo) and not form.data.get("logo-clear")
        )
        logo = form["logo_alt"]
        return [
            ErrorEntry("Logo", message, f"#{logo.id_for_label}")
            for message in logo_warnings(
                has_logo=has_logo, text_alternative=logo.value() or "", name=form["name"].value() or ""
            )
        ] + warnings

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, ScoreInline):
            kwargs["initial"] = [{"axis": axis.pk} for axis in unscored_axes(obj)]
        elif isinstance(inline, FactInline) and is_new(obj):
            # Rows left as they start (attribute chosen, nothing typed) are not saved.
            kwargs["initial"] = [{"attribute": attribute.pk} for attribute in standard_attributes()]
        return kwargs

    def save_formset(self, request, form, formset, change):
        # A verified date entered by hand is vouched for by whoever entered it.
        for row in formset.forms:
            if "verified_on" in getattr(row, "changed_data", ()) and hasattr(row.instance, "verified_by_id"):
                row.instance.verified_by = request.user if row.cleaned_data.get("verified_on") else None
        super().save_formset(request, form, formset, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # whether their sources differ (chips/stated.py), for the specs whose rows or words changed
        specs = [fs for fs in formsets if fs.model is Spec]
        edited = [row.instance for fs in specs for row in fs.forms if row.has_changed()]
        if edited:
            recompute_sources_differ(specs=edited)
        # A date typed in is a verification like “Mark verified today”: it reaches the live
        # page at once for facts whose content is unchanged (editorial.services.refresh_verification).
        workflow.refresh_verification(obj=form.instance, user=request.user)

    @admin.action(description=MARK_VERIFIED_LABEL, permissions=["change"])
    def mark_verified_today(self, request, queryset):
        counts, vendor_pks = mark_verified(user=request.user, vendors=queryset)
        messages.success(
            request,
            f"Marked {plural(counts[Vendor], 'vendor')} verified today: "
            f"{plural(counts[Fact], 'fact')}, {plural(counts[Event], 'event')}, "
            f"{plural(counts[Score], 'score')}, {plural(counts[Spec], 'chip spec')}, "
            f"{plural(counts[Availability], 'availability date')}, {plural(counts[Price], 'chip price')} "
            f"and {plural(counts[Result], 'measured result')}.",
        )
