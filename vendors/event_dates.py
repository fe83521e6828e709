"""An event's date as an editor types it: ``2024`` (a year), ``2024-06`` (a month) or ``2024-06-14``
(a day). The precision is what was typed; the date stored is the first day of that period."""

import calendar
import datetime as dt
import re

from .models import Event

EXAMPLES = "a year (2024), a month (2024-06) or a day (2024-06-14)"
_TYPED = re.compile(r"(?P<year>\d{4})(?:-(?P<month>\d{1,2})(?:-(?P<day>\d{1,2}))?)?")


class EventDateError(ValueError):
    """What is wrong with a typed date, in words an editor can act on."""


def parse_event_date(text):
    """``(date, precision)`` for ``2024``, ``2024-06`` or ``2024-06-14``; EventDateError otherwise."""
    text = (text or "").strip()
    match = _TYPED.fullmatch(text)
    if match is None:
        raise EventDateError(f"“{text[:40]}” is not a date: type {EXAMPLES}.")
    year = int(match["year"])
    if year < dt.MINYEAR:
        raise EventDateError(f"There is no year {match['year']}: type {EXAMPLES}.")
    if match["month"] is None:
        return dt.date(year, 1, 1), Event.Precision.YEAR
    month = int(match["month"])
    if not 1 <= month <= 12:
        raise EventDateError(f"“{text}” has no month {month}: months run from 01 to 12.")
    if match["day"] is None:
        return dt.date(year, month, 1), Event.Precision.MONTH
    day, last = int(match["day"]), calendar.monthrange(year, month)[1]
    if not 1 <= day <= last:
        raise EventDateError(
            f"“{text}”: {calendar.month_name[month]} {year} has days 1 to {last}, not {day}."
        )
    return dt.date(year, month, day), Event.Precision.DAY


def event_date_text(date, precision):
    """The text that reads back as ``date`` at ``precision``: what the editor typed."""
    if date is None:
        return ""
    if precision == Event.Precision.YEAR:
        return f"{date:%Y}"
    if precision == Event.Precision.MONTH:
        return f"{date:%Y-%m}"
    return date.isoformat()
