"""Reads whose SQL is fixed but for the values a request gives it (the active axes, every lane, the
site's text; the live vendors named by a comparison's address, or those not scored yet, as of
now): built and compiled once a process for each database and shape they are read with, and read
afresh each time they are asked.

Django builds and compiles a queryset again each time one is evaluated. For these small reads,
asked on nearly every page, that costs the server more than the database takes to answer them
(reading a comparison's three columns at 10,000 vendors: 2.9 ms of CPU as a queryset, 1.1 ms
this way).

A ``FixedRead`` builds its queryset once for each database and shape (how many values each list
holds), with stand-ins for the values, and keeps the SQL and the compiler Django made of it. Each
read puts the values in the stand-ins' places among the SQL's parameters, adapted as Django adapts
them, and runs the queryset's own iterable over that compiler: the same instances, dicts or
tuples, converters applied and fields deferred as the queryset would, from the database the
routers pick for each read (a replica, for a visitor: infra/replica.py).

Where a value would not reach the SQL as it is (a LIKE pattern made of it, a LIMIT computed from
it), the first read says so (``ValueError``): such a read is not fixed, and stays a queryset.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable, Hashable
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import QuerySet

# Compiled shapes a fixed read keeps, for each database and number of values in each list: a
# page's lists hold up to a page of keys, so a read of two lists has up to thousands of shapes.
KEPT_SHAPES = 256

type _Shape = tuple[tuple[str, type, int | None], ...]
type _Slot = tuple[int, str, int | None]  # a parameter's place, the value's name, its place in a list
# The queryset built with stand-ins, its compiler, its SQL and parameters, and the values' places.
type _Compiled = tuple[QuerySet[Any, Any], Any, str, tuple[Any, ...], list[_Slot]]


class FixedRead:
    """``build(**values)``'s rows, as ``list(build(**values))`` gives them. ``build`` makes a
    queryset of nothing but its arguments (whole numbers, strings, aware datetimes, or lists of
    them) and the schema: read with other values it must only differ by them."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self._build = build
        self._model: Any = None
        self._compiled: dict[tuple[str, _Shape], _Compiled] = {}

    def __call__(self, *, using: str | None = None, **values: Any) -> list[Any]:
        """The rows for ``values``, from database ``using`` if given, else the one the routers pick."""
        shape = tuple(
            (name, type(value), len(value) if isinstance(value, list | tuple) else None)
            for name, value in sorted(values.items())
        )
        if any(size == 0 for _, _, size in shape):
            return list(self._build(**values).using(using))  # nothing is IN an empty list: no query
        if self._model is None:
            self._model = self._build(**values).model
        alias = using or router.db_for_read(self._model)
        compiled = self._compiled.get((alias, shape)) or self._compile(alias, shape, values)
        queryset, template, sql, params, slots = compiled
        connection = connections[alias]
        filled = list(params)
        for index, name, element in slots:
            value = values[name] if element is None else values[name][element]
            # Only a datetime is adapted (SQLite's are text); whole numbers and strings go as they are.
            filled[index] = _adapt(value, connection) if isinstance(value, dt.datetime) else value
        compiler = copy.copy(template)
        compiler.connection = connection  # this thread's
        compiler.as_sql = lambda *args, **kwargs: (sql, tuple(filled))
        read = queryset.all()  # a copy of its own, to give the compiler
        read.query.get_compiler = lambda *args, **kwargs: compiler  # type: ignore[method-assign]
        return list(read)

    def _compile(self, alias: str, shape: _Shape, values: dict[str, Any]) -> _Compiled:
        stand_ins: dict[str, Any] = {}
        spots: dict[Any, tuple[str, int | None]] = {}
        for name, value in values.items():
            if isinstance(value, list | tuple):
                stand_ins[name] = [_stand_in(name, len(spots) + i, item) for i, item in enumerate(value)]
                spots |= {stand_in: (name, i) for i, stand_in in enumerate(stand_ins[name])}
            else:
                stand_ins[name] = _stand_in(name, len(spots), value)
                spots[stand_ins[name]] = (name, None)
        queryset = self._build(**stand_ins).using(alias)
        template = queryset.query.get_compiler(using=alias)
        try:
            sql, params = template.as_sql()
        except EmptyResultSet:
            raise ValueError("A fixed read's queryset must ask the database.") from None
        connection = connections[alias]
        at = {_adapt(stand_in, connection): spot for stand_in, spot in spots.items()}
        slots = [
            (i, *at[param]) for i, param in enumerate(params) if isinstance(param, Hashable) and param in at
        ]
        if {(name, element) for _, name, element in slots} != set(spots.values()):
            raise ValueError("A fixed read's values must reach its SQL as they are, as parameters.")
        compiled: _Compiled = (queryset, template, sql, tuple(params), slots)
        if len(self._compiled) >= KEPT_SHAPES and (oldest := next(iter(self._compiled), None)):
            self._compiled.pop(oldest, None)  # lists of many lengths: the oldest goes
        self._compiled[alias, shape] = compiled
        return compiled


_EPOCH = dt.datetime(1901, 1, 1, tzinfo=dt.UTC)


def _stand_in(name: str, number: int, value: Any) -> Any:
    """A value of ``value``'s type no read is given, to find where ``value`` goes in the SQL."""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return _EPOCH + dt.timedelta(seconds=number)
    if isinstance(value, str):
        return f"\x1ffixed-read-{number}\x1f"
    if isinstance(value, int) and not isinstance(value, bool):
        return -(10**15) - number
    raise TypeError(f"{name}: a fixed read takes whole numbers, strings and aware datetimes, not {value!r}.")


def _adapt(value: Any, connection: Any) -> Any:
    """``value`` as Django hands it to ``connection``'s driver (SQLite's datetimes are text)."""
    if isinstance(value, dt.datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value
