"""The moment of a read, as a query's parameter."""

from __future__ import annotations

from typing import Any

from django.db.models import DateTimeField, Expression
from django.utils import timezone


class ReadNow(Expression):
    """The moment a query is compiled (``timezone.now()``), as its parameter: an expression built
    once a process (a chip's price figures, chips/selectors.py) compares with the moment of each
    read, where ``timezone.now()`` written into it would keep the moment it was built."""

    output_field = DateTimeField()

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        return "%s", (connection.ops.adapt_datetimefield_value(timezone.now()),)
