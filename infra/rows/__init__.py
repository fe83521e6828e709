"""Rows rendered once: the rows lists repeat (a vendor's rankings row, its list card, a chip's
row, a search hit), rendered for a published version and kept with it (``KeptRow``), so a
filtered or sorted page is its indexed query plus the rows it shows, not a template per row.

A published version never changes, so its row changes only with what the row reads beside it:
the vocabulary (``site``: lanes, attributes; ``axes``) and the calendar (a score turning stale).
A row keeps the keys its render recorded (``infra.stored.shows``) with the change counter's
value when the render began, and the first moment it stops being true (``expires``). It is
served while none of its keys has a newer number (``infra.freshness``, the one rule of what is
fresh for every kept page and part) and that moment has not come; else it is rendered again by
the page that asks, and kept. A page showing rows records their keys and moments, as if it had
rendered them itself, so a cached or stored page of rows is dropped when a row would be.

A kind of row is declared once (``RowKind``): its name, what a batch of rows reads once
(``prepare``, a constant number of queries), one row's HTML (``render``; with what a page
computes with beside it, ``Row.data``, where the page fills slots in the row, as /chips/fit/
writes the chips a model needs), and the owners a page may still ask for (``shown``).
``kept_rows(kind, versions)`` answers a page's rows in order (``kept_row_lists`` several lists
of a page in one query); ``keep(kind, versions)`` renders them ahead, when a version is
published; ``prune()`` (daily, in the worker) drops the rows of versions no longer live.
"""

from __future__ import annotations

import functools
import logging
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from .. import freshness
from ..fixed import FixedRead
from ..models import KeptRow
from ..stored import Shown, expires, recorded_in, shows

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RowKind:
    """A kind of kept row: ``prepare(versions)`` reads what a batch of rows needs, once;
    ``render(version, prepared)`` is one version's row: its HTML, or its HTML and what a page
    computes with beside it (``Row.data``: figures in JSON, such as a chip's memory).
    ``shown()`` is the owners a page may still ask rows of (a queryset of their keys: the live
    versions): the rows of any other are pruned (``prune``)."""

    name: str
    prepare: Callable[[Sequence[Any]], Any]
    render: Callable[[Any, Any], str | tuple[str, dict[str, Any]]]
    shown: Callable[[], Any]

    def __post_init__(self) -> None:
        _kinds[self.name] = self


_kinds: dict[str, RowKind] = {}


def prune() -> int:
    """Drop the kept rows no page will ask for again: those of versions no longer live (a newer
    version replaced them, or they were unpublished), of each kind imported in this process (a
    row dropped by mistake costs one render on the page that asks). Returns how many."""
    dropped = 0
    for kind in _kinds.values():
        dropped += KeptRow.objects.filter(kind=kind.name).exclude(owner__in=kind.shown()).delete()[0]
    return dropped


@task()
def prune_kept_rows() -> dict[str, int]:
    """The periodic task of ``prune`` (infra/apps.py)."""
    return {"dropped": prune()}


@dataclass(frozen=True)
class Row:
    html: SafeString
    data: dict[str, Any]


# What a page reads of its kept rows: tuples, not models (a page of 50 rows builds no instance).
_READ = ("owner", "html", "keys", "stamp", "until", "data")
type _Kept = tuple[str, list[str], Any, dict[str, Any]]  # html, keys, until, data


def kept_rows(kind: RowKind, versions: Sequence[Any]) -> list[SafeString]:
    """Each of ``versions``' rows of ``kind``, in order: kept where it is still true, rendered
    (and kept) where not. One query for the kept rows, one cache read for their keys' numbers."""
    return kept_row_lists((kind, versions))[0]


def kept_row_lists(*asked: tuple[RowKind, Sequence[Any]]) -> list[list[SafeString]]:
    """The rows of each (kind, versions) a page shows (its ranking and its "not scored yet"
    list), as ``kept_rows`` answers one, all in one query and one cache read."""
    return [[row.html for row in rows] for rows in kept_rows_with_data(*asked)]


def kept_rows_with_data(*asked: tuple[RowKind, Sequence[Any]]) -> list[list[Row]]:
    """As ``kept_row_lists``, each row with its ``data``."""
    wanted = [(kind.name, [version.pk for version in versions]) for kind, versions in asked]
    rows = _still_true(wanted)
    for kind, versions in asked:
        if missing := [version for version in versions if (kind.name, version.pk) not in rows]:
            rendered = _render(kind, missing)
            rows |= {(kind.name, row.owner): (row.html, row.keys, row.until, row.data) for row in rendered}
    answers = []
    for name, owners in wanted:
        for owner in owners:
            shows(*rows[name, owner][1])
            expires(rows[name, owner][2])
        # Rendered from the site's templates, which escape what an editor typed.
        answers.append([Row(mark_safe(rows[name, owner][0]), rows[name, owner][3]) for owner in owners])  # noqa: S308
    return answers


def _still_true(wanted: list[tuple[str, list[int]]]) -> dict[tuple[str, int], _Kept]:
    """{(kind, owner): (html, keys, until, data)} of the kept rows ``wanted`` that are still true."""
    if not wanted:
        return {}
    kept = _read(wanted)
    held = freshness.numbers({key for _, _, _, keys, *_ in kept for key in keys})
    now = timezone.now()
    return {
        (name, owner): (html, keys, until, data)
        for name, owner, html, keys, stamp, until, data in kept
        if (until is None or now < until) and freshness.fresh(keys, stamp, held)
    }


def _read(wanted: list[tuple[str, list[int]]]) -> list[Any]:
    """The kept rows of ``wanted`` ((kind, owners)) as tuples of their kind and ``_READ``, read
    through a fixed read (infra/fixed.py): compiled once for each database and number of kinds
    and of owners, not built and compiled afresh for every page."""
    asked = [(name, owners) for name, owners in wanted if owners]
    if not asked:
        return []
    values: dict[str, Any] = {}
    for i, (name, owners) in enumerate(asked):
        values |= {f"kind{i}": name, f"owners{i}": owners}
    return _KEPT(**values)


def _kept(**values: Any) -> Any:
    """``KeptRow``s of each ``kind<i>`` owned by one of ``owners<i>``, as ``_read`` reads them."""
    kinds = len(values) // 2
    asked = functools.reduce(
        operator.or_, (Q(kind=values[f"kind{i}"], owner__in=values[f"owners{i}"]) for i in range(kinds))
    )
    return KeptRow.objects.filter(asked).values_list("kind", *_READ)


_KEPT = FixedRead(_kept)


def keep(kind: RowKind, versions: Sequence[Any]) -> None:
    """Render ``versions``' rows of ``kind`` ahead (a version just published), so the first page
    to show them reads them."""
    if versions:
        _render(kind, versions)


def _render(kind: RowKind, versions: Sequence[Any]) -> list[KeptRow]:
    """Render ``versions``' rows, each recording its own keys and moment (beside what the batch
    read for all), and keep them, stamped with the counter's value from before any was read."""
    started = freshness.count_now()
    with recorded_in(Shown()) as batch:
        prepared = kind.prepare(versions)
    rows = []
    for version in versions:
        with recorded_in(Shown(keys=set(batch.keys), until=batch.until)) as shown:
            made = kind.render(version, prepared)
        html, data = made if isinstance(made, tuple) else (made, {})
        rows.append(
            KeptRow(
                kind=kind.name,
                owner=version.pk,
                html=html,
                keys=sorted(shown.keys),
                stamp=started or 0,
                until=shown.until,
                data=data,
            )
        )
    if started is not None:  # with the cache away, nothing is kept: it could not be known fresh
        freshness.settle({key for row in rows for key in row.keys}, started)
        _write(rows)
    return rows


def _write(rows: list[KeptRow]) -> None:
    """Keep ``rows``; a database refusing the write (read-only for a while) leaves them unkept:
    the page that rendered them shows them all the same, and a later page keeps them."""
    try:
        with transaction.atomic():
            KeptRow.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=["kind", "owner"],
                update_fields=["html", "keys", "stamp", "until", "data"],
            )
    except DatabaseError:
        log.warning("%d rendered rows not kept: the database refused the write.", len(rows), exc_info=True)
