"""A page of a list whose rows are kept (infra/rows/): what it reads of each item beside its row
is a few columns, never a model instance, and how many items there are in all comes with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import F, Func, IntegerField, QuerySet
from django.db.models.expressions import RawSQL


class KeptRowsPaginator(Paginator):
    """Reads a page's items as ``record(**columns)`` (``read``: their key first, and what the
    list computes with), in order, with the count of all, in one query: the page's keys from the
    sort index alone (an index-only scan however deep the page), its items by key, and the count
    as a subquery the database computes once. A page number past the last (or below 1) asks the
    count alone, then shows the last page, as Django's ``get_page`` does; one that is not a
    number shows the first."""

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
        keys = self.object_list.values("pk")[bottom : bottom + self.per_page]
        # Compiled on its own (a Subquery would copy and relabel the whole list's query again).
        counted = self.object_list.order_by().annotate(every=Func(F("pk"), function="COUNT")).values("every")
        sql, params = counted.query.get_compiler(using=self.object_list.db).as_sql()
        every = RawSQL(f"({sql})", params, output_field=IntegerField())  # noqa: S611  # Django's SQL, its params apart
        rows = self.object_list.filter(pk__in=keys).values(*self.read, every=every)
        return [self.record(**row) for row in rows]
