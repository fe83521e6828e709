"""Evidence on a cited row: for each source it cites, the source's own words and its support.

Each cited row's form (a fact, event, score, answer or assessment) has an ``evidence`` field:
one group per cited source, a support select and a quote box, posted as three parallel lists
(``<row>-evidence-source``, ``-support``, ``-quote``), and whether the words are a quote or our
summary (``<row>-evidence-wording-<source id>``: a group added by script without it is a quote).
Beside a saved quote: what the last check of its source found of it (claims/quotes.py).
The page draws a group for each saved citation without script; ``static/js/source-dialog.js``
adds one when a source is picked or added through the dialog. A save writes them with
``claims.services.set_evidence``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import Truncator

from ..models import QUOTE_MAX, Support, Wording, citations_of
from ..services import EvidenceInput

PARTS = ("source", "support", "quote")


class EvidenceWidget(forms.Widget):
    titles: dict[int, str]

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.titles = {}

    def value_from_datadict(self, data, files, name):
        lists = [data.getlist(f"{name}-{part}") if hasattr(data, "getlist") else [] for part in PARTS]
        entries = [dict(zip(PARTS, values, strict=False)) for values in zip(*lists, strict=False)]
        for entry in entries:
            entry["wording"] = data.get(f"{name}-wording-{entry['source']}") or Wording.QUOTE
        return entries

    def value_omitted_from_data(self, data, files, name):
        return f"{name}-source" not in data

    def render(self, name, value, attrs=None, renderer=None):
        """One group a cited source; drawn here rather than from a template, as the admin's
        form renderer reads only the apps' own templates."""
        groups = []
        for entry in value or []:
            try:
                pk = int(entry.get("source"))
            except (TypeError, ValueError):
                continue
            support = entry.get("support", Support.FULL)
            options = format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                ((value, " selected" if value == support else "", label) for value, label in Support.choices),
            )
            wording = entry.get("wording") or Wording.QUOTE
            wordings = format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                ((value, " selected" if value == wording else "", label) for value, label in Wording.choices),
            )
            groups.append(
                format_html(
                    '<fieldset class="evidence-group" data-source="{pk}"><legend>{title}</legend>'
                    '<input type="hidden" name="{name}-source" value="{pk}">'
                    '<label>Support <select name="{name}-support">{options}</select></label> '
                    '<label>Words <select name="{name}-wording-{pk}">{wordings}</select></label> '
                    '<label>Quote <textarea name="{name}-quote" rows="2" cols="40" maxlength="{max}">'
                    "{quote}</textarea></label>{check}</fieldset>",
                    pk=pk,
                    title=self.titles.get(pk) or f"Source {pk}",
                    name=name,
                    options=options,
                    wordings=wordings,
                    max=QUOTE_MAX,
                    quote=entry.get("quote", ""),
                    check=_check_note(entry),
                )
            )
        empty = format_html(
            '<p class="evidence-none help">{}</p>',
            "Save the row with its sources to give each one its words.",
        )
        return format_html(
            '<div class="evidence-widget" data-evidence-name="{}" data-quote-max="{}">{}</div>',
            name,
            QUOTE_MAX,
            mark_safe("".join(groups)) if groups else empty,  # each group escaped above
        )


def _check_note(entry: dict[str, Any]) -> str:
    """What the last check of the source found of a saved quote, for the editor."""
    found, at = entry.get("checked") or (None, None)
    if found is None or at is None or entry.get("wording", Wording.QUOTE) != Wording.QUOTE:
        return ""
    when = date_format(timezone.localtime(at), "DATETIME_FORMAT")
    words = (
        f"Found on the source ({when})" if found else f"Not found on the source at its last check ({when})"
    )
    return format_html('<p class="help quote-check">{}</p>', words)


class EvidenceField(forms.Field):
    """The evidence typed for a row: {source id: EvidenceInput}. A quote over the limit or a
    support that is not full, partial or contradicts is a form error, naming the source."""

    widget = EvidenceWidget

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("label", "Evidence")
        kwargs.setdefault(
            "help_text",
            f"For each source: its own words (at most {QUOTE_MAX} characters) and whether it "
            "supports this fully, partly, or contradicts it. Readers see both under Sources.",
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> dict[int, EvidenceInput]:
        found: dict[int, EvidenceInput] = {}
        errors = []
        for entry in value or []:
            try:
                pk = int(entry.get("source"))
            except (TypeError, ValueError):
                errors.append("Evidence names a source that does not exist: reload the page.")
                continue
            name = f"“{Truncator(self.widget.titles.get(pk, f'source {pk}')).chars(60)}”"
            quote = (entry.get("quote") or "").strip()
            support = entry.get("support") or Support.FULL
            wording = entry.get("wording") or Wording.QUOTE
            if wording not in Wording.values:
                errors.append(f"The words from {name} are a quote or a summary: choose one.")
            if len(quote) > QUOTE_MAX:
                errors.append(
                    f"The quote from {name} is {len(quote)} characters: shorten it to {QUOTE_MAX} at most."
                )
            if support not in Support.values:
                errors.append(
                    f"“{Truncator(support).chars(30)}” is not a support for {name}: choose full "
                    "support, partial support or contradicts."
                )
            found[pk] = EvidenceInput(quote=quote, support=support, wording=wording)
        if errors:
            raise forms.ValidationError(errors)
        return found

    def has_changed(self, initial, data):
        try:
            return self.to_python(initial) != self.to_python(data)
        except forms.ValidationError:
            return True


class CitesEvidence(forms.Form):
    """For a cited row's form: the ``evidence`` field, filled from the row's citations (prefetched
    by CitedInline, so a page of rows costs no query per row) and kept to the sources it cites."""

    evidence = EvidenceField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        row = self.instance  # type: ignore[attr-defined]  # a ModelForm's
        widget = self.fields["evidence"].widget
        if row.pk is None:
            return
        sources = {source.pk: source for source in row.sources.all()}
        widget.titles = {pk: str(source) for pk, source in sources.items()}
        self.initial.setdefault(
            "evidence",
            [
                {
                    "source": citation.source_id,
                    "quote": citation.quote,
                    "support": citation.support,
                    "wording": citation.wording,
                    "checked": (citation.quote_found, citation.quote_checked_at),
                }
                for citation in sorted(getattr(row, citations_of(type(row))).all(), key=lambda c: c.pk)
            ],
        )

    def clean(self):
        cleaned = super().clean()
        if cleaned is not None and "evidence" in cleaned and "sources" in cleaned:
            cited = {source.pk for source in cleaned["sources"]}
            cleaned["evidence"] = {pk: found for pk, found in cleaned["evidence"].items() if pk in cited}
        return cleaned


def save_evidence(formset) -> None:
    """After a formset's rows and citations are saved: each kept row's evidence."""
    from ..services import set_evidence

    for form in formset.forms:
        if not hasattr(form, "cleaned_data") or "evidence" not in form.cleaned_data:
            continue
        if form in formset.deleted_forms or form.instance.pk is None:
            continue
        # Only rows whose evidence was edited, or that cite a source anew (its citation is new):
        # a save of 200 untouched rows writes none.
        if form.cleaned_data["evidence"] and {"evidence", "sources"} & set(form.changed_data):
            set_evidence(row=form.instance, evidence=form.cleaned_data["evidence"])
