"""What the downloads read: live published versions only, in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import QuerySet

from chips.models import VersionChip
from chips.selectors import LiveChip, drawn, live_chips
from comparisons.documents import ComparisonDocument, comparison_document_of
from comparisons.models import ComparisonVersion
from comparisons.selectors import live_comparison
from editorial.models import VersionQuerySet
from vendors.listings import add_scores_verified, ranked_then_not_scored, with_scores_read
from vendors.models import Axis, VendorVersion, VersionScore
from vendors.selectors import lanes_with_vendor_counts, live_vendors

__all__ = ["lanes_with_vendor_counts", "live_comparison"]


def live_comparisons() -> VersionQuerySet[ComparisonVersion]:
    return ComparisonVersion.objects.live().defer("history", "changes").order_by("title", "pk")


def comparison_columns(pages: Sequence[ComparisonDocument]) -> dict[int, list[VendorVersion]]:
    """{comparison pk: [its vendors' live versions, in column order]} for many comparisons in
    one query; a vendor that is not live has no column, as on the page."""
    ids = {entry.vendor_id for page in pages for entry in page.entries}
    live = {
        version.item_id: version
        for version in live_vendors().filter(item_id__in=ids).defer("history", "changes")
    }
    return {
        page.pk: [live[entry.vendor_id] for entry in page.entries if entry.vendor_id in live]
        for page in pages
    }


def ranked_vendors(*, axes: Sequence[Axis]) -> tuple[list[VendorVersion], dict[tuple[int, int], int]]:
    """Every live vendor: the scored in the rankings' editorial order, then those not scored
    yet by name, each with its ``scores_verified`` (the stale rule's answer for its scores, as
    the rankings page shows it); and {(version pk, axis pk): score}: two queries, whatever the
    catalogue holds."""
    versions = list(with_scores_read(ranked_then_not_scored()))
    add_scores_verified(versions, axes=axes)
    scores = {
        (version_id, axis_id): value
        for version_id, axis_id, value in VersionScore.objects.filter(
            version__in=live_vendors().values("pk"), axis__in=axes
        ).values_list("version_id", "axis_id", "value")
    }
    return versions, scores


def vendor_versions_with_documents() -> VersionQuerySet[VendorVersion]:
    """Every live vendor's version, document included, by name: the whole-site dump."""
    return live_vendors().select_related("lane").defer("history", "changes").order_by("name", "pk")


def read_comparisons(versions: Iterable[ComparisonVersion]) -> list[ComparisonDocument]:
    return [comparison_document_of(version) for version in versions]


def live_chip_rows() -> QuerySet[VersionChip]:
    """Every live chip's index row with its version, by vendor then in the editors' order,
    the documents left unread: one query, whatever the catalogue holds."""
    return live_chips().defer("version__document", "version__history", "version__changes")


def chips_of_versions(version_ids: Sequence[int]) -> list[LiveChip]:
    """The live chips of these versions, each drawn from its version's document."""
    return drawn(live_chips().filter(version__in=list(version_ids)))
