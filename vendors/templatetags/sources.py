"""``{% sources_list footnotes %}`` and ``{% evidence_words evidence %}``: a page's Sources list
(claims.footnotes.Footnotes) and a citation's words, written here rather than by templates: a
profile or comparison lists tens of sources, and their template logic was most of the page's
render time. Plain HTML: no script needed.

The list gives each source with what it says for the page's rows (the citation's words: a quote
with what the last check of the source found of it, or our summary; and its support when it is
not full), then the notes of rows citing more sources than they have markers for.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.template.defaultfilters import date
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from infra.html import escaped, format_html, html

from .marks import NOT_STATED, stale_mark, vendor_stated_mark

register = template.Library()


def _date(day: Any, format_string: str | None = None) -> str:
    """Django's ``date`` filter, remembered: a page lists tens of sources accessed on a few
    days, and formatting one is most of what its line costs."""
    return _formatted(day, format_string, get_language())


@lru_cache(maxsize=4096)
def _formatted(day: Any, format_string: str | None, language: str | None) -> str:
    return date(day, format_string)


@register.simple_tag
def evidence_words(evidence: Any) -> SafeString:
    """A citation's words: the source's own in quotation marks with what the last check of the
    source found of them, or our summary, labelled and never quoted."""
    if not evidence.quote:
        return html("")
    if evidence.is_summary:
        return format_html('<span class="summary-label">Summary:</span> {}', evidence.quote)
    missing = " quote-missing" if evidence.quote_found is False else ""
    return format_html(
        '<q>{}</q> <span class="quote-check{}">— {}</span>', evidence.quote, missing, evidence.check_text
    )


def _rows(rows: list[str]) -> str:
    return ", ".join(map(escaped, rows))


def _said(said: Any) -> SafeString:
    """One of a source's words in the list, with the rows they bear on and their support."""
    evidence, rows = said.evidence, _rows(said.rows)
    colon = ": " if evidence.quote else ""
    if evidence.contradicts:
        lead = format_html(
            '<strong class="support">Contradicts</strong>{}{}', html(f" {rows}" if rows else ""), colon
        )
    elif evidence.support_text:
        text = f" for {rows}" if rows else ""
        lead = format_html(
            '<strong class="support">{}</strong>{}{}', evidence.support_text, html(text), colon
        )
    elif rows:
        lead = format_html('<span class="evidence-for">On {}:</span> ', html(rows))
    else:
        lead = html("")
    return format_html(
        '\n      <li class="support-{}">{}{}</li>', evidence.support, lead, evidence_words(evidence)
    )


def _source(source: Any) -> SafeString:
    """A source's line: its title, publisher, when it was accessed and its archived copy."""
    return _source_line(
        source.url, source.title, source.publisher, source.accessed_on, source.archive_url, get_language()
    )


@lru_cache(maxsize=4096)
def _source_line(
    url: str, title: str, publisher: str, accessed_on: Any, archive_url: str, language: str | None
) -> SafeString:
    """``_source``'s line, written once for each source as it stands in each language (a
    comparison lists tens of sources, and the same ones on page after page)."""
    line: str = format_html('<a href="{}" rel="noopener nofollow">{}</a>', url, title)
    if publisher:
        line += format_html(", {}", publisher)
    if accessed_on:
        line += format_html(
            '. Accessed <span class="nowrap"><time datetime="{}">{}</time></span>',
            accessed_on.isoformat(),
            _date(accessed_on),  # in ``language``, the one active, which keys this memo
        )
    line += "."
    if archive_url:
        line += format_html(
            ' <a href="{}" rel="noopener nofollow" aria-label="Archived copy of {}">Archived copy</a>.',
            archive_url,
            title,
        )
    return html(line)  # each value escaped by format_html


def _entry(entry: Any) -> SafeString:
    quoted = ""
    if entry.quoted:
        quoted = format_html('<ul class="evidence">{}\n    </ul>', html("".join(map(_said, entry.quoted))))
    return format_html(
        '\n  <li id="source-{}">{}\n    {}\n  </li>\n  ', entry.number, _source(entry.source), quoted
    )


def _note(note: Any, last: bool) -> SafeString:
    said = note.evidence.support_text
    return format_html(
        '<a href="#source-{0}">[{0}]</a> {1}{2}{3}',
        note.number,
        note.source.title,
        format_html(" ({})", said.lower()) if said else "",
        "" if last else "; ",
    )


def _group(group: Any) -> SafeString:
    notes = html("".join(_note(note, i == len(group.notes) - 1) for i, note in enumerate(group.notes)))
    label = format_html("{}: ", group.label) if group.label else ""
    return format_html('<li id="{}">{}{}.</li>', group.anchor, label, notes)


@register.simple_tag
def sources_list(footnotes: Any) -> SafeString:
    """The Sources list of ``footnotes``: nothing when the page cites no source."""
    if not footnotes.sources:
        return html("\n")
    entries = html("".join(map(_entry, footnotes.entries)))
    listed = format_html('\n\n<ol class="source-list">\n  {}\n</ol>\n', entries)
    if footnotes.groups:
        groups = html("".join(map(_group, footnotes.groups)))
        listed += format_html(
            '\n<h3 class="grouped-heading">Rows citing more than three sources</h3>\n'
            '<ul class="grouped-notes">\n  {}\n</ul>\n',
            groups,
        )
    return html(listed + "\n")


def _cited(source: Any, evidence: Any) -> SafeString:
    """A source in a row's list: its title and publisher, its words and their support."""
    line: str = format_html('<li><a href="{}">{}</a>', source.url, source.title)
    if source.publisher:
        line += format_html(", {}", source.publisher)
    if evidence.quote:
        line += format_html(": {}", evidence_words(evidence))
    if evidence.support_text:
        line += format_html(' <span class="support">({})</span>', evidence.support_text.lower())
    return html(line + "</li>")


@register.simple_tag
def spec_sources(claim: Any) -> SafeString:
    """A chip row's sources in full on the chip comparison, each with its words, then when it
    was verified."""
    cited = "".join(_cited(source, evidence) for source, evidence in claim.citations)
    day = claim.verified_on
    verified = (
        format_html('<time datetime="{}">{}</time>', _date(day, "Y-m-d"), _date(day, "j M Y"))
        if day
        else "never"
    )
    return format_html(
        '<ul class="spec-sources">{}</ul>\n        <span class="muted">Verified {}</span>',
        html(cited or '<li class="muted">No source cited</li>'),
        verified,
    )


@register.simple_tag
def sources_differ(spec: Any) -> SafeString:
    """Beside a chip spec whose cited sources state different figures (chips/stated.py): "Sources
    differ" with each source's figure, until an editor settles it with a note, which readers
    then see in its place; else nothing."""
    if spec.sources_differ:
        figures = " vs ".join(
            f"{escaped(shown)} ({', '.join(map(escaped, names))})" for shown, names in spec.stated_figures
        )
        label = '<span class="sources-differ-label">Sources differ:</span>'
        return html(f'<span class="sources-differ">{label} {figures}</span>')  # each value escaped
    if spec.settled_note:
        return format_html('<span class="difference-note">Sources differ: {}</span>', spec.settled_note)
    return html("")


def _differ(spec: Any) -> str:
    """``sources_differ`` as vendors/includes/sources_differ.html puts it, where it says something."""
    said = sources_differ(spec)
    return f"\n{said}\n" if said else ""


@register.simple_tag
def spec_cell(spec: Any) -> SafeString:
    """A spec's cell on the chip comparison (``spec`` None: the chip states none): its figure as
    the source gives it, converted where sources differ in unit, its marks and its sources in
    full, written here once a cell rather than by the table's template logic, as the template
    wrote it."""
    if not spec:
        return html(NOT_STATED)
    converted = f' <span class="converted">({escaped(spec.converted)})</span>' if spec.converted else ""
    stated = vendor_stated_mark() if spec.vendor_stated else ""
    return html(  # each value escaped, each mark its shared template's
        f"<strong>{escaped(spec.as_given)}</strong>{converted}{stated}{stale_mark(spec)}"
        f"\n        {_differ(spec)}\n        {spec_sources(spec)}\n      "
    )
