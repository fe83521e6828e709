"""The demo's prices and measured results: prices.json and benchmarks.json (copies of
../shared/data, collected 2026-12-06), loaded as they state them.

Each value is the data's own: amount, currency, per what, chips, date, and the page's verbatim
words holding the number as the citation's quote. A recorded contradiction (prices.json's
``contradictions``) becomes each of its rows' note on differing sources, in the data's words.
Nothing is converted or derived here; the site derives what it may (chips/prices.py).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from chips.models import Price, Result
from claims.models import Source, Support, Wording
from claims.services import EvidenceInput, set_evidence
from editorial.demo import Report

DEMO_DIR = Path(__file__).resolve().parent
PRICES = DEMO_DIR / "prices.json"
RESULTS = DEMO_DIR / "benchmarks.json"
COLLECTED_ON = dt.date(2026, 12, 6)  # both files' date: every value was read then

# The data's chip names, as the catalogue names them (vendor, chip). “B300 / GB300” is Blackwell
# Ultra: benchmarks.json's own row says “up to 512 Blackwell Ultra GPUs” of it.
CHIPS = {
    "H100": ("nvidia", "H100"),
    "H200": ("nvidia", "H200"),
    "B200": ("nvidia", "B200"),
    "B300 / GB300": ("nvidia", "Blackwell Ultra"),
    "MI300X": ("amd-instinct", "MI300X"),
    "MI325X": ("amd-instinct", "MI325X"),
    "MI355X": ("amd-instinct", "MI355X"),
    "TPU v5e": ("google-tpu", "TPU v5e"),
    "TPU v5p": ("google-tpu", "TPU v5p"),
    "TPU v6e (Trillium)": ("google-tpu", "TPU v6e"),
    "Tenstorrent Blackhole": ("tenstorrent", "Blackhole"),
    "Cerebras WSE-3 (CS-3)": ("cerebras", "WSE-3"),
    "Groq LPU": ("groq", "Groq LPU"),
}
# Who is the chip's vendor among the data's providers and submitters: their figures are claims
# of the vendor (data README: “a vendor's own result is a claim”).
OWN_NAMES = {
    "nvidia": {"NVIDIA"},
    "amd-instinct": {"AMD"},
    "google-tpu": {"Google", "Google Cloud"},
    "tenstorrent": {"vendor list price"},
    "cerebras": {"Cerebras"},
    "groq": {"Groq"},
}
# The data's metric, as a result's metric and unit (what it counts is kept in its own words).
METRICS = {
    "time to train (minutes)": ("time_to_train", "minutes"),
    "output tokens/s": ("throughput", "tokens/s"),
    "tokens/s": ("throughput", "tokens/s"),
    "throughput (tokens/s)": ("throughput", "tokens/s"),
    "scaling efficiency (%)": ("scaling", "%"),
    "price-performance ratio vs TPU v4 (x)": ("ratio", "x"),
}
MLPERF = re.compile(
    r"(?P<suite>MLPerf (?:Training|Inference)) (?P<version>v?\d+(?:\.\d+)*) (?P<workload>.+?)"
    r"(?: (?P<scenario>Offline|Server))?"
)


def _read(path: Path) -> Any:
    """A data file, its numbers as Decimals: 4.916 stays 4.916, never a binary float."""
    return json.loads(path.read_text(), parse_float=Decimal, parse_int=Decimal)


def _as_of(text: str | None) -> tuple[dt.date | None, str]:
    """“2026-05-18” a day, “2026-06” a month, none: (date, precision)."""
    if not text:
        return None, "day"
    parts = [int(part) for part in text.split("-")]
    return (dt.date(*parts), "day") if len(parts) == 3 else (dt.date(parts[0], parts[1], 1), "month")


def benchmark_parts(benchmark: str) -> dict[str, str]:
    """“MLPerf Inference v6.0 Llama 2 70B Offline” as its suite, version, workload and scenario;
    a measurement outside a suite is its workload only."""
    match = MLPERF.fullmatch(benchmark)
    if match is None:
        return {"suite": "", "suite_version": "", "workload": benchmark, "scenario": ""}
    return {
        "suite": match["suite"],
        "suite_version": match["version"],
        "workload": match["workload"],
        "scenario": match["scenario"] or "",
    }


class MarketLoader:
    """Loads a vendor's prices and results from the two files, each row citing its page."""

    def __init__(self) -> None:
        self.report = Report()
        self.known_source: Callable[[str], Source | None] = lambda url: None
        prices = _read(PRICES)
        self.prices = prices["prices"]
        self.notes: dict[int, str] = {}
        for contradiction in prices["contradictions"]:
            for row in contradiction["rows"]:
                self.notes[int(row)] = f"{contradiction['about']}: {contradiction['note']}"
        self.results = _read(RESULTS)["results"]

    def source(self, row: dict[str, Any]) -> Source:
        """The row's page: as the rest of the demo data names it, where it does; else as this row does."""
        if (known := self.known_source(row["url"])) is not None:
            return known
        note = row["source_type"] + (f". {row['note']}" if row.get("note") else "")
        source, created = Source.objects.get_or_create(
            url=row["url"],
            defaults={
                "title": row["title"],
                "publisher": row["publisher"],
                "accessed_on": COLLECTED_ON,
                "notes": note,
            },
        )
        self.report.count("sources", created)
        return source

    def cite(self, item: Price | Result, row: dict[str, Any]) -> None:
        """The row's page, with its verbatim words holding the number."""
        source = self.source(row)
        item.sources.add(source)
        set_evidence(
            row=item,
            evidence={
                source.pk: EvidenceInput(quote=row["quote"], support=Support.FULL, wording=Wording.QUOTE)
            },
        )

    def load(self, vendor, *, report, known_source: Callable[[str], Source | None]) -> None:
        """``vendor``'s prices and results; ``known_source`` gives the source of a page the rest
        of the demo data names (vendors.json's title for it), or None."""
        self.report, self.known_source = report, known_source
        own = OWN_NAMES.get(vendor.slug, set())
        position = 0
        for index, row in enumerate(self.prices):
            slug, chip = CHIPS[row["chip"]]
            if slug != vendor.slug:
                continue
            position += 1
            as_of, precision = _as_of(row["as_of"])
            price = Price.objects.create(
                vendor=vendor,
                chip=chip,
                provider=row["provider"],
                offer=row["offer"],
                kind=row["kind"],
                amount=row["amount"],
                currency=row["currency"],
                per=row["per"],
                chips_per_unit=row["chips_per_unit"],
                region=row["region"] or "",
                as_of=as_of,
                as_of_precision=precision,
                difference_note=self.notes.get(index, ""),
                vendor_stated=row["provider"] in own,
                verified_on=COLLECTED_ON,
                position=position,
            )
            self.cite(price, row)
            self.report.count("prices", True)
        position = 0
        for row in self.results:
            slug, chip = CHIPS[row["chip"]]
            if slug != vendor.slug:
                continue
            position += 1
            metric, unit = METRICS[row["metric"]]
            as_of, precision = _as_of(row["as_of"])
            result = Result.objects.create(
                vendor=vendor,
                chip=chip,
                system=row["system"],
                chips_in_system=row["chips_in_system"],
                **benchmark_parts(row["benchmark"]),
                metric=metric,
                value=row["value"],
                unit=unit,
                counted=row["metric"],
                division=row["division"] or "",
                availability=row["availability"] or "",
                submitter=row["submitter"] or "",
                as_of=as_of,
                as_of_precision=precision,
                vendor_stated=row["submitter"] in own,
                verified_on=COLLECTED_ON,
                position=position,
            )
            self.cite(result, row)
            self.report.count("results", True)
