"""The chips' kept rows (infra/rows/): a chip's row of /chips/, rendered once for its published
version's indexed chip (``VersionChip``, written once with the version) and kept, so a page of
/chips/, however it is sorted or filtered, is its indexed query and the rows it shows. A row is
rendered again when a price or figure it reads turns stale by the calendar (its lowest price and
its $ per PFLOP-hour are read from the usable ones only)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from infra.rows import RowKind, kept_rows
from infra.stored import Shown, expires, recorded_in, shows

from . import fit, market_rows, prices, selectors
from .documents import SORTED_KINDS, Spec
from .models import VersionChip
from .prices import Derived, HourPrice
from .selectors import LiveChip
from .trends import chip_href

COLUMNS = SORTED_KINDS  # per chip, on /chips/

# What a row holds where it shows the vendor-stated mark (includes/vendor_stated.html): a page
# of rows under which the mark's legend is printed.
STATED_MARK = '<span class="stated" title="Vendor-stated">'


@dataclass
class ChipRow:
    """A chip as a row of /chips/: its per-chip value in each column, or None (“not stated”)."""

    chip: LiveChip
    cells: list[Spec | None] = field(default_factory=list)
    price: HourPrice | None = None  # the lowest fresh on-demand price per chip-hour, in USD
    pflop_hour: Derived | None = None  # dollars per PFLOP-hour at FP8 (derived)

    @classmethod
    def of(cls, chip: LiveChip) -> ChipRow:
        return cls(
            chip=chip,
            cells=[chip.spec(kind) for kind in COLUMNS],
            price=chip.chip.lowest_on_demand,
            pflop_hour=market_rows.pflop_hour_fp8(chip.chip.derived),
        )


# What a page of /chips/ reads of each chip beside its kept row: which indexed chip it is.
LISTED = ("pk", "version", "slug", "name")


def _prepare(chips: Sequence[VersionChip]) -> dict[int, LiveChip]:
    """The chips read again with their versions, each drawn from its version's document: one
    query. What the batch reads of every version is each row's own (``_render`` records its
    version's); only what it reads for all is every row's."""
    read = list(VersionChip.objects.filter(pk__in=[chip.pk for chip in chips]).select_related("version"))
    with recorded_in(Shown()) as batch:
        drawn = selectors.drawn_by_pk(read)
    shows(*(batch.keys - {chip.version.chips_key for chip in read}))
    expires(batch.until)
    return drawn


def live_chips_of(chips: Sequence[VersionChip]) -> list[LiveChip]:
    """``chips`` (read as a page reads them, ``LISTED``) drawn from their versions' documents, in
    order."""
    drawn = _prepare(chips)
    return [drawn[chip.pk] for chip in chips if chip.pk in drawn]


def _live():
    """The indexed chips a list may still show: those of live versions."""
    return selectors.live_chips().order_by().values("pk")


def _render(chip: VersionChip, drawn: dict[int, LiveChip]) -> str:
    live = drawn.get(chip.pk)
    if live is None:  # not in its version's document: no row, as before rows were kept
        return ""
    # The lowest price and the $ per PFLOP-hour are read from usable rows only: the row is
    # true until the first of them turns stale.
    shows(live.version.chips_key)  # its vendor's name and chips, not the batch's other vendors
    rows = [*live.chip.prices, *live.chip.specs, *live.chip.results]
    expires(min(filter(None, (prices.usable_until(row) for row in rows)), default=None))
    return get_template("chips/rows/chip.html").render({"row": ChipRow.of(live)}).strip()


CHIP = RowKind("chip", _prepare, _render, _live)


def _render_fit(chip: VersionChip, drawn: dict[int, LiveChip]) -> tuple[str, dict[str, Any]]:
    """A chip's row of /chips/fit/, with slots for the chips needed and the arithmetic, and what
    the page computes them with (``fit.memory_figures``), its name, vendor and page."""
    live = drawn.get(chip.pk)
    if live is None:
        return "", {"name": chip.name, "vendor": "", "href": chip_href(chip.slug)}
    shows(live.version.chips_key)
    memory = live.spec("memory")
    context = {
        "chip": live,
        "href": chip_href(live.slug),
        "memory": memory,
        "needed_slot": mark_safe(fit.NEEDED_SLOT),  # noqa: S308
        "arithmetic_slot": mark_safe(fit.ARITHMETIC_SLOT),  # noqa: S308
    }
    figures = fit.memory_figures(memory)
    html = get_template("chips/rows/fit.html").render(context).strip() if figures else ""
    return html, {**figures, "name": live.name, "vendor": live.vendor.name, "href": context["href"]}


FIT = RowKind("chip-fit", _prepare, _render_fit, _live)


def chip_rows(chips: Sequence[VersionChip]) -> list[SafeString]:
    """The kept rows of a page of /chips/, in order."""
    return kept_rows(CHIP, chips)


def shows_stated_mark(rows: Sequence[str]) -> bool:
    """Whether any of a page's rows shows the vendor-stated mark (so the page prints its legend)."""
    return any(STATED_MARK in row for row in rows)
