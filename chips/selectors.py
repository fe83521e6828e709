"""Reading live chips: the published versions' chips, found, sorted and filtered on their
index (VersionChip, VersionSpec), each drawn from its version's document.

Every surface that shows chips (/chips/, the chip comparison, the API, the downloads) reads
them through ``live_chips`` and ``LiveChip``, so none can show a draft or disagree on a value.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Case, Count, ExpressionWrapper, F, FloatField, OuterRef, QuerySet, Subquery, When
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast, Coalesce
from django.utils.text import Truncator

from claims.models import citations_of
from infra.moment import ReadNow
from infra.rows.pages import compiled_keys

from . import models, quantities, stated, units
from .catalogue import ChipsDocument, Owner, catalogue
from .documents import STAGES, Availability, Chip, Spec
from .models import VersionChip, VersionPrice, VersionSpec

# What a stored page of every live chip shows (``infra.stored.shows``): a publish that changes
# any chip changes it (vendors/pages.py), as "entries" does for the vendor lists.
CHIPS_KEY = "chips"


@dataclass(frozen=True)
class LiveChip:
    """A live chip as every surface reads it: the chip of the document, and whose it is."""

    chip: Chip
    vendor: Owner
    version: Any  # the published version that holds it (vendors.models.VendorVersion)

    @property
    def slug(self) -> str:
        return self.chip.slug

    @property
    def name(self) -> str:
        return self.chip.name

    @property
    def specs(self) -> list[Spec]:
        return self.chip.specs

    def spec(self, kind: str, scope: str = "chip") -> Spec | None:
        return self.chip.spec(kind, scope)

    @property
    def availability(self) -> list[Availability]:
        return self.chip.availability

    @property
    def stage(self) -> Availability | None:
        return self.chip.stage

    @property
    def profile_url(self) -> str:
        return f"{self.vendor.get_absolute_url()}#chip-{self.slug}"


def live_chips() -> QuerySet[VersionChip]:
    """The chips of every live version, in vendor then editor order."""
    return (
        VersionChip.objects.filter(version__in=catalogue().live_versions().values("pk"))
        .select_related("version")
        .order_by("version__name", "position")
    )


def sorted_by(chips: QuerySet[VersionChip], kind: str, *, descending: bool) -> QuerySet[VersionChip]:
    """Chips by their highest per-chip value of ``kind`` (kept on each, ``VersionChip.memory``
    and the rest); chips without one last either way."""
    ordered = F(kind).desc(nulls_last=True) if descending else F(kind).asc(nulls_last=True)
    return chips.order_by(ordered, "name", "pk")


def _usable_prices() -> QuerySet[VersionPrice]:
    """Indexed on-demand prices per chip-hour in US dollars that may be used now (cited and
    fresh: ``VersionPrice.usable_until``), as ``documents.Chip.lowest_on_demand`` uses them."""
    return VersionPrice.objects.filter(
        kind="on-demand", currency="USD", per_chip_hour__isnull=False, usable_until__gt=ReadNow()
    )


# The price figures below are built once a process (building one took longer than compiling it)
# and compared with the moment of each read (``ReadNow``); each queryset they go in copies them.


@functools.cache
def lowest_price() -> Subquery:
    """A chip's lowest usable on-demand price per chip-hour in US dollars, stated or derived:
    what /chips/ sorts and filters by (``documents.Chip.lowest_on_demand`` shows it)."""
    return Subquery(
        _usable_prices().filter(chip=OuterRef("pk")).order_by("per_chip_hour").values("per_chip_hour")[:1]
    )


@functools.cache
def _sort_price() -> Case:
    """A chip's ``lowest_price``, computed for the priced chips alone: what /chips/ sorts by."""
    return _of_priced(lowest_price())


def _of_priced(figure: Any) -> Case:
    """``figure`` (a chip's, from its prices) for the chips with a usable price, null for the
    rest: the database lists the priced chips once and computes ``figure`` for those alone, not
    a subquery for every chip of the list (sorted by price at 10,000 vendors: 4.5 ms, not 48)."""
    return Case(When(pk__in=_usable_prices().values("chip_id"), then=figure), default=None)


def _fp8_compute(*, sparse: bool) -> Subquery:
    """A chip's highest usable, exact FP8 compute per chip in PFLOPS, counted sparse or not."""
    specs = VersionSpec.objects.filter(
        chip=OuterRef("pk"), kind="compute", scope="chip", precision="FP8", exact=True,
        usable_until__gt=ReadNow(),
    )  # fmt: skip
    specs = specs.filter(sparse=True) if sparse else specs.exclude(sparse=True)
    return Subquery(specs.order_by("-value").values("value")[:1])


@functools.cache
def pflop_hour_fp8() -> Case:
    """A chip's dollars per PFLOP-hour at FP8 as a sort key: its lowest usable on-demand price
    over its highest FP8 compute (dense or not stated before sparse), the database's
    ``market_rows.pflop_hour_fp8`` of ``chips.prices``; null when either is missing."""
    compute = Coalesce(_fp8_compute(sparse=False), _fp8_compute(sparse=True))
    per_pflop = ExpressionWrapper(Cast(lowest_price(), FloatField()) / compute, output_field=FloatField())
    return _of_priced(per_pflop)


def sorted_by_price(chips: QuerySet[VersionChip], *, descending: bool) -> QuerySet[VersionChip]:
    """Chips by their lowest on-demand price per chip-hour; chips without one last either way."""
    ordered = F("sort_price").desc(nulls_last=True) if descending else F("sort_price").asc(nulls_last=True)
    return chips.annotate(sort_price=_sort_price()).order_by(ordered, "name", "pk")


def sorted_by_pflop_hour(chips: QuerySet[VersionChip], *, descending: bool) -> QuerySet[VersionChip]:
    """Chips by their dollars per PFLOP-hour at FP8; chips without one last either way."""
    ordered = F("sort_pflop").desc(nulls_last=True) if descending else F("sort_pflop").asc(nulls_last=True)
    return chips.annotate(sort_pflop=pflop_hour_fp8()).order_by(ordered, "name", "pk")


def at_most_price(chips: QuerySet[VersionChip], maximum: Decimal) -> QuerySet[VersionChip]:
    """Chips with a usable on-demand price per chip-hour in US dollars of ``maximum`` or less."""
    return chips.filter(pk__in=_usable_prices().filter(per_chip_hour__lte=maximum).values("chip_id"))


def at_most_pflop_hour(chips: QuerySet[VersionChip], maximum: Decimal) -> QuerySet[VersionChip]:
    """Chips whose dollars per PFLOP-hour at FP8 is ``maximum`` or less."""
    return chips.alias(pflop=pflop_hour_fp8()).filter(pflop__lte=float(maximum))


def at_least(chips: QuerySet[VersionChip], kind: str, minimum: float) -> QuerySet[VersionChip]:
    """Chips with a per-chip value of ``kind`` of ``minimum`` or more (in the kind's unit)."""
    return chips.filter(**{f"{kind}__gte": minimum})


def with_precision(chips: QuerySet[VersionChip], precision: str) -> QuerySet[VersionChip]:
    """Chips with a compute figure counted at ``precision``."""
    return chips.filter(
        pk__in=VersionSpec.objects.filter(kind="compute", precision=precision).values("chip_id")
    )


def reached(chips: QuerySet[VersionChip], stage: str) -> QuerySet[VersionChip]:
    """Chips that have reached ``stage`` or a later one (announced, preview, generally available)."""
    return chips.filter(stage__in=list(STAGES)[list(STAGES).index(stage) :])


def compiled_once(chips: QuerySet[VersionChip]) -> QuerySet[VersionChip]:
    """The same chips, read by their keys as ``chips`` compiles them, once: what is built on
    them (a stage, a precision, a sort, a count) compiles the filters of ``chips`` no more."""
    return chips_of(compiled_keys(chips))


def chips_of(keys: RawSQL) -> QuerySet[VersionChip]:
    """The chips of ``keys`` (a list's keys as its page compiled them: infra/rows/pages.py)."""
    return VersionChip.objects.filter(pk__in=keys)


def stage_counts(chips: QuerySet[VersionChip]) -> dict[str, int]:
    """{stage: how many of ``chips`` have reached it or a later one}, in one query."""
    rows = chips.order_by().values("stage").annotate(chips=Count("pk"))
    exactly = {row["stage"]: row["chips"] for row in rows}
    stages = list(STAGES)
    return {stage: sum(exactly.get(later, 0) for later in stages[i:]) for i, stage in enumerate(stages)}


def precision_counts(chips: QuerySet[VersionChip]) -> dict[str, int]:
    """{precision: how many of ``chips`` have a compute figure at it}, in one query."""
    rows = (
        VersionSpec.objects.filter(kind="compute", chip__in=chips.order_by().values("pk"))
        .values("precision")
        .annotate(chips=Count("chip", distinct=True))
        .order_by()
    )
    return {row["precision"]: row["chips"] for row in rows}


def drawn(rows: Iterable[VersionChip]) -> list[LiveChip]:
    """Each indexed chip from its version's document (parsed once a version)."""
    return list(drawn_by_pk(rows).values())


def drawn_by_pk(rows: Iterable[VersionChip], *, these_only: bool = False) -> dict[int, LiveChip]:
    """{indexed chip's pk: the chip drawn from its version's document}, in the order of
    ``rows``, leaving out a chip its document does not hold. With ``these_only``, each document
    is parsed for the chips of ``rows`` alone (a comparison's, which reads no other)."""
    rows = list(rows)
    # Rows read with their versions' documents deferred (a page of many chips of one version
    # would decode its document once a row) have them read here, in one query.
    deferred = {row.version_id for row in rows if "document" in row.version.get_deferred_fields()}
    versions = {row.version_id: row.version for row in rows}
    versions |= {version.pk: version for version in _with_documents(deferred)}
    documents: dict[int, ChipsDocument] = {}
    read = catalogue().document_of
    drawn = {}
    wanted: dict[int, set[str]] = {}
    for row in rows:
        wanted.setdefault(row.version_id, set()).add(row.slug)
    for row in rows:
        version = versions[row.version_id]
        if row.version_id not in documents:
            documents[row.version_id] = read(version, chips=wanted[row.version_id] if these_only else None)
        document = documents[row.version_id]
        chip = next((chip for chip in document.chips if chip.slug == row.slug), None)
        if chip is not None:
            drawn[row.pk] = LiveChip(chip=chip, vendor=document.vendor, version=version)
    return drawn


def _with_documents(version_ids: set[int]) -> Iterable[Any]:
    """The versions of ``version_ids`` with the chips' parts of their documents (none asked: no
    query)."""
    if not version_ids:
        return []
    return catalogue().with_chips(version_ids)


def chips_by_slug(slugs: Sequence[str], *, these_only: bool = False) -> tuple[list[LiveChip], list[str]]:
    """The live chips of ``slugs`` in the order asked, and the slugs that are no live chip; with
    ``these_only``, their documents parsed for them alone (``drawn_by_pk``)."""
    rows = live_chips().filter(slug__in=list(slugs))
    found = {chip.slug: chip for chip in drawn_by_pk(rows, these_only=these_only).values()}
    return [found[slug] for slug in slugs if slug in found], [slug for slug in slugs if slug not in found]


def live_chip(slug: str) -> LiveChip | None:
    chips, _ = chips_by_slug([slug])
    return chips[0] if chips else None


def difference_text(spec: models.Spec) -> str:
    """What an editor reads of a spec whose sources differ: “Trainium3 memory capacity: 144 GiB
    (Amazon EC2 Trn3 Architecture) vs 144 GB (Tom's Hardware)”, each figure with the sources
    that state it, the spec's own first. Reads the citations and their sources prefetched."""
    figure = quantities.Quantity(spec.kind, units.plain(spec.quantity), spec.unit, spec.qualifier)
    figures: dict[str, list[str]] = {figure.as_given(): []}
    for citation in getattr(spec, citations_of(models.Spec)).all():
        said = stated.stated_for(citation.quote, spec.kind, spec.quantity, spec.unit)
        if said is not None:
            agrees = stated.agrees(said, spec.quantity, spec.unit)
            shown = figure.as_given() if agrees else said.shown
            figures.setdefault(shown, []).append(Truncator(citation.source.title).chars(60))
    parts = [f"{shown} ({', '.join(names)})" if names else shown for shown, names in figures.items()]
    return f"{spec.chip} {units.KINDS[spec.kind].label.lower()}: {' vs '.join(parts)}"
