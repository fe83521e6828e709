"""Reads whose SQL is the same on every request (no value of a request's in it: the active axes,
every lane, the site's text), built and compiled once a process for each database they are read
from, and read afresh each time they are asked.

Django builds and compiles a queryset again each time one is evaluated. For these small reads,
asked on nearly every page, that costs the server more than the database takes to answer them.
A ``FixedRead`` keeps the SQL Django compiled, and reads it through ``raw()``. That makes the
same instances, with the same converters applied and the same fields deferred, from the
database the routers pick for each read (a replica, for a visitor: infra/replica.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.db import router
from django.db.models import Model, QuerySet


class FixedRead[M: Model]:
    """``build()``'s rows, as ``list(build())`` gives them. ``build`` is a queryset with no value
    of a request's in it, reading its model's own columns (no ``select_related``, ``values()``
    or annotation, which ``raw()`` would not make alike)."""

    def __init__(self, build: Callable[[], QuerySet[M]]) -> None:
        self._build = build
        self._model: type[M] | None = None
        self._compiled: dict[str, tuple[str, tuple[Any, ...]]] = {}

    def __call__(self) -> list[M]:
        model = self._model or self._learn()
        alias = router.db_for_read(model)
        if (compiled := self._compiled.get(alias)) is None:
            query = self._build().query
            compiled = self._compiled[alias] = query.get_compiler(using=alias).as_sql()
        return list(model._default_manager.db_manager(alias).raw(*compiled))

    def _learn(self) -> type[M]:
        query = self._build().query
        if query.select_related or query.annotations or query.values_select or query.extra:
            raise ValueError("A fixed read reads its model's own columns, as raw() makes them.")
        self._model = model = cast("type[M]", query.model)
        return model
