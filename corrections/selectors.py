"""What a reader can point at on a live page: its parts, as the correction form offers them."""

from __future__ import annotations

from dataclasses import dataclass

from comparisons.documents import comparison_document_of
from comparisons.models import ComparisonVersion
from vendors.documents import document_of
from vendors.selectors import live_version

OTHER = ("other", "Something else on the page")
LABEL_LENGTH = 100


@dataclass
class Target:
    """A live page a correction can be about."""

    name: str
    url: str
    parts: list[tuple[str, str]]  # [(value, label)], OTHER last
    vendor_id: int | None = None
    comparison_id: int | None = None

    def fact_id(self, value: str) -> int | None:
        """The fact a part names ("fact-12"), or None."""
        kind, _, pk = value.partition("-")
        return int(pk) if kind == "fact" and pk.isdigit() else None

    def label(self, value: str) -> str:
        return dict(self.parts)[value]


def _short(text: object) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= LABEL_LENGTH else text[: LABEL_LENGTH - 1].rstrip() + "…"


def vendor_target(*, slug: str) -> Target | None:
    """The live profile at ``slug``, or None."""
    version = live_version(slug=slug)
    if version is None:
        return None
    page = document_of(version)
    parts = [(f"fact-{f.id}", _short(f"{f.attribute.name}: {f.value}")) for f in page.facts]
    parts += [(f"event-{e.id}", _short(f"What changed, {e.display_date}: {e.text}")) for e in page.events]
    parts += [(f"score-{s.id}", _short(f"Score: {s.axis.name} {s.value}")) for s in page.scores]
    parts += [(f"faq-{q.id}", _short(f"Question: {q.question}")) for q in page.faqs]
    return Target(
        name=version.name, url=version.get_absolute_url(), parts=[*parts, OTHER], vendor_id=version.item_id
    )


def comparison_target(*, slug: str) -> Target | None:
    """The live editorial comparison at ``slug``, or None."""
    version = ComparisonVersion.objects.live().filter(slug=slug).first()
    if version is None:
        return None
    page = comparison_document_of(version)
    parts = [(f"criterion-{c.id}", _short(f"Criterion: {c.name}")) for c in page.criteria]
    parts += [(f"faq-{q.id}", _short(f"Question: {q.question}")) for q in page.faqs]
    return Target(
        name=version.title,
        url=version.get_absolute_url(),
        parts=[*parts, OTHER],
        comparison_id=version.item_id,
    )
