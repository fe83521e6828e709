"""Field values in one comparable form, and back into submitted data.

A value reaches the merge in three shapes: as the browser submitted it (text, lists of
keys, "on"), as a bound form's initial value (model instances, booleans, dates) and as a
revision stored it. ``canon`` reads each the same way, so "changed" means changed.
"""

import contextlib
from collections.abc import Sequence
from typing import Any

from django import forms
from django.http import QueryDict

SHOWN = 80  # a longer value is shown cut, with an ellipsis


class _Unknown:
    """The revision the form was opened at is gone (pruned): every difference conflicts."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()

# What a form field holds: submitted text, a list of keys, a model instance, a date, a bool...
# (BoundField.value() and Widget.value_from_datadict() give Any).
Value = Any


def ticked(values: Sequence[object]) -> bool:
    """Whether a checkbox's submitted values say it is ticked."""
    return bool(values) and values[-1] not in ("", "off", "false", "False", "0")


def canon(form_field: forms.Field, value: Value) -> Value:
    """A value in one form, whether submitted text, a form's initial value or a model's."""
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        return frozenset(str(getattr(v, "pk", v)) for v in (value or []) if v not in ("", None))
    if isinstance(form_field, forms.ModelChoiceField):
        value = getattr(value, "pk", value)
        return "" if value in (None, "") else str(value)
    if isinstance(form_field, forms.BooleanField):
        return ticked([value]) if isinstance(value, str) else bool(value)
    return _cleaned(form_field, value)


def _cleaned(form_field: forms.Field, value: Value) -> Value:
    """What the field cleans ``value`` to (or ``value`` itself when it does not validate);
    text trimmed, with one kind of line end, and no value as ""."""
    with contextlib.suppress(forms.ValidationError):
        value = form_field.clean(value)
    if isinstance(value, str):
        return value.replace("\r\n", "\n").strip()
    return "" if value is None else value


def from_row(form_field: forms.Field, row: dict[str, list[str]], name: str) -> Value:
    """The value of field ``name`` in a submitted inline row, as its widget would read it."""
    values = row.get(name, [])
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        return values
    if isinstance(form_field.widget, forms.CheckboxInput):
        return ticked(values)
    return values[0] if values else None


def put(data: QueryDict, key: str, form_field: forms.Field, value: Value) -> None:
    """Put a form's value (its initial, as BoundField.value() gives it) into submitted data."""
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        data.setlist(key, [str(getattr(v, "pk", v)) for v in value or []])
    elif isinstance(form_field.widget, forms.CheckboxInput):
        if value:
            data[key] = "on"
        else:
            data.pop(key, None)
    elif isinstance(form_field, forms.ModelChoiceField):
        value = getattr(value, "pk", value)
        data[key] = "" if value is None else str(value)
    else:
        data[key] = "" if value is None else str(value)


def show(form_field: forms.Field, value: Value) -> str:
    """A value as the conflict beside the field shows it: names, "yes"/"no", "empty", cut."""
    if isinstance(form_field, forms.ModelChoiceField):  # and ModelMultipleChoiceField
        return _show_chosen(form_field, value)
    if isinstance(form_field, forms.BooleanField):
        return "yes" if canon(form_field, value) else "no"
    text = "" if value is None else str(value).strip()
    if not text:
        return "empty"
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _show_chosen(form_field: forms.ModelChoiceField, value: Value) -> str:
    """The names of what a choice field's value points at: "H100, H200", or "none"."""
    keys = canon(form_field, value)
    queryset = form_field.queryset
    if not keys or queryset is None:
        return "none"
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        return ", ".join(str(o) for o in queryset.filter(pk__in=keys)) or "none"
    found = queryset.filter(pk=keys).first()
    return str(found) if found else "none"
