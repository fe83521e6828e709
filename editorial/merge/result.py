"""What a merge found, in the words the change page shows it in."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.http import QueryDict


@dataclass
class Conflict:
    """A field (or a whole row) you and they both changed since the form was opened."""

    where: str  # "Summary", "Memory — Value"
    theirs: str
    yours: str
    prefix: str | None = None  # the inline's prefix, None for the item's own field
    index: int | None = None  # the row's index in the rebased form
    name: str | None = None  # the field; None for a whole row (deleted on one side)

    def text(self, by: str) -> str:
        return f"Saved by {by}: {self.theirs} · Yours: {self.yours}"


@dataclass
class Merge:
    """What rebasing one submitted change form onto the current working copy found."""

    data: QueryDict  # the rebased POST data
    by: str  # "editor2 at 19:13", who saved since the form was opened, and when
    who: str
    at: str
    theirs: list[str] = field(default_factory=list)  # labels of what they changed
    yours: list[str] = field(default_factory=list)  # labels of what you changed
    conflicts: list[Conflict] = field(default_factory=list)

    def message(self) -> str:
        """“Merged with editor2's save of 19:13: they changed Memory, you changed Pricing and
        added Score.”"""
        theirs = what_was_done(self.theirs) or "changed nothing you see"
        yours = what_was_done(self.yours) or "changed nothing"
        return f"Merged with {self.who}'s save of {self.at}: they {theirs}, you {yours}."

    def conflict_message(self) -> str:
        where = in_words(c.where for c in self.conflicts)
        return (
            f"{self.who} saved this at {self.at}, after you opened it, and you both changed {where}: "
            "their value and yours are shown there. Everything else is merged, and your input is kept: "
            "save again to apply yours."
        )

    def errors_for(self, prefix: str | None, index: int | None) -> dict[str | None, str]:
        """{field name or None: text} for one row of an inline (or, with prefix None, the item)."""
        return {c.name: c.text(self.by) for c in self.conflicts if c.prefix == prefix and c.index == index}


ROW_VERBS = ("added ", "deleted ")  # a row's label says what was done to it; a field's is its name


def what_was_done(labels: Iterable[str]) -> str:
    """“changed Memory and Pricing and added Score”: fields changed, then rows added or deleted."""
    labels = list(labels)
    fields = [label for label in labels if not label.startswith(ROW_VERBS)]
    parts = [f"changed {in_words(fields)}"] if fields else []
    for verb in ROW_VERBS:
        if rows := [label.removeprefix(verb) for label in labels if label.startswith(verb)]:
            parts.append(f"{verb}{in_words(rows)}")
    return " and ".join(parts)


def in_words(labels: Iterable[str]) -> str:
    """“Memory, Pricing and Summary”: each label once, in the order first met."""
    unique = list(dict.fromkeys(labels))
    if len(unique) <= 1:
        return "".join(unique)
    return f"{', '.join(unique[:-1])} and {unique[-1]}"
