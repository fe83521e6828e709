"""A preview's marks on what the working copy changes (vendors.documents.Changes).

``{% change_mark changes "facts" fact.pk %}`` writes “New” or “Changed” as a tag beside the
row, and nothing when the row is as live or when the page is no preview (``changes`` empty).
``{% change_mark changes "summary" %}`` marks one of the item's own fields.
"""

from django import template
from django.utils.html import format_html

register = template.Library()
WORDS = {"new": "New", "changed": "Changed"}


@register.simple_tag
def change_mark(changes, kind, pk=None):
    mark = changes.of(kind, pk) if changes else ""
    if not mark:
        return ""
    return format_html('<span class="change-mark change-{}">{}</span>', mark, WORDS[mark])
