"""What “verified” means for a page: the one rule every surface shows.

A page's facts are verified as of the oldest verified date among them. A fact never
verified is not hidden behind that date: the page says how many there are in words.
Profiles, rankings, the vendor list, lane pages and both kinds of comparison read the
value computed here when a version is published (stored on VendorVersion), or from the
working copy for an editor's preview: the same function either way.
"""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import ngettext


@dataclass(frozen=True)
class PageVerification:
    oldest: dt.date | None  # the oldest verified date among the facts that were verified
    unverified: int  # facts never verified
    facts: int  # facts on the page

    @property
    def complete(self) -> bool:
        """Every fact has been verified."""
        return self.facts > 0 and self.unverified == 0

    @property
    def unverified_text(self) -> str:
        if not self.unverified:
            return ""
        return ngettext(
            "%(count)d fact not yet verified", "%(count)d facts not yet verified", self.unverified
        ) % {"count": self.unverified}


def page_verification(dates: Iterable[dt.date | None]) -> PageVerification:
    """The rule itself, from the verified dates of a page's facts (None for a fact never verified)."""
    dates = list(dates)
    verified = [day for day in dates if day is not None]
    return PageVerification(
        oldest=min(verified, default=None), unverified=len(dates) - len(verified), facts=len(dates)
    )
