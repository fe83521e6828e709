"""A long change page in named sections, with a summary of every error that links to its field.

The page lists its fieldsets and inline groups as sections, each with an anchor the section
menu links to. When a save is refused, the banner lists each error, an inline row's named
by what it is (“Memory — Value: This field is required.”; “FAQ 2 — …” when nothing names it
yet), with a plain link to the field's id: following
it scrolls to the field and focuses it, with no script. Sections holding errors say so.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib import messages as notices
from django.contrib.admin.utils import flatten
from django.utils.text import capfirst, slugify

from claims.authoring import markdown_warnings, source_url_warnings
from claims.models import Source

# The templates that draw such a page, and an inline table whose rows stack into cards on a phone.
SECTIONED_CHANGE_FORM = "admin/editorial/sectioned_change_form.html"
CARD_TABLE = "admin/editorial/edit_inline/tabular.html"


@dataclass
class ErrorEntry:
    where: str  # “Memory — Value”, “FAQ 2 — Answer”, or “” for an error about the whole form
    message: str
    href: str = ""  # “#id_faqs-1-answer”: the field, the row or the group


@dataclass
class Section:
    id: str
    title: str
    fieldset: object = None  # an admin Fieldset, or
    inline: object = None  # an InlineAdminFormSet
    errors: list = field(default_factory=list)


def _anchor(bound_field):
    """The id a link scrolls to: the widget's own, or its first subwidget's (a radio list)."""
    return f"#{bound_field.id_for_label or bound_field.auto_id}"


def form_errors(form, *, where="", names=None):
    """Every error of one form (of the fields in ``names`` when given), each with a link to
    its field, or to the form's first visible field when it is about no visible field."""
    entries = []
    prefix = f"{where} — " if where else ""
    for name, messages in form.errors.items():
        if name == "__all__" or (names is not None and name not in names):
            continue
        bound = form[name] if name in form.fields else None
        if bound is not None and not bound.is_hidden:
            label, href = capfirst(str(bound.label)), _anchor(bound)
        else:  # a hidden field (the row's id, the edit guard): point at the first visible field
            visible = form.visible_fields()
            label, href = (
                capfirst(str(bound.label if bound else name)),
                (_anchor(visible[0]) if visible else ""),
            )
        entries += [ErrorEntry(f"{prefix}{label}", message, href) for message in messages]
    if names is None:
        visible = form.visible_fields()
        first = _anchor(visible[0]) if visible else ""
        entries = [ErrorEntry(where, message, first) for message in form.non_field_errors()] + entries
    return entries


def formset_errors(formset, *, row_name):
    """Every error of an inline formset: its own (too many rows) and each row's, numbered as on the page."""
    entries = [
        ErrorEntry(capfirst(row_name), message, f"#{formset.prefix}-group")
        for message in formset.non_form_errors()
    ]
    for number, form in enumerate(formset.forms, start=1):
        if formset.can_delete and formset._should_delete_form(form):
            continue  # a row being deleted is not checked
        if form.errors:
            entries += form_errors(form, where=row_title(form) or f"{row_name} {number}")
    return entries


def row_title(form):
    """What names an inline row in the summary (“Memory”, “Score Software”), from the form's
    ``row_name()``; "" when it has none or nothing names the row yet (then: “Fact 3”)."""
    name = getattr(form, "row_name", None)
    return name() if name else ""


def build_sections(*, adminform, inline_admin_formsets, order=None):
    """The page's sections: each named fieldset, then each inline group, in ``order`` (titles)
    when given. Errors are collected only for a bound form: a page just opened has none."""
    bound = adminform.form.is_bound
    sections = []
    for fieldset in adminform:
        title = fieldset.name or "Details"
        section = Section(id=f"section-{slugify(title)}", title=title, fieldset=fieldset)
        if bound:
            section.errors = form_errors(adminform.form, names=set(flatten(fieldset.fields)))
        sections.append(section)
    for inline in inline_admin_formsets:
        title = capfirst(str(inline.opts.verbose_name_plural))
        section = Section(id=f"section-{slugify(title)}", title=title, inline=inline)
        if bound:
            section.errors = formset_errors(inline.formset, row_name=capfirst(str(inline.opts.verbose_name)))
        sections.append(section)
    if order:
        rank = {title: n for n, title in enumerate(order)}
        sections.sort(key=lambda s: rank.get(s.title, len(rank)))
    return sections


def _typed(form, name):
    """What a field holds on the page: as typed when the form was sent, else as saved."""
    value = form[name].value()
    return "" if value is None else value


def authoring_warnings(forms_on_page):
    """The accessibility checks (claims/authoring.py) over a page's forms, each a link to its
    field: the Markdown fields a form names in ``markdown_fields``, and every source a row cites
    (one query for the page). ``forms_on_page`` is (where, form) pairs, where naming the row."""
    entries, cited = [], []
    for where, form in forms_on_page:
        prefix = f"{where} — " if where else ""
        for name in getattr(form, "markdown_fields", ()):
            if name in form.fields:
                bound = form[name]
                label, href = capfirst(str(bound.label)), _anchor(bound)
                found = markdown_warnings(_typed(form, name))
                entries += [ErrorEntry(f"{prefix}{label}", message, href) for message in found]
        if "sources" in form.fields:
            chosen = _typed(form, "sources") or []
            cited += [(prefix, form["sources"], str(pk)) for pk in chosen if str(pk).isdigit()]
    if cited:
        plain = {
            str(pk): url
            for pk, url in Source.objects.filter(
                pk__in={pk for _, _, pk in cited}, url__istartswith="http://"
            ).values_list("pk", "url")
        }
        for prefix, bound, pk in cited:
            if pk in plain:
                entries += [
                    ErrorEntry(f"{prefix}{capfirst(str(bound.label))}", f"{plain[pk]}: {m}", _anchor(bound))
                    for m in source_url_warnings(plain[pk])
                ]
    return entries


def forms_with_names(adminform, inline_admin_formsets):
    """(where, form) for the page's own form and each inline row that is not being deleted."""
    pairs = [("", adminform.form)]
    for inline in inline_admin_formsets:
        formset = inline.formset
        row_name = capfirst(str(inline.opts.verbose_name))
        for number, form in enumerate(formset.forms, start=1):
            if formset.is_bound and formset.can_delete and formset._should_delete_form(form):
                continue
            pairs.append((row_title(form) or f"{row_name} {number}", form))
    return pairs


# InSections is mixed into a ModelAdmin: the type checker reads it as one.
if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = object


class InSections(_ModelAdmin):
    """For a ModelAdmin whose change form template draws ``sections`` and ``error_summary``.

    ``section_order`` lists section titles (fieldset names, inline verbose_name_plural) in the
    order the page shows them; the others follow.
    """

    section_order: Sequence[str] = ()

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        adminform = context["adminform"]
        sections = build_sections(
            adminform=adminform,
            inline_admin_formsets=context.get("inline_admin_formsets", []),
            order=self.section_order,
        )
        summary = []
        if adminform.form.is_bound:
            summary = [ErrorEntry("", message) for message in adminform.form.non_field_errors()]
            for section in sections:
                summary += section.errors
        pairs = forms_with_names(adminform, context.get("inline_admin_formsets", []))
        context.update(
            sections=sections, error_summary=summary, authoring_warnings=self.authoring_warnings(pairs)
        )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def authoring_warnings(self, forms_on_page):
        """What the page's text does that readers of assistive technology stumble on: shown where
        a refused save lists its errors, never stopping a save (claims/authoring.py)."""
        return authoring_warnings(forms_on_page)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        pairs = [("", form)] + [
            ("", row) for formset in formsets for row in formset.forms if row not in formset.deleted_forms
        ]
        if count := len(self.authoring_warnings(pairs)):
            notices.warning(
                request,
                f"Saved with {count} accessibility warning{'s' if count != 1 else ''}: its page lists "
                f"{'them' if count != 1 else 'it'} at the top, each with a link to its field. "
                "They never stop a save.",
            )
