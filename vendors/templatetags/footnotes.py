"""``{% footnotes item %}``: an item's numbered links to its sources.

A tag rather than an include: a profile or comparison shows dozens of cited items, and an
include per item was a fifth of the page's render time.

At most ``MARKERS_PER_CLAIM`` markers: a row citing more has one marker, linking to its own
note in the Sources section, which lists them all (vendors.selectors.Footnotes.groups). A
source that supports the row only partly, or contradicts it, says so on its marker.
"""

from django import template
from django.utils.safestring import mark_safe

from infra.html import format_html

from ..selectors import MARKERS_PER_CLAIM

register = template.Library()


def _marker(note):
    said = note.evidence.support_text.lower()
    text = f"{note.number}, {said}" if said else str(note.number)
    label = f"Source {note.number}" + (f" ({said})" if said else "")
    return (note.number, label, note.source.title, text)


@register.simple_tag
def footnotes(item):
    notes = getattr(item, "notes", ()) or ()
    if len(notes) > MARKERS_PER_CLAIM:
        return format_html(
            '<sup class="fn fn-group">'
            '<a href="#{0}" aria-label="{1} sources: see the note">[{1} sources]</a></sup>',
            item.anchor,
            len(notes),
        )
    marker = '<sup class="fn"><a href="#source-{0}" aria-label="{1}: {2}">[{3}]</a></sup>'
    return mark_safe("".join(format_html(marker, *_marker(note)) for note in notes))  # noqa: S308
