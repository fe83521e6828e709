"""Readers' chip tools beside /chips/: the trends over time (/chips/trends/ and its CSV, stored
pages of every live chip) and how many chips a model needs (/chips/fit/, asked on demand).
Thin: chips/trends.py and chips/fit.py do the work on the live chips."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from infra import tabular
from infra.query_input import refuses_nul
from infra.rows import kept_rows_with_data
from infra.rows.pages import KeptRowsPaginator
from infra.stored import shows

from . import selectors
from .fit import FitForm, Size, fits
from .rows import FIT, LISTED
from .selectors import CHIPS_KEY
from .trends import CSV_HEADER, csv_rows, trends

FIT_PER_PAGE = 50  # chips on a page of /chips/fit/: a page stays the same size as the catalogue grows

CSV_NAME = "chipsite-chip-trends.csv"


def _live() -> list[selectors.LiveChip]:
    shows(CHIPS_KEY)  # a stored page of every live chip: any chip's change renders it again
    return selectors.drawn(selectors.live_chips())


def chip_trends(request: HttpRequest) -> HttpResponse:
    """Memory, bandwidth, compute and price per PFLOP-hour against the month each chip became available."""
    found = trends(_live())
    return render(request, "chips/chip_trends.html", {"trends": found, "charts": found.charts})


def chip_trends_csv(request: HttpRequest) -> HttpResponse:
    """The points of /chips/trends/, one row a point."""
    text = tabular.csv_text(CSV_HEADER, csv_rows(trends(_live())))
    response = HttpResponse(text.encode(), content_type=tabular.CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{CSV_NAME}"'
    return response


@refuses_nul
def chip_fit(request: HttpRequest) -> HttpResponse:
    """How many of each live chip a model's weights need. Without ``params`` the form alone;
    a value it cannot use is a 400 that shows the form and says why."""
    if "params" not in request.GET:
        return render(request, "chips/chip_fit.html", {"form": FitForm(initial={"bits": 16})})
    form = FitForm(request.GET)
    if not form.is_valid():
        context = {"form": form, "problems": form.messages()}
        return render(request, "chips/chip_fit.html", context, status=400)
    data = form.cleaned_data
    size = Size(
        params=data["params"], bits=data["bits"], kv_cache=data["kv_cache"], overhead=data["overhead"]
    )
    # Most memory first, so the chips needing fewest come first; a page at a time, however many
    # chips are live, each chip's row kept (chips/rows.py FIT): the page counts, it renders none.
    chips = selectors.sorted_by(selectors.live_chips(), "memory", descending=True)
    chips = chips.select_related(None).only(*LISTED)
    page = KeptRowsPaginator(chips, FIT_PER_PAGE).get_page(request.GET.get("page"))
    rows, unstated = fits(kept_rows_with_data((FIT, list(page.object_list)))[0], size)
    context = {"form": form, "size": size, "rows": rows, "unstated": unstated, "page_obj": page}
    return render(request, "chips/chip_fit.html", context)
