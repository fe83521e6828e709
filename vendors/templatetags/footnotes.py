"""``{% footnotes item %}``: an item's numbered links to its sources.

A tag rather than an include: a profile or comparison shows dozens of cited items, and an
include per item was a fifth of the page's render time.
"""

from django import template
from django.utils.html import format_html_join

register = template.Library()


@register.simple_tag
def footnotes(item):
    return format_html_join(
        "",
        '<sup class="fn"><a href="#source-{0}" aria-label="Source {0}: {1}">[{0}]</a></sup>',
        ((number, source.title) for number, source in getattr(item, "notes", ()) or ()),
    )
