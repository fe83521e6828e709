"""The corrections queue: readers' corrections, newest first, accepted or rejected by an editor."""

from django import forms
from django.contrib import admin, messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import Truncator

from infra.admin_input import ValidatesInitial

from . import services
from .models import Correction

READER_FIELDS = ["page_link", "part", "fact", "problem", "source_link", "email", "created_at"]


class StatusFilter(admin.SimpleListFilter):
    """The queue opens on what is still to decide; the decided ones are a click away."""

    title = "status"
    parameter_name = "status"
    ALL = "all"

    def lookups(self, request, model_admin):
        return [*Correction.Status.choices, (self.ALL, "All")]

    def choices(self, changelist):
        current = self.value() or Correction.Status.NEW
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value() or Correction.Status.NEW
        if value == self.ALL:
            return queryset
        if value not in Correction.Status.values:
            return queryset.none()
        return queryset.filter(status=value)


DECISIONS = {"_accept": True, "_reject": False}  # the buttons, and whether each accepts


class CorrectionForm(forms.ModelForm):
    @property
    def deciding(self) -> bool:
        """Accept or Reject was pressed: a plain save keeps a note without deciding."""
        return any(button in self.data for button in DECISIONS)

    def clean_editor_note(self):
        note = self.cleaned_data.get("editor_note", "")
        # A correction already decided is refused by the decision itself, saying who decided it.
        if self.deciding and self.instance.status == Correction.Status.NEW:
            try:
                services.check_note(note)
            except services.NoteRequired as missing:
                raise forms.ValidationError(str(missing)) from None
        return note


@admin.register(Correction)
class CorrectionAdmin(ValidatesInitial, admin.ModelAdmin):
    form = CorrectionForm
    list_display = ["__str__", "short_problem", "created_at", "status", "handled_by", "handled_at"]
    list_filter = [StatusFilter, ("vendor", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["vendor", "comparison", "handled_by"]
    search_fields = ["problem", "part", "source_url", "vendor__name", "comparison__title"]
    readonly_fields = [*READER_FIELDS, "status", "handled_by", "handled_at"]
    fields = [*READER_FIELDS, "status", "handled_by", "handled_at", "editor_note"]
    date_hierarchy = "created_at"
    list_per_page = 50

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("vendor", "comparison", "fact__attribute")

    # Readers add corrections; editors only decide them.
    def has_add_permission(self, request):
        return False

    @admin.display(description="page")
    def page_link(self, obj):
        page = obj.vendor or obj.comparison
        return format_html('<a href="{}">{}</a>', page.get_absolute_url(), obj.page_name)

    @admin.display(description="source")
    def source_link(self, obj):
        return format_html('<a href="{0}" rel="noopener noreferrer nofollow">{0}</a>', obj.source_url)

    @admin.display(description="what is wrong")
    def short_problem(self, obj):
        return Truncator(obj.problem).chars(90)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        correction = self.get_object(request, object_id)
        extra = {"can_decide": correction is not None and correction.status == Correction.Status.NEW}
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def response_change(self, request, obj):
        for button, accept in DECISIONS.items():
            if button in request.POST:
                return self._decide(request, obj, accept=accept)
        return super().response_change(request, obj)

    def _decide(self, request, obj, *, accept):
        try:
            decided = services.decide(correction=obj, user=request.user, accept=accept, note=obj.editor_note)
        except services.AlreadyDecided as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return redirect(reverse("admin:corrections_correction_change", args=[obj.pk]))
        verb = "Accepted" if accept else "Rejected"
        self.message_user(request, f"{verb}: “{decided}”.", messages.SUCCESS)
        if accept:
            # Accepting opens what it corrects, to edit.
            return redirect(edit_url(decided))
        return redirect(reverse("admin:corrections_correction_changelist"))


def edit_url(correction):
    """The change page of what a correction is about, at the fact it names when it names one."""
    if correction.vendor_id:
        url = reverse("admin:vendors_vendor_change", args=[correction.vendor_id])
        # The fact's own row (its anchor on the change page: vendors/admin/staleness.py row_anchor).
        return url + (f"#fact-{correction.fact_id}" if correction.fact_id else "")
    return reverse("admin:comparisons_comparison_change", args=[correction.comparison_id])
