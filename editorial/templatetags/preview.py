"""A preview's marks on what the working copy changes (claims.changes.Changes), and the lines
of a change list.

``{% change_mark changes "facts" fact.pk %}`` writes “New” or “Changed” as a tag beside the
row, and nothing when the row is as live or when the page is no preview (``changes`` empty).
``{% change_mark changes "summary" %}`` marks one of the item's own fields.
``{{ line|change_line }}`` writes a change list's line with its word diff as <del> and <ins>.
"""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from editorial.document_diff import pieces

register = template.Library()
WORDS = {"new": "New", "changed": "Changed"}


@register.simple_tag
def change_mark(changes, kind, pk=None):
    mark = changes.of(kind, pk) if changes else ""
    if not mark:
        return ""
    return format_html('<span class="change-mark change-{}">{}</span>', mark, WORDS[mark])


@register.filter
def change_line(line: str) -> SafeString:
    """A change list's line, escaped, its removed words in <del> and added ones in <ins>
    (editorial.document_diff.plain writes the same line as text)."""
    parts: list[str] = []
    for text, removed, added in pieces(line):
        parts.append(conditional_escape(text))
        if removed:
            parts.append(format_html("<del>{}</del>", removed))
        if removed and added:
            parts.append(" ")
        if added:
            parts.append(format_html("<ins>{}</ins>", added))
    return mark_safe("".join(parts))  # every piece escaped above
