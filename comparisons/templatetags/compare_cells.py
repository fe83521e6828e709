"""``{% compare_cell row cell %}``: what a cell of a comparison's table holds (its facts, score,
total or lane), written here once a cell rather than by the table's template logic, which took
the most of a comparison page's time. The marks are the shared ones (includes/vendor_stated.html,
includes/stale.html and the footnote markers), so a cell reads as it does on a profile."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from infra.html import format_html
from vendors.templatetags.footnotes import footnotes

register = template.Library()


def _stale(item: Any) -> str:
    return (
        get_template("includes/stale.html").render({"claim": item})
        if getattr(item, "is_stale", False)
        else ""
    )


@cache
def _vendor_stated() -> str:
    """The mark of a vendor's own figure: the same on every cell, rendered once a process."""
    return get_template("includes/vendor_stated.html").render({})


def _fact(fact: Any) -> SafeString:
    stated = _vendor_stated() if fact.vendor_stated else ""
    marks = mark_safe(stated + _stale(fact) + footnotes(fact))
    return format_html('<p class="claim">{}{}</p>', fact.value, marks)


def _scored(item: Any) -> SafeString:
    if not item:
        return mark_safe('<span class="muted">not scored</span>')
    return format_html("<strong>{}</strong>{}{}", item.value, mark_safe(_stale(item)), footnotes(item))


@register.simple_tag
def compare_cell(row: Any, cell: Any) -> SafeString:
    """A facts, score, total or lane cell's contents (an assessment's stay in the template)."""
    first = cell.items[0] if cell.items else None
    if row.kind == "facts":
        if not cell.items:
            return mark_safe('<span class="muted">not stated</span>')
        return mark_safe("".join(_fact(fact) for fact in cell.items))
    if row.kind in ("score", "total"):
        return _scored(first)
    href, name = (first.get_absolute_url(), first.name) if first else ("", "")
    return format_html('<a href="{}">{}</a>', href, name)
