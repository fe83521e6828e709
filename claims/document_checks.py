"""What checks found, in a stored published document (JSON): the sources' problem moments and
the citations' quote checks (claims/source_checks.py). Neither is content: a check never makes
an item look changed. A published version keeps them as they were, and newer ones reach its
live page without a publish (vendors.publishing.VendorPublication.restamp), as a verification does.
"""

import copy
from collections.abc import Iterator
from typing import Any, Final

from .models import Source, Wording

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


def _finding(entry: dict[str, Any]) -> tuple[Any, Any]:
    """What a check found of a quote, without when it last looked: found or not, missing since."""
    return entry.get("quote_found"), entry.get("quote_missing_at")


def carry_quote_checks(*, target: dict[str, Any], source: dict[str, Any]) -> None:
    """Give ``target``'s citations (a published document, changed in place) what the checks
    found of their quotes in ``source`` (a working copy's document), where the row cites the
    same words the same way (a quote edited since publishing keeps the result it was published
    with: the new words were never on that page) and the finding changed: a check that finds
    what the last one found moves no page, so a daily check writes no version a day, and the
    date readers see is that of the check that found it so."""
    found = {(row, entry["source"]): entry for row, evidence in _evidence_lists(source) for entry in evidence}
    for row, evidence in _evidence_lists(target):
        for entry in evidence:
            newer = found.get((row, entry["source"]))
            if newer is None or evidence_content(newer) != evidence_content(entry):
                continue
            if _finding(newer) != _finding(entry):
                entry.update({name: newer.get(name) for name in QUOTE_CHECKS})


def carry_checks(*, target: dict[str, Any], source: dict[str, Any]) -> None:
    """What checks found since ``target`` (a published document, changed in place) was written,
    from ``source`` (its item's working copy as a document): each cited source's problem moment
    as the checks record it now (one query), and its citations' quote checks (carry_quote_checks)."""
    problems = dict(Source.objects.filter(pk__in=target["sources"]).values_list("pk", "problem_at"))
    for pk, cited in target["sources"].items():
        cited["problem_at"] = problems.get(int(pk), cited.get("problem_at"))
    carry_quote_checks(target=target, source=source)
