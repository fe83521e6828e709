"""A value as a row of a profile's or a comparison's download: a fact, event, score, answer
or assessment with its sources, its verification and whether the vendor stated it. The same
rows make a file's JSON and its CSV."""

from dataclasses import dataclass, field
from typing import Protocol

from .common import evidence_dict, iso, source_cells, source_columns, source_dict

VALUE_COLUMNS = ["vendor", "kind", "label", "value", "reason", "vendor_stated", "verified_on", "stale"]


class Cites(Protocol):
    """The document's row a value comes from (a fact, score, answer or assessment): it says
    what each source it cites says for it."""

    def evidence_from(self, source: int) -> object: ...


@dataclass
class Value:
    """One row of a download."""

    kind: str  # fact, event, score, faq, assessment
    label: str
    value: object
    vendor: str = ""
    reason: str = ""
    vendor_stated: bool | None = None  # None where the value cannot be vendor-stated
    verified_on: object = None
    stale: bool | None = None  # None where the value is not verified (claims/freshness.py)
    sources: list = field(default_factory=list)
    claim: Cites | None = None  # the document's row, whose evidence each source carries

    @property
    def evidence(self):
        """Each source's evidence for this value, in the sources' order: its words, their support
        and their check."""
        if self.claim is None:
            return [None for _ in self.sources]
        return [self.claim.evidence_from(source.pk) for source in self.sources]

    def as_dict(self):
        return {
            "vendor": self.vendor,
            "kind": self.kind,
            "label": self.label,
            "value": self.value,
            "reason": self.reason,
            "vendor_stated": self.vendor_stated,
            "verified_on": iso(self.verified_on),
            "stale": self.stale,
            "sources": [
                source_dict(source) | evidence_dict(evidence)
                for source, evidence in zip(self.sources, self.evidence, strict=True)
            ],
        }

    def cells(self):
        return [
            self.vendor,
            self.kind,
            self.label,
            self.value,
            self.reason,
            self.vendor_stated,
            iso(self.verified_on),
            self.stale,
        ]


def values_csv_rows(values):
    """The header and rows of a values CSV: a title, URL and what it says (common.SAID) per source,
    as many as the most-cited value needs, so that every source sits beside its value with
    what it says for it."""
    width = max((len(value.sources) for value in values), default=0) or 1
    header = list(VALUE_COLUMNS)
    for n in range(1, width + 1):
        header += source_columns(n)
    rows = []
    for value in values:
        cells = value.cells()
        for source, evidence in zip(value.sources, value.evidence, strict=True):
            cells += source_cells(source, evidence_dict(evidence))
        rows.append(cells + [""] * (len(header) - len(cells)))
    return header, rows
