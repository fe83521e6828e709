"""The working copy of a vendor profile."""

import uuid

from django.db import models
from django.urls import reverse

from claims.models import with_citations
from editorial.models import Editable

from .taxonomy import Lane


def logo_upload_to(instance, filename):
    """Stored under a generated name: nothing of the uploader's file name reaches the disk."""
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "png"
    return f"logos/{uuid.uuid4().hex}.{extension}"


class Vendor(Editable):
    """The working copy of a vendor profile. Visitors read its published versions (VendorVersion)."""

    name = models.CharField(max_length=200, help_text="The profiled chip line, e.g. “AWS Trainium”.")
    slug = models.SlugField(
        max_length=200,
        unique=True,
        help_text="The last part of its address: aws-trainium for /vendors/aws-trainium/.",
    )
    company = models.CharField(max_length=200, help_text="The maker, e.g. “Amazon Web Services”.")
    lane = models.ForeignKey(Lane, on_delete=models.PROTECT, related_name="vendors")
    logo = models.ImageField(
        upload_to=logo_upload_to,
        blank=True,
        help_text="PNG, JPEG or WebP, at most 2 MB and 16 megapixels. It is re-encoded on upload.",
    )
    logo_alt = models.CharField(
        "logo's text alternative",
        max_length=200,
        blank=True,
        help_text="What the logo shows, for readers who cannot see it. Left empty, pages read it as "
        "“<name> logo”.",
    )
    summary = models.TextField(blank=True, help_text="Markdown. The intro paragraph under the title.")
    what_it_is = models.TextField(
        "key takeaway: what it is", blank=True, help_text="Markdown. One or two sentences."
    )
    best_for = models.TextField(
        "key takeaway: best for", blank=True, help_text="Markdown. Who should pick it."
    )
    watch_out = models.TextField(
        "key takeaway: watch out", blank=True, help_text="Markdown. The main caveat."
    )
    alternative_blurb = models.CharField(
        "best for (one line)",
        max_length=300,
        blank=True,
        help_text="Shown when this vendor is listed as an alternative on another vendor's page.",
    )
    verdict = models.TextField(blank=True, help_text="Markdown. The editor's verdict.")

    class Meta:
        ordering = ["name"]
        permissions = [
            ("publish_vendor", "Can publish, schedule, unpublish and discard changes to vendors"),
            ("revert_vendor", "Can revert vendors to an earlier revision"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("vendors:detail", kwargs={"slug": self.slug})

    # What a revision of the profile holds (django-reversion follows these): every row with
    # its citations and what their descriptions name, one query a kind however long it is.
    # The citation tables are imported where used: claims.py imports this module.
    @property
    def facts_for_revision(self):
        from .claims import FactCitation

        return with_citations(self.facts.select_related("attribute"), FactCitation)

    @property
    def events_for_revision(self):
        from .claims import EventCitation

        return with_citations(self.events.all(), EventCitation)

    @property
    def scores_for_revision(self):
        from .claims import ScoreCitation

        return with_citations(self.scores.select_related("axis"), ScoreCitation)

    @property
    def faqs_for_revision(self):
        from .claims import FAQCitation

        return with_citations(self.faqs.all(), FAQCitation)

    @property
    def specs_for_revision(self):
        from chips.models import SpecCitation

        return with_citations(self.specs.all(), SpecCitation)

    @property
    def availability_for_revision(self):
        from chips.models import AvailabilityCitation

        return with_citations(self.availability.all(), AvailabilityCitation)

    @property
    def prices_for_revision(self):
        from chips.models import PriceCitation

        return with_citations(self.prices.all(), PriceCitation)

    @property
    def results_for_revision(self):
        from chips.models import ResultCitation

        return with_citations(self.results.all(), ResultCitation)
