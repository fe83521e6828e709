"""The read API's operations: each asks api/selectors.py and answers what it returns."""

from typing import Annotated, Literal

from django.http import Http404
from ninja import Query, Router
from ninja.errors import HttpError

from vendors.filters import SORTS

from . import chip_schemas, schemas, selectors

router = Router()

ERRORS = {404: schemas.Error, 429: schemas.Error}


def _found(payload, what):
    if payload is None:
        raise Http404(f"No live {what} at this address.")
    return payload


@router.get(
    "/vendors/",
    tags=["vendors"],
    response={200: schemas.VendorPage, 400: schemas.Error, **ERRORS},
    url_name="vendors",
    operation_id="listVendors",
    summary="Live vendors, filtered and sorted as the vendor list does",
    description="The same filters as the public vendor list (`/vendors/`), and one `min_<axis>` "
    "per active axis (see `/api/v1/axes/`). A value the list does not understand, or an unknown "
    "parameter, is a 400 that names it.",
)
def list_vendors(
    request,
    q: Annotated[
        str | None, Query(min_length=1, max_length=100, description="Part of the name or company.")
    ] = None,
    lane: Annotated[list[str] | None, Query(description="Lane slugs; several are OR-ed.")] = None,
    min_total: Annotated[int | None, Query(description="Minimum total, one of the list's.")] = None,
    # The sorts are the list's own (vendors.filters.SORTS), read when the module loads, which
    # mypy cannot: it takes only values written out in a Literal.
    sort: Annotated[
        Literal[tuple(SORTS)],  # type: ignore[valid-type]
        Query(description="A leading “-” is descending."),
    ] = "-total",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
):
    try:
        return selectors.vendor_page(request, page=page, per_page=per_page)
    except selectors.BadQuery as error:
        raise HttpError(400, str(error)) from None
    except selectors.NoSuchPage as error:
        raise HttpError(404, str(error)) from None


@router.get(
    "/vendors/{slug}/",
    tags=["vendors"],
    response={200: schemas.VendorDetail, **ERRORS},
    by_alias=True,
    url_name="vendor",
    operation_id="getVendor",
    summary="A live profile: facts, events, scores and FAQs, each with its sources and dates",
)
def vendor(request, slug: str):
    return _found(selectors.vendor_detail(request, slug=slug), "vendor")


@router.get(
    "/vendors/{slug}/versions/",
    tags=["vendors"],
    response={200: schemas.ChangeLog, **ERRORS},
    url_name="vendor-versions",
    operation_id="listVendorVersions",
    summary="A live profile's published versions: its change log, newest first",
)
def vendor_versions(request, slug: str):
    return _found(selectors.vendor_versions(request, slug=slug), "vendor")


@router.get(
    "/chips/",
    tags=["chips"],
    response={200: chip_schemas.ChipPage, 400: schemas.Error, **ERRORS},
    by_alias=True,
    url_name="chips",
    operation_id="listChips",
    summary="Live chips and their numbers, each value with its sources",
    description="Every chip of every live profile, by vendor and then in the editors' order. Each "
    "value is kept as its source gave it (`quantity`, `unit`) and converted to its kind's unit "
    "(`value`, `value_unit`: 144 GiB is 154.6… GB), with what it is counted for (`scope`: per chip, "
    "system or pod), its precision and sparsity (compute), whether the vendor stated it, when an "
    "editor last verified it, whether it is `stale`, and its sources with their quotes and support. "
    "Its `prices` and measured `results` keep their amounts and values as the decimal strings their "
    "sources give (“4.916”, “50000”); `derived` holds the figures computed from cited, fresh values "
    "(a price per chip-hour, per PFLOP-hour, …) each with its arithmetic, and `lowest_on_demand` its "
    "lowest on-demand price per chip-hour in US dollars.",
)
def list_chips(
    request,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
):
    try:
        return selectors.chip_page(request, page=page, per_page=per_page)
    except selectors.NoSuchPage as error:
        raise HttpError(404, str(error)) from None


@router.get(
    "/chips/{slug}/",
    tags=["chips"],
    response={200: chip_schemas.ChipDetail, **ERRORS},
    by_alias=True,
    url_name="chip",
    operation_id="getChip",
    summary="A live chip: every value of it, with its sources, scope and dates",
    description="One chip of a live profile, as the chip list gives it. A slug that is no live "
    "chip (never published, or its vendor's profile unpublished) is a 404.",
)
def chip(request, slug: str):
    return _found(selectors.chip_detail(request, slug=slug), "chip")


@router.get(
    "/lanes/",
    tags=["lanes and axes"],
    response={200: list[schemas.LaneEntry], 429: schemas.Error},
    url_name="lanes",
    operation_id="listLanes",
    summary="Every lane, in order, with how many live vendors it holds",
)
def lanes(request):
    return selectors.lanes(request)


@router.get(
    "/axes/",
    tags=["lanes and axes"],
    response={200: list[schemas.AxisEntry], 429: schemas.Error},
    url_name="axes",
    operation_id="listAxes",
    summary="The active scoring axes, in order",
)
def axes(request):
    return selectors.axes()


@router.get(
    "/comparisons/",
    tags=["comparisons"],
    response={200: schemas.ComparisonList, 429: schemas.Error},
    url_name="comparisons",
    operation_id="listComparisons",
    summary="The live editorial comparisons, by title",
)
def comparisons(request):
    return selectors.comparison_list(request)


@router.get(
    "/comparisons/{slug}/",
    tags=["comparisons"],
    response={200: schemas.ComparisonDetail, **ERRORS},
    by_alias=True,
    url_name="comparison",
    operation_id="getComparison",
    summary="A live editorial comparison: its vendors, criteria, FAQs and sources",
)
def comparison(request, slug: str):
    return _found(selectors.comparison_detail(request, slug=slug), "comparison")
