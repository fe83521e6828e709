"""A reader's own weights for the scoring axes: the rankings re-ordered by what matters to them.

The weights travel in the address (``?w-performance=3&w-access=0``), so a weighted ranking
can be shared and shows the same order to anyone. Each weight is a whole number from
WEIGHT_MIN (the axis does not count) to WEIGHT_MAX; a value out of range is brought into
it, and anything that is not a whole number is refused, each with a message saying what
was done. The editorial total never changes: “your score” sits beside it.
"""

import re
from dataclasses import dataclass, field

WEIGHT_MIN = 0
WEIGHT_MAX = 10
WEIGHT_DEFAULT = 1
PREFIX = "w-"
WHOLE_NUMBER = re.compile(r"^[+-]?[0-9]+$")
MAX_MESSAGES = 6


def field_name(axis):
    return f"{PREFIX}{axis.slug}"


def _shown(raw):
    return raw if len(raw) <= 20 else raw[:20] + "…"


@dataclass
class ReaderWeights:
    given: bool  # the address asks for a weighted ranking
    by_axis: dict  # axis pk -> weight, for every active axis
    messages: list = field(default_factory=list)

    def your_score(self, weighted_sum, *, axis_count):
        """A weighted sum on the totals' own scale (out of total_max): with equal weights it
        is the editorial total itself."""
        weight_sum = sum(self.by_axis.values())
        if weighted_sum is None or not weight_sum:
            return None
        return weighted_sum * axis_count / weight_sum


def read_weights(query, *, axes):
    """The weights a query asks for, one per active axis, and what had to be corrected."""
    names = {field_name(axis): axis for axis in axes}
    given = any(key.startswith(PREFIX) for key in query)
    messages = [
        f"“{_shown(key)}” is not one of the axes, so it was ignored."
        for key in query
        if key.startswith(PREFIX) and key not in names
    ]
    weights = {}
    for name, axis in names.items():
        raw = query.get(name, "").strip()
        weight, message = _weight(raw, axis)
        weights[axis.pk] = weight
        if message:
            messages.append(message)
    if weights and not any(weights.values()):
        messages.append("Every weight was 0, so no axis would count: each axis has weight 1 instead.")
        weights = dict.fromkeys(weights, WEIGHT_DEFAULT)
    if len(messages) > MAX_MESSAGES:
        messages = messages[:MAX_MESSAGES] + ["Other weights were corrected too."]
    return ReaderWeights(given=given, by_axis=weights, messages=messages)


def _weight(raw, axis):
    if raw == "":
        return WEIGHT_DEFAULT, None
    if not WHOLE_NUMBER.match(raw):
        return WEIGHT_DEFAULT, (
            f"{axis.name}: “{_shown(raw)}” is not a whole number from {WEIGHT_MIN} to {WEIGHT_MAX}, "
            f"so it counts with weight {WEIGHT_DEFAULT}."
        )
    digits = raw.lstrip("+-").lstrip("0") or "0"
    negative = raw.startswith("-") and digits != "0"
    # Compared as text first: a thousand-digit number is simply too large, never parsed.
    if negative:
        value = WEIGHT_MIN - 1
    elif len(digits) > len(str(WEIGHT_MAX)):
        value = WEIGHT_MAX + 1
    else:
        value = int(digits)
    if value > WEIGHT_MAX:
        return (
            WEIGHT_MAX,
            f"{axis.name}: {_shown(raw)} is more than {WEIGHT_MAX}, so it counts with weight {WEIGHT_MAX}.",
        )
    if value < WEIGHT_MIN:
        return (
            WEIGHT_MIN,
            f"{axis.name}: {_shown(raw)} is less than {WEIGHT_MIN}, so it counts with weight {WEIGHT_MIN}.",
        )
    return value, None
