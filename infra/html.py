"""Django's ``conditional_escape`` and ``format_html`` for HTML written in Python a great many
times a page (filter forms' options, footnote markers, a comparison's cells, Sources lists),
less their handling of lazy strings: a third of their time, and these values (a document's
strings, numbers and dates, labels written here) are never lazy. Same output: what is marked
safe goes in as it is, anything else escaped."""

from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe


def escaped(value: Any) -> str:
    """``value`` as HTML: its own when it is safe HTML, else its text escaped."""
    return value.__html__() if hasattr(value, "__html__") else escape(str(value))


def format_html(format_string: str, *args: Any) -> SafeString:
    """``format_string`` (HTML of ours) with each of ``args`` escaped unless it is safe HTML."""
    return mark_safe(format_string.format(*map(escaped, args)))  # noqa: S308  # each value escaped
