"""
The editorial data model: vendors, and everything a profile is made of.

A fact, event, score or answer cites sources through its own citation table whose
foreign key to Source is PROTECT: the database refuses to delete a source that
anything still cites, and the admin says what cites it.
"""

import datetime as dt
import uuid
from urllib.parse import urlsplit, urlunsplit

import reversion
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, URLValidator
from django.db import models
from django.db.models import F, Prefetch, Q
from django.urls import reverse
from django.utils import timezone

from editorial.models import Editable, PublishedVersion

from .freshness import stale_condition, verified_moment, verified_moment_expression

SCORE_MIN = 1
SCORE_MAX = 5


def score_total(values):
    """A vendor's total: the sum of its scores on the active axes, None when it has none."""
    values = list(values)
    return sum(values) if values else None


def total_max(axis_count):
    """What a total is out of: SCORE_MAX on each active axis."""
    return SCORE_MAX * axis_count


class Lane(models.Model):
    name = models.CharField(
        max_length=100, unique=True, help_text="As readers see it, e.g. “hyperscaler custom silicon”."
    )
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(
        blank=True,
        help_text="Markdown. A sentence or two on what the vendors in this lane have in common, shown "
        "under its name on the lanes page and at the top of its own page. Leave empty rather than guess.",
    )
    position = models.PositiveIntegerField(default=0, help_text="Lanes are listed in this order.")

    class Meta:
        ordering = ["position", "name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("vendors:lane", kwargs={"slug": self.slug})


class Attribute(models.Model):
    """One at-a-glance label, shared by every vendor so comparisons can line rows up."""

    name = models.CharField(max_length=100, unique=True, help_text="The row label, e.g. “Memory”.")
    slug = models.SlugField(max_length=100, unique=True)
    position = models.PositiveIntegerField(
        default=0, help_text="Rows appear in this order on every profile and comparison."
    )

    class Meta:
        ordering = ["position", "name"]
        verbose_name = "at-a-glance attribute"

    def __str__(self):
        return self.name


class Axis(models.Model):
    """A scoring dimension shared by every vendor. Axes may change from one year to the next."""

    name = models.CharField(max_length=100, unique=True, help_text="May carry a year, e.g. “2026 momentum”.")
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True, help_text="What a 1 and a 5 mean on this axis.")
    position = models.PositiveIntegerField(default=0, help_text="Axes appear in this order.")
    is_active = models.BooleanField(
        "active", default=True, help_text="Only active axes are scored and shown."
    )

    class Meta:
        ordering = ["position", "name"]
        verbose_name = "scoring axis"
        verbose_name_plural = "scoring axes"

    def __str__(self):
        return self.name


def normalise_url(url):
    """A URL as one source is known by: scheme and host in lower case, no trailing slash
    on the path, so that a pasted ``HTTPS://AWS.amazon.com/trainium/`` finds the source
    stored as ``https://aws.amazon.com/trainium``. Anything not http(s) gives ""."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in {"http", "https"} or not parts.netloc:
        return ""
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


class SourceQuerySet(models.QuerySet):
    def with_url(self, url):
        """The sources whose URL is ``url`` once both are normalised (normalise_url)."""
        wanted = normalise_url(url)
        if not wanted:
            return self.none()
        # The stored URL starts with the normalised one, whatever the case: a narrow
        # index-friendly filter, then the exact comparison on the few candidates.
        candidates = self.filter(url__istartswith=wanted).only("pk", "url")[:50]
        return self.filter(pk__in=[s.pk for s in candidates if normalise_url(s.url) == wanted])


class Source(models.Model):
    title = models.CharField(max_length=300, help_text="The document's own title or headline.")
    publisher = models.CharField(max_length=200, blank=True, help_text="Who published it, e.g. “AWS”.")
    url = models.URLField(
        "URL",
        max_length=1000,
        unique=True,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="http or https only. One source per URL.",
    )
    accessed_on = models.DateField(
        "date accessed", null=True, blank=True, help_text="When an editor last read it."
    )
    notes = models.TextField(blank=True, help_text="For editors only; never shown to visitors.")
    archive_url = models.URLField(
        "archived copy",
        max_length=1000,
        blank=True,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="A copy kept by an archive (e.g. https://web.archive.org/web/…), shown to readers "
        "beside the original in case the original moves or disappears.",
    )

    # What the last check found (vendors/source_checks.py; `manage.py check_sources`).
    checked_at = models.DateTimeField("last checked", null=True, blank=True, editable=False)
    check_status = models.PositiveSmallIntegerField("HTTP status", null=True, blank=True, editable=False)
    check_error = models.CharField(
        "error", max_length=200, blank=True, editable=False, help_text="Why the page could not be read."
    )
    final_url = models.URLField(
        "final URL", max_length=1000, blank=True, editable=False, help_text="Where redirects led."
    )
    fingerprint = models.CharField(
        max_length=64, blank=True, editable=False, help_text="SHA-256 of the page's text."
    )
    text_changed_since = models.DateField(
        "text changed since",
        null=True,
        blank=True,
        editable=False,
        help_text="The last check that saw the page's earlier text, when a later check found it changed.",
    )
    failures = models.PositiveSmallIntegerField("failed checks in a row", default=0, editable=False)
    problem = models.CharField(
        max_length=200,
        blank=True,
        editable=False,
        help_text="Why what cites this source needs checking again, e.g. “returned 404”.",
    )
    problem_on = models.DateField("problem found on", null=True, blank=True, editable=False)
    problem_at = models.DateTimeField(
        "problem found at",
        null=True,
        blank=True,
        editable=False,
        help_text="Everything citing this source and verified before this moment is stale.",
    )

    objects = SourceQuerySet.as_manager()

    class Meta:
        ordering = ["title", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(url__startswith="http://") | Q(url__startswith="https://"),
                name="source_url_http_or_https",
            ),
            models.CheckConstraint(
                condition=Q(archive_url="")
                | Q(archive_url__startswith="http://")
                | Q(archive_url__startswith="https://"),
                name="source_archive_url_http_or_https",
            ),
        ]

    def __str__(self):
        return self.title

    @property
    def problem_text(self):
        """The reason in words, e.g. “source returned 404 on 2 Dec”; empty when there is none."""
        if not self.problem_on:
            return ""
        return f"source {self.problem} on {short_day(self.problem_on)}"

    @property
    def text_changed_text(self):
        """“page text changed since 28 Nov”, until an editor has read the page after that day."""
        if not self.text_changed_since:
            return ""
        if self.accessed_on and self.accessed_on > self.text_changed_since:
            return ""
        return f"page text changed since {short_day(self.text_changed_since)}"


def short_day(day):
    """“2 Dec”, or “2 Dec 2025” outside the current year."""
    text = f"{day.day} {day:%b}"
    return text if day.year == timezone.localdate().year else f"{text} {day.year}"


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
    @property
    def facts_for_revision(self):
        return with_citations(self.facts.select_related("attribute"), FactCitation)

    @property
    def events_for_revision(self):
        return with_citations(self.events.all(), EventCitation)

    @property
    def scores_for_revision(self):
        return with_citations(self.scores.select_related("axis"), ScoreCitation)

    @property
    def faqs_for_revision(self):
        return with_citations(self.faqs.all(), FAQCitation)


def with_citations(rows, citation_model):
    """``rows`` with their citations and the sources they name: how a revision reads them."""
    citations = f"{citation_model._meta.model_name}_set"
    return rows.prefetch_related(
        Prefetch(citations, queryset=citation_model.objects.select_related("source"))
    )


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
            return super(SortIndex, plain).create_sql(model, schema_editor, using=using, **kwargs)
        return super().create_sql(model, schema_editor, using=using, **kwargs)


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
        return reverse("vendors:detail", kwargs={"slug": self.slug})

    @property
    def verification(self):
        from .verification import PageVerification

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


class Verifiable(models.Model):
    """A row an editor checks against its sources: when, and who."""

    verified_on = models.DateField(
        null=True, blank=True, help_text="When an editor last checked this against its sources."
    )
    verified_at = models.DateTimeField(
        "verified at",
        null=True,
        blank=True,
        editable=False,
        help_text="The moment it was verified, compared with when a source's problem was found.",
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        editable=False,
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        # The moment follows the day an editor typed: now when it is today, else that day's start.
        if self.verified_on is None:
            self.verified_at = None
        elif self.verified_at is None or self.verified_at.astimezone(dt.UTC).date() != self.verified_on:
            now = timezone.now()
            same_day = now.astimezone(dt.UTC).date() == self.verified_on
            self.verified_at = now if same_day else verified_moment(self.verified_on, None)
        super().save(*args, **kwargs)


class VerifiableQuerySet(models.QuerySet):
    """The one staleness rule, for facts, events and scores alike."""

    def stale(self, *, days=None, today=None):
        """Rows never verified, last verified before the freshness window (see stale_before),
        or citing a source whose check found a problem after they were last verified
        (it failed twice in a row or moved to another site: see vendors/source_checks.py)."""
        return self.annotate(verified_moment=verified_moment_expression()).filter(
            stale_condition(self.model.sources.through, days=days, today=today)
        )

    def with_source_problems(self):
        """Each row's sources that have a problem or whose text changed, as ``checked_sources``."""
        flagged = Source.objects.filter(Q(problem_on__isnull=False) | Q(text_changed_since__isnull=False))
        return self.prefetch_related(Prefetch("sources", queryset=flagged, to_attr="checked_sources"))


class Fact(Verifiable):
    """One claim in an at-a-glance row. A vendor may have several under one attribute."""

    vendor = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="facts")
    attribute = models.ForeignKey(Attribute, on_delete=models.PROTECT, related_name="facts")
    value = models.TextField(help_text="Plain text, as readers will see it.")
    vendor_stated = models.BooleanField(
        default=False, help_text="Tick when the figure or claim comes from the vendor itself."
    )
    position = models.PositiveIntegerField(default=0, help_text="Order within the page.")
    sources = models.ManyToManyField(Source, through="FactCitation", blank=True, related_name="facts")

    objects = VerifiableQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "attribute__position", "position", "pk"]

    def __str__(self):
        return f"{self.attribute}: {self.value[:60]}"


class StaleFact(Fact):
    """The staleness queue in the admin: the same rows as Fact, listed by how long ago they were checked.

    It has no permissions of its own (the admin checks the Fact ones), so the Editor and
    Publisher groups need no change.
    """

    class Meta:
        proxy = True
        verbose_name = "stale fact"
        verbose_name_plural = "staleness queue: facts"
        default_permissions = ()


class Event(Verifiable):
    class Precision(models.TextChoices):
        DAY = "day", "Day"
        MONTH = "month", "Month"
        YEAR = "year", "Year"

    vendor = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="events")
    date = models.DateField(help_text="For a month or a year, any day in it: it is stored as the first day.")
    precision = models.CharField(
        max_length=5,
        choices=Precision.choices,
        default=Precision.DAY,
        help_text="How the date reads: “3 Dec 2025”, “Dec 2025” or “2025”.",
    )
    text = models.TextField(help_text="Plain text: what changed.")
    position = models.PositiveIntegerField(default=0, help_text="Order within the page.")
    sources = models.ManyToManyField(Source, through="EventCitation", blank=True, related_name="events")

    objects = VerifiableQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "position", "date", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(precision="day")
                | Q(precision="month", date__day=1)
                | Q(precision="year", date__day=1, date__month=1),
                name="event_date_matches_precision",
            ),
        ]

    def __str__(self):
        return f"{self.display_date}: {self.text[:60]}"

    def save(self, *args, **kwargs):
        self.normalize_date()
        super().save(*args, **kwargs)

    def clean(self):
        # Before the database constraint is checked by full_clean().
        self.normalize_date()

    def normalize_date(self):
        """Store the first day of the period the editor meant: any day in Dec 2025 is Dec 2025."""
        if self.date is None:
            return
        if self.precision == self.Precision.MONTH:
            self.date = self.date.replace(day=1)
        elif self.precision == self.Precision.YEAR:
            self.date = self.date.replace(month=1, day=1)

    @property
    def display_date(self):
        return display_date(self.date, self.precision)


def display_date(date, precision):
    """How an event's date reads at its precision: “3 Dec 2025”, “Dec 2025” or “2025”."""
    if precision == Event.Precision.YEAR:
        return f"{date:%Y}"
    if precision == Event.Precision.MONTH:
        return f"{date:%b %Y}"
    return f"{date.day} {date:%b %Y}"


class Score(Verifiable):
    vendor = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="scores")
    axis = models.ForeignKey(Axis, on_delete=models.PROTECT, related_name="scores")
    value = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(SCORE_MIN), MaxValueValidator(SCORE_MAX)],
        help_text="1 (weak) to 5 (best in class).",
    )
    reason = models.TextField(blank=True, help_text="Markdown. Why this mark.")
    sources = models.ManyToManyField(Source, through="ScoreCitation", blank=True, related_name="scores")

    objects = VerifiableQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "axis__position"]
        constraints = [
            models.UniqueConstraint(fields=["vendor", "axis"], name="one_score_per_vendor_and_axis"),
            models.CheckConstraint(
                condition=Q(value__gte=SCORE_MIN, value__lte=SCORE_MAX), name="score_from_1_to_5"
            ),
        ]

    def __str__(self):
        return f"{self.axis}: {self.value}"


class StaleEvent(Event):
    """The staleness queue's events (see StaleFact); the admin checks the Event permissions."""

    class Meta:
        proxy = True
        verbose_name = "stale event"
        verbose_name_plural = "staleness queue: events"
        default_permissions = ()


class StaleScore(Score):
    """The staleness queue's scores (see StaleFact); the admin checks the Score permissions."""

    class Meta:
        proxy = True
        verbose_name = "stale score"
        verbose_name_plural = "staleness queue: scores"
        default_permissions = ()


class FAQ(models.Model):
    vendor = models.ForeignKey(Vendor, on_delete=models.CASCADE, related_name="faqs")
    question = models.CharField(max_length=300)
    answer = models.TextField(help_text="Markdown.")
    position = models.PositiveIntegerField(default=0, help_text="Order within the page.")
    sources = models.ManyToManyField(Source, through="FAQCitation", blank=True, related_name="faqs")

    class Meta:
        ordering = ["vendor", "position", "pk"]
        verbose_name = "frequently asked question"

    def __str__(self):
        return self.question


class Citation(models.Model):
    """A link from one cited thing to one source; PROTECT keeps cited sources alive."""

    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="%(class)s_set")

    class Meta:
        abstract = True
        ordering = ["pk"]

    def __str__(self):
        return f"{self.cited} cites {self.source}"


class FactCitation(Citation):
    cited = models.ForeignKey(Fact, on_delete=models.CASCADE, db_column="fact_id")

    class Meta(Citation.Meta):
        verbose_name = "fact citation"
        constraints = [models.UniqueConstraint(fields=["cited", "source"], name="unique_fact_citation")]


class EventCitation(Citation):
    cited = models.ForeignKey(Event, on_delete=models.CASCADE, db_column="event_id")

    class Meta(Citation.Meta):
        verbose_name = "event citation"
        constraints = [models.UniqueConstraint(fields=["cited", "source"], name="unique_event_citation")]


class ScoreCitation(Citation):
    cited = models.ForeignKey(Score, on_delete=models.CASCADE, db_column="score_id")

    class Meta(Citation.Meta):
        verbose_name = "score citation"
        constraints = [models.UniqueConstraint(fields=["cited", "source"], name="unique_score_citation")]


class FAQCitation(Citation):
    cited = models.ForeignKey(FAQ, on_delete=models.CASCADE, db_column="faq_id")

    class Meta(Citation.Meta):
        verbose_name = "answer citation"
        constraints = [models.UniqueConstraint(fields=["cited", "source"], name="unique_answer_citation")]


class SiteSettings(models.Model):
    """Site-wide text editors change without a deploy: one row, edited in the admin."""

    rankings_intro = models.TextField(
        blank=True, help_text="Markdown. The paragraph above the rankings table on the home page."
    )
    callout_text = models.TextField(
        "explainer callout",
        blank=True,
        help_text="Markdown. The short promoted link on every profile, e.g. “New to custom AI silicon? ...”.",
    )
    cta_heading = models.CharField(
        "call to action heading", max_length=200, blank=True, help_text="Shown at the foot of profiles."
    )
    cta_text = models.CharField("call to action text", max_length=300, blank=True)
    cta_link_label = models.CharField(
        "call to action button",
        max_length=100,
        default="See the rankings",
        help_text="Links to the rankings.",
    )

    class Meta:
        verbose_name = "site settings"
        verbose_name_plural = "site settings"
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="site_settings_single_row")]

    def __str__(self):
        return "Site settings"

    def save(self, *args, **kwargs):
        self.pk = 1
        super().save(*args, **kwargs)

    @classmethod
    def load(cls):
        """The saved row, or the defaults while nobody has saved one: reading never writes."""
        return cls.objects.filter(pk=1).first() or cls(pk=1)


# Revisions record a whole profile: the vendor and every row that follows it.
reversion.register(
    Vendor, follow=["facts_for_revision", "events_for_revision", "scores_for_revision", "faqs_for_revision"]
)
reversion.register(Fact, follow=["factcitation_set"])
reversion.register(Event, follow=["eventcitation_set"])
reversion.register(Score, follow=["scorecitation_set"])
reversion.register(FAQ, follow=["faqcitation_set"])
for citation in (FactCitation, EventCitation, ScoreCitation, FAQCitation):
    reversion.register(citation)
