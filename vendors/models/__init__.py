"""
The editorial data model: vendors, and everything a profile is made of.

A fact, event, score or answer cites sources through its own citation table whose
foreign key to Source is PROTECT: the database refuses to delete a source that
anything still cites, and the admin says what cites it.

One module a concern; every name is imported here, so ``from vendors.models import X``
works as it always has, and migrations name callables by this path
(``vendors.models.logo_upload_to``, ``vendors.models.SortIndex``).
"""

from .chips import (
    Availability,
    AvailabilityCitation,
    Precision,
    Scope,
    Spec,
    SpecCitation,
    SpecKind,
    Stage,
    StaleAvailability,
    StaleSpec,
    VersionChip,
    VersionSpec,
    chip_slug,
    chip_taken_by,
    chips_taken,
)
from .claims import (
    FAQ,
    Event,
    EventCitation,
    Fact,
    FactCitation,
    FAQCitation,
    Score,
    ScoreCitation,
    StaleEvent,
    StaleFact,
    StaleScore,
    display_date,
)
from .site_settings import SiteSettings
from .taxonomy import SCORE_MAX, SCORE_MIN, Attribute, Axis, Lane, score_total, total_max
from .vendor import Vendor, logo_upload_to
from .versions import LIVE_SPAN, SortIndex, VendorVersion, VersionScore

__all__ = [
    "FAQ",
    "LIVE_SPAN",
    "SCORE_MAX",
    "SCORE_MIN",
    "Attribute",
    "Availability",
    "AvailabilityCitation",
    "Axis",
    "Event",
    "EventCitation",
    "FAQCitation",
    "Fact",
    "FactCitation",
    "Lane",
    "Precision",
    "Scope",
    "Spec",
    "SpecCitation",
    "SpecKind",
    "Stage",
    "VersionChip",
    "VersionSpec",
    "chip_slug",
    "chip_taken_by",
    "chips_taken",
    "Score",
    "ScoreCitation",
    "SiteSettings",
    "SortIndex",
    "StaleAvailability",
    "StaleEvent",
    "StaleFact",
    "StaleScore",
    "StaleSpec",
    "Vendor",
    "VendorVersion",
    "VersionScore",
    "display_date",
    "logo_upload_to",
    "score_total",
    "total_max",
]
