"""A preview's marks on what the working copy changes (claims.changes.Changes), and the lines
of a change list.

``{% change_mark changes "facts" fact.pk %}`` writes “New” or “Changed” as a tag beside the
row, and nothing when the row is as live or when the page is no preview (``changes`` empty).
``{% change_mark changes "summary" %}`` marks one of the item's own fields.
``{{ line|change_line }}`` writes a change list's line with its word diff as <del> and <ins>.
"""

import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()
WORDS = {"new": "New", "changed": "Changed"}
# How editorial.document_diff.word_diff marks words removed and added (git's --word-diff=plain).
MARKED = re.compile(r"\[-(.+?)-\]|\{\+(.+?)\+\}")


@register.simple_tag
def change_mark(changes, kind, pk=None):
    mark = changes.of(kind, pk) if changes else ""
    if not mark:
        return ""
    return format_html('<span class="change-mark change-{}">{}</span>', mark, WORDS[mark])


@register.filter
def change_line(line: str) -> SafeString:
    """A change list's line, escaped, its removed words in <del> and added ones in <ins>."""
    parts, at = [], 0
    for found in MARKED.finditer(line):
        parts.append(conditional_escape(line[at : found.start()]))
        removed, added = found.groups()
        tag = "del" if removed else "ins"
        parts.append(format_html("<{}>{}</{}>", tag, removed or added, tag))
        at = found.end()
    parts.append(conditional_escape(line[at:]))
    return mark_safe("".join(parts))  # every piece escaped above
