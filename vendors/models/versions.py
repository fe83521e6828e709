"""Published versions of a profile: immutable, time-spanned, and what lists sort on."""

import functools
from typing import ClassVar

from django.db import models
from django.db.models import F
from django.urls import get_script_prefix, reverse

from editorial.models import PublishedVersion, VersionQuerySet

from .taxonomy import Axis, Lane
from .vendor import Vendor

_SLUG = "slug-of-the-vendor"


@functools.cache
def _profile_address(prefix: str) -> str:
    return reverse("vendors:detail", kwargs={"slug": _SLUG})


def profile_url(slug: str) -> str:
    """A profile's address, reversed once and filled in with ``slug`` (a slug needs no quoting): a
    list asks it for every row it shows, and Django's reverse is most of a row's cost there."""
    return _profile_address(get_script_prefix()).replace(_SLUG, slug)


LIVE_SPAN = ("published_at", "superseded_at")  # the columns VersionQuerySet.live() reads


class SortIndex(models.Index):
    """An index in the order a list sorts by, ``NULLS LAST`` included where the database
    takes it in an index (PostgreSQL); SQLite, which does not, gets the plain order."""

    def create_sql(self, model, schema_editor, using="", **kwargs):
        if schema_editor.connection.vendor == "sqlite":
            plain = self.clone()
            plain.expressions = tuple(
                models.OrderBy(e.expression, descending=e.descending) if isinstance(e, models.OrderBy) else e
                for e in self.expressions
            )
            return models.Index.create_sql(plain, model, schema_editor, using=using, **kwargs)
        return super().create_sql(model, schema_editor, using=using, **kwargs)


class VendorVersionQuerySet(VersionQuerySet["VendorVersion"]):
    def scored(self):
        """Versions with a total: the only ones a ranking ranks."""
        return self.filter(total__isnull=False)

    def not_scored(self):
        """Versions with no score on any active axis: listed apart, under "Not scored yet"."""
        return self.filter(total__isnull=True)


VendorVersionManager = models.Manager.from_queryset(VendorVersionQuerySet)


class VendorVersion(PublishedVersion):
    """A profile as it was published: the whole page in ``document``, and what lists sort on."""

    item = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="versions")
    slug = models.SlugField(max_length=200)
    name = models.CharField(max_length=200)
    company = models.CharField(max_length=200)
    lane = models.ForeignKey(Lane, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    alternative_blurb = models.CharField("best for (one line)", max_length=300, blank=True)
    total = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Over the active axes.")
    verified_on = models.DateField(
        "facts verified", null=True, blank=True, help_text="The oldest verified date among its facts."
    )
    unverified_facts = models.PositiveIntegerField(default=0, help_text="Facts never verified.")
    fact_count = models.PositiveIntegerField(default=0)

    objects: ClassVar[VendorVersionManager] = VendorVersionQuerySet.as_manager()

    class Meta(PublishedVersion.Meta):
        verbose_name = "published version"
        constraints = [
            models.UniqueConstraint(fields=["item", "number"], name="vendor_version_number_once"),
        ]
        indexes = [
            models.Index(fields=["slug", "published_at"], name="vendor_version_slug"),
            models.Index(fields=["lane", "name"], name="vendor_version_lane_name"),
            # The orders rankings, lane pages and the vendor list sort by, each followed by
            # the live span: a page's keys are read from the index alone, however deep.
            SortIndex(
                F("total").desc(nulls_last=True), "name", "id", *LIVE_SPAN, name="vendor_version_total"
            ),
            SortIndex(
                "lane",
                F("total").desc(nulls_last=True),
                "name",
                "id",
                *LIVE_SPAN,
                name="vendor_version_lane_total",
            ),
            models.Index(fields=["name", "id", *LIVE_SPAN], name="vendor_version_name"),
            # What is live, per lane, counted from the index alone (page counts, lane sizes).
            models.Index(
                fields=["lane", "published_at", "superseded_at", "id"], name="vendor_version_live_lane"
            ),
        ]

    def get_absolute_url(self):
        return profile_url(self.slug)

    @property
    def is_scored(self) -> bool:
        """What ``VendorVersionQuerySet.scored()`` asks of the database, for a row in hand."""
        return self.total is not None

    @property
    def verification(self):
        from claims.verification import PageVerification

        return PageVerification(
            oldest=self.verified_on, unverified=self.unverified_facts, facts=self.fact_count
        )


class VersionScore(models.Model):
    """One axis score of a published version, so lists sort and filter on it with an index."""

    version = models.ForeignKey(VendorVersion, on_delete=models.CASCADE, related_name="scores")
    axis = models.ForeignKey(Axis, on_delete=models.CASCADE, related_name="+")
    value = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["version", "axis__position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "axis"], name="version_score_once_per_axis"),
        ]
        indexes = [models.Index(fields=["axis", "value"], name="version_score_axis_value")]

    def __str__(self):
        return f"{self.axis_id}: {self.value}"
