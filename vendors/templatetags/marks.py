"""The shared marks of a figure, for HTML written in Python (a comparison's cells, a chip
comparison's): the vendor-stated mark (includes/vendor_stated.html) and the stale mark
(includes/stale.html), from their one template each, so a figure reads as it does on a profile."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.template.loader import get_template

NOT_STATED = '<span class="muted">not stated</span>'  # a figure no source gives, in a table's cell


def stale_mark(item: Any) -> str:
    """The stale mark of ``item`` when it is stale, else nothing."""
    if not getattr(item, "is_stale", False):
        return ""
    return get_template("includes/stale.html").render({"claim": item})


@cache
def vendor_stated_mark() -> str:
    """The mark of a vendor's own figure: the same on every cell, rendered once a process."""
    return get_template("includes/vendor_stated.html").render({})
