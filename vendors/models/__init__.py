"""
The editorial data model: vendors, and everything a profile is made of.

A fact, event, score or answer cites sources through its own citation table whose
foreign key to Source is PROTECT: the database refuses to delete a source that
anything still cites, and the admin says what cites it.

One module a concern; every name is imported here, so ``from vendors.models import X``
works as it always has, and migrations name callables by this path
(``vendors.models.logo_upload_to``, ``vendors.models.SortIndex``).
"""

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
    "Axis",
    "Event",
    "EventCitation",
    "FAQCitation",
    "Fact",
    "FactCitation",
    "Lane",
    "Score",
    "ScoreCitation",
    "SiteSettings",
    "SortIndex",
    "StaleEvent",
    "StaleFact",
    "StaleScore",
    "Vendor",
    "VendorVersion",
    "VersionScore",
    "logo_upload_to",
    "score_total",
    "total_max",
]
