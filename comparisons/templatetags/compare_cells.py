"""``{% compare_cell row cell %}``: what a cell of a comparison's table holds (its facts, score,
total or lane), written here once a cell rather than by the table's template logic, which took
the most of a comparison page's time. The marks are the shared ones (includes/vendor_stated.html,
includes/stale.html and the footnote markers), so a cell reads as it does on a profile."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from editorial.templatetags.preview import change_mark
from infra.html import escaped, format_html, html
from vendors.templatetags.footnotes import footnotes
from vendors.templatetags.marks import NOT_STATED, stale_mark, vendor_stated_mark

register = template.Library()


def _fact(fact: Any) -> SafeString:
    stated = vendor_stated_mark() if fact.vendor_stated else ""
    marks = html(stated + stale_mark(fact) + footnotes(fact))
    return format_html('<p class="claim">{}{}</p>', fact.value, marks)


def _scored(item: Any) -> SafeString:
    if not item:
        return html('<span class="muted">not scored</span>')
    return format_html("<strong>{}</strong>{}{}", item.value, html(stale_mark(item)), footnotes(item))


@register.simple_tag
def compare_cell(row: Any, cell: Any) -> SafeString:
    """A facts, score, total or lane cell's contents (an assessment's stay in the template)."""
    first = cell.items[0] if cell.items else None
    if row.kind == "facts":
        if not cell.items:
            return html(NOT_STATED)
        return html("".join(_fact(fact) for fact in cell.items))
    if row.kind in ("score", "total"):
        return _scored(first)
    href, name = (first.get_absolute_url(), first.name) if first else ("", "")
    return format_html('<a href="{}">{}</a>', href, name)


LEADER = ' class="leader"'
LEADS = '<span class="leader-mark"><span aria-hidden="true">★</span> leads</span>'


@register.simple_tag
def compare_row(row: Any, changes: Any) -> SafeString:
    """A table row of facts, a score, the total or the lane (an assessment's stays in the
    template): its heading, and each cell with its contents and its leader mark, as the
    template wrote them (changes: a preview's marks, "" elsewhere)."""
    note = f' <span class="muted">({escaped(row.note)})</span>' if row.note else ""
    mark = change_mark(changes, "criteria", row.criterion_id) if row.criterion_id else ""
    head = f'<th scope="row">{escaped(row.label)}{note}{mark}</th>'
    cells = "".join(
        f'\n          <td data-vendor="{escaped(cell.vendor.name)}"{LEADER if cell.leader else ""}>'
        f"\n            \n              {compare_cell(row, cell)}\n            \n            "
        f"{LEADS if cell.leader else ''}\n          </td>\n          "
        for cell in row.cells
    )
    # Every value escaped above, the marks and cells safe HTML.
    return html(f'<tr class="row-{escaped(row.kind)}">\n          {head}\n          {cells}\n        </tr>')
