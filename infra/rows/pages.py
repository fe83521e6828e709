"""A page of a list whose rows are kept (infra/rows/): what it reads of each item beside its row
is a few columns, never a model instance, and how many items there are in all comes with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import IntegerField, Model, QuerySet
from django.db.models.expressions import RawSQL
from django.utils.functional import cached_property

from ..fixed import FixedRead


class KeptRowsPaginator(Paginator):
    """Reads a page's items as ``record(**columns)`` (``read``: their key first, and what the
    list computes with), in order, with the count of all, in one query: the page's keys from the
    sort index alone (an index-only scan however deep the page), its items by key, and the count
    as a subquery the database computes once (a list that reads what it computes, in two:
    ``_read_computed``; one that reads nothing beside its keys, the keys and the count alone).
    A page number past the last (or below 1) asks the count alone, then shows the last page, as
    Django's ``get_page`` does; one that is not a number shows the first."""

    object_list: QuerySet[Any]
    # The deepest page read by number; one past it (``?page=99999999999999999999``) is past the
    # last, shown as the last, and never an OFFSET the database cannot hold.
    FARTHEST = 10**9

    def __init__(
        self,
        object_list: QuerySet[Any],
        per_page: int,
        *,
        read: Sequence[str] = ("pk",),
        record: Callable[..., Any] = SimpleNamespace,
    ) -> None:
        super().__init__(object_list, per_page)
        self.read, self.record = tuple(read), record

    def get_page(self, number: Any) -> Page[Any]:
        try:
            number = int(number)
        except (TypeError, ValueError):
            number = 1
        found = self._read(number) if 1 <= number <= self.FARTHEST else []
        if found:
            self.__dict__["count"] = found[0].every  # Paginator.count is a cached_property
        elif number == 1:
            self.__dict__["count"] = 0
        else:
            number = self.num_pages  # the count alone, then the last page
            found = self._read(number)
        return Page(found, number, self)

    def _read(self, number: int) -> list[Any]:
        bottom = (number - 1) * self.per_page
        counted = f"(SELECT COUNT(*) FROM ({self.listed.sql}) listed)"  # noqa: S608  # Django's SQL
        every = RawSQL(counted, self.listed.params, output_field=IntegerField())  # noqa: S611  # params apart
        if set(self.read) <= {"pk", *self._computed}:
            # Nothing but what the pass that sorts reads anyway (the keys, what the list computes):
            # read in that pass, the list compiled once.
            ranked = self.object_list.values(*self.read, every=every)[bottom : bottom + self.per_page]
            return [self.record(**row) for row in ranked]
        if self._computed:
            return self._read_computed(bottom, every)
        keys = self.object_list.values("pk")[bottom : bottom + self.per_page]
        rows = self._by_key().filter(pk__in=keys).values(*self.read, every=every)
        return [self.record(**row) for row in rows]

    def _read_computed(self, bottom: int, every: RawSQL) -> list[Any]:
        """A page of a list that reads what it computes (a reader's weighted score): its keys,
        what it computes and the count, in the pass that sorts (no other column goes through the
        sort), then its items' other columns from the table by key: the list's computations are
        compiled once for the page, not again around its keys. (Reading every column in the
        sorting pass made PostgreSQL a third slower.)"""
        ranked = list(
            self.object_list.values("pk", *self._computed, every=every)[bottom : bottom + self.per_page]
        )
        plain = [name for name in self.read if name not in self._computed]
        keys = [row["pk"] for row in ranked]
        by_key = _by_key(self.object_list.model, tuple(plain))
        items = {row["pk"]: row for row in by_key(keys=keys, using=self.object_list.db)}
        # An item gone between the two reads (unpublished that instant) is left out of the page.
        return [self.record(**items[row["pk"]] | row) for row in ranked if row["pk"] in items]

    @cached_property
    def _computed(self) -> list[str]:
        """What the page reads that its list computes (annotations), not its model's columns."""
        return [name for name in self.read if name in self.object_list.query.annotations]

    @cached_property
    def listed(self) -> RawSQL:
        """The keys of every item of the list, as SQL compiled once (a Subquery would copy and
        relabel the whole list's query each time it is used): the page's count reads it, and so
        may what counts the list's options (vendors/filters.py)."""
        return compiled_keys(self.object_list)

    def _by_key(self) -> QuerySet[Any]:
        """What the page's items are read from by key, in the list's order. The keys met the
        list's filters already, so when the list reads and orders by its model's columns alone
        (no annotation), the items come from the model's table, and the filters, compiled twice
        already (the keys, the count), are not compiled a third time; else from the list (an
        axis's score it sorts by, computed for the page's items alone)."""
        query = self.object_list.query
        if query.annotations or query.extra or query.combinator or not query.standard_ordering:
            return self.object_list
        table = self._table()
        return table.order_by(*query.order_by) if query.order_by else table

    def _table(self) -> QuerySet[Any]:
        return self.object_list.model._base_manager.using(self.object_list.db)


def compiled_keys(items: QuerySet[Any]) -> RawSQL:
    """The keys of ``items``, in no order, as SQL compiled now, once (a Subquery would copy and
    relabel the whole of their query each time it is compiled)."""
    keys = items.order_by().values("pk")
    sql, params = keys.query.get_compiler(using=items.db).as_sql()
    return RawSQL(sql, params)  # noqa: S611  # Django's SQL, its params apart


_BY_KEY: dict[tuple[type[Model], tuple[str, ...]], FixedRead] = {}


def _by_key(model: type[Model], columns: tuple[str, ...]) -> FixedRead:
    """``model``'s ``columns`` (its key among them) of the rows of the keys it is given, compiled once for
    each number of keys (a page of 50, the last page's fewer)."""
    if (read := _BY_KEY.get((model, columns))) is None:
        read = _BY_KEY[model, columns] = FixedRead(
            lambda keys: model._base_manager.filter(pk__in=keys).values(*columns)
        )
    return read
