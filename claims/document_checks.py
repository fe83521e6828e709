"""What checks found, in a stored published document (JSON): the sources' problem moments and
the citations' quote checks (claims/source_checks.py). Neither is content: a check never makes
an item look changed. A published version keeps them as they were, and newer ones reach its
live page without a publish (vendors.publishing.VendorPublication.restamp), as a verification does.
"""

import copy
from collections.abc import Iterator
from typing import Any, Final

from .models import Wording

# What a check of the source found of a citation's quote, as a document's evidence holds it.
QUOTE_CHECKS: Final = ("quote_found", "quote_checked_at", "quote_missing_at")


def evidence_content(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored evidence entry as content: without what checks found (QUOTE_CHECKS), its wording
    as a document stored before wordings existed reads it, so checks never make a row look changed."""
    return {"wording": Wording.QUOTE.value} | {
        key: value for key, value in entry.items() if key not in QUOTE_CHECKS
    }


def _evidence_lists(data: Any, key: Any = None) -> Iterator[tuple[tuple[Any, Any], list[dict[str, Any]]]]:
    """((list name, row id), evidence) for each row of a stored document that has evidence,
    wherever it sits (a profile's facts, a chip's specs, a comparison's assessments)."""
    if isinstance(data, dict):
        if isinstance(data.get("evidence"), list):
            yield (key, data.get("id")), data["evidence"]
        for name, value in data.items():
            if name != "evidence":
                yield from _evidence_lists(value, name)
    elif isinstance(data, list):
        for value in data:
            yield from _evidence_lists(value, key)


def without_quote_checks[T](data: T) -> T:
    """A copy of ``data`` (a stored document or a part of one, as dumped) whose citations' evidence
    leave out what checks found (``evidence_content``)."""
    content = copy.deepcopy(data)
    for _, evidence in _evidence_lists(content):
        evidence[:] = [evidence_content(entry) for entry in evidence]
    return content


def document_content(document: dict[str, Any]) -> dict[str, Any]:
    """A stored document without what checks found: its sources' problem moments and its
    citations' quote checks. What decides whether a working copy differs from a version."""
    content = without_quote_checks(document)
    for source in content.get("sources", {}).values():
        source.pop("problem_at", None)
    return content


def carry_quote_checks(*, target: dict[str, Any], source: dict[str, Any]) -> None:
    """Give ``target``'s citations (a published document, changed in place) what the checks
    found of their quotes in ``source`` (a working copy's document), where the row cites the
    same words the same way: a quote edited since publishing keeps the result it was published
    with, as the new words were never on that page."""
    found = {(row, entry["source"]): entry for row, evidence in _evidence_lists(source) for entry in evidence}
    for row, evidence in _evidence_lists(target):
        for entry in evidence:
            newer = found.get((row, entry["source"]))
            if newer is not None and evidence_content(newer) == evidence_content(entry):
                entry.update({name: newer.get(name) for name in QUOTE_CHECKS})
