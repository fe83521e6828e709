"""The citation kernel's data: the documents claims cite (Source) and what the link checks found
on them, and the abstract rows every content app builds its claims on: a row an editor verifies
(Verifiable, with the one stale rule as a queryset filter) and a citation with its evidence
(Citation), declared for a claim model by ``citation_table``.

Each claim model cites sources through its own citation table whose foreign key to Source is
PROTECT: the database refuses to delete a source that anything still cites.
"""

import datetime as dt
from typing import ClassVar, Self
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.validators import URLValidator
from django.db import models
from django.db.models import Prefetch, Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone

from .freshness import stale_condition, verified_moment, verified_moment_expression


def normalise_url(url):
    """A URL as one source is known by: scheme and host in lower case, no trailing slash
    on the path, so that a pasted ``HTTPS://AWS.amazon.com/trainium/`` finds the source
    stored as ``https://aws.amazon.com/trainium``. Anything not http(s) gives ""."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in {"http", "https"} or not parts.netloc:
        return ""
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


class SourceQuerySet(models.QuerySet["Source"]):
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

    # What the last check found (claims/source_checks.py; `manage.py check_sources`).
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

    # The page's visible text at the last two checks that read it (zlib-compressed UTF-8, at most
    # PAGE_TEXT_MAX characters): the passage around a found quote, and what changed when one went.
    page_text = models.BinaryField(blank=True, default=b"", editable=False)
    previous_page_text = models.BinaryField(blank=True, default=b"", editable=False)
    page_text_at = models.DateTimeField("page text read at", null=True, blank=True, editable=False)

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


def display_date(date, precision):
    """How a date reads at its precision (an event's, an availability's month): “3 Dec 2025”,
    “Dec 2025” or “2025”."""
    if precision == "year":
        return f"{date:%Y}"
    if precision == "month":
        return f"{date:%b %Y}"
    return f"{date.day} {date:%b %Y}"


def short_day(day):
    """“2 Dec”, or “2 Dec 2025” outside the current year."""
    text = f"{day.day} {day:%b}"
    return text if day.year == timezone.localdate().year else f"{text} {day.year}"


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
        (it failed twice in a row or moved to another site: see claims/source_checks.py)."""
        return self.annotate(verified_moment=verified_moment_expression()).filter(
            stale_condition(citation_table_of(self.model), days=days, today=today)
        )

    def with_source_problems(self):
        """Each row's sources that have a problem or whose text changed, as ``checked_sources``,
        and its citations whose quote a check did not find, as ``missing_quotes``."""
        flagged = Source.objects.filter(Q(problem_on__isnull=False) | Q(text_changed_since__isnull=False))
        missing = citation_table_of(self.model).objects.filter(quote_missing_at__isnull=False)
        return self.prefetch_related(
            Prefetch(
                "sources",
                queryset=flagged.defer("page_text", "previous_page_text"),
                to_attr="checked_sources",
            ),
            Prefetch(citations_of(self.model), queryset=missing, to_attr="missing_quotes"),
        )


QUOTE_MAX = 500  # characters: the source's own words, not the whole page


class Support(models.TextChoices):
    """How far a source bears out what cites it: the evidence readers are told."""

    FULL = "full", "Full support"
    PARTIAL = "partial", "Partial support"
    CONTRADICTS = "contradicts", "Contradicts"


class Wording(models.TextChoices):
    """What a citation's text is: the source's own words (shown in quotation marks and checked
    against the page) or the editor's summary of what it says (labelled, never quoted or checked)."""

    QUOTE = "quote", "Quote: the source's own words"
    SUMMARY = "summary", "Summary: our words for what the source says"


class Citation(models.Model):
    """A link from one cited thing to one source, with the evidence: the source's own words
    and how far they support it. PROTECT keeps cited sources alive."""

    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="%(class)s_set")
    quote = models.TextField(
        blank=True,
        max_length=QUOTE_MAX,
        help_text=f"The source's own words that bear on the claim, at most {QUOTE_MAX} characters. "
        "Readers see it in the Sources list.",
    )
    support = models.CharField(
        max_length=11,
        choices=Support.choices,
        default=Support.FULL,
        help_text="Whether the source supports the claim fully, only partly, or contradicts it.",
    )
    wording = models.CharField(
        max_length=7,
        choices=Wording.choices,
        default=Wording.QUOTE,
        help_text="A quote is checked against the source's page and shown in quotation marks; "
        "a summary is labelled “Summary” and never checked as a quote.",
    )
    # What the last check of the source found of the quote (claims/source_checks.py).
    quote_found = models.BooleanField(
        "quote found on the source", null=True, editable=False, help_text="Empty until checked."
    )
    quote_checked_at = models.DateTimeField("quote checked at", null=True, blank=True, editable=False)
    quote_missing_at = models.DateTimeField(
        "quote missing since",
        null=True,
        blank=True,
        editable=False,
        help_text="When a check first did not find the quote: a problem moment, like a dead source.",
    )

    class Meta:
        abstract = True
        ordering = ["pk"]

    # The row that cites: each table citation_table builds declares it as a foreign key.
    cited: models.Model
    objects: ClassVar[models.Manager[Self]]  # each concrete table's own

    def __str__(self):
        return f"{self.cited} cites {self.source}"


def evidence_constraints(prefix: str) -> list[models.BaseConstraint]:
    """What the database holds every citation table to: a support it knows, a quote that fits."""
    return [
        models.CheckConstraint(
            condition=Q(support__in=Support.values),
            name=f"{prefix}_support_known",
            violation_error_message="Support is full, partial or contradicts.",
        ),
        models.CheckConstraint(
            condition=LessThanOrEqual(Length("quote"), QUOTE_MAX),
            name=f"{prefix}_quote_fits",
            violation_error_message=f"A quote is at most {QUOTE_MAX} characters.",
        ),
    ]


def citation_table(
    cited: type[models.Model], *, verbose_name: str, unique_name: str, prefix: str, column: str = ""
) -> type[Citation]:
    """The citation table of one claim model: a Citation whose ``cited`` points at ``cited`` (in
    the column ``column``, by default named as the model: ``fact_id``), unique per cited row and
    source, held by the database to the evidence rules. Declared once here, in place of one near
    copy per model:

        FactCitation = citation_table(Fact, verbose_name="fact citation", ...)
    """
    model_name = cited._meta.model_name
    name = f"{cited.__name__}Citation"
    meta = type(
        "Meta",
        (Citation.Meta,),
        {
            "verbose_name": verbose_name,
            "constraints": [
                models.UniqueConstraint(fields=["cited", "source"], name=unique_name),
                *evidence_constraints(prefix),
            ],
        },
    )
    attributes = {
        "__module__": cited.__module__,
        "__qualname__": name,
        "__doc__": f"What one {verbose_name.removesuffix(' citation')} cites: a source and its evidence.",
        "cited": models.ForeignKey(cited, on_delete=models.CASCADE, db_column=column or f"{model_name}_id"),
        "Meta": meta,
    }
    return type(name, (Citation,), attributes)


def citation_table_of(model: type[models.Model]) -> type[Citation]:
    """The citation table ``model`` cites its ``sources`` through (see citation_table)."""
    field = model._meta.get_field("sources")
    assert isinstance(field, models.ManyToManyField)
    through = field.remote_field.through
    assert isinstance(through, type) and issubclass(through, Citation)
    return through


def citations_of(model) -> str:
    """The name of ``model``'s citations (its ``sources``' own table): what a document's
    evidence reads, prefetched as ``prefetch_related(citations_of(Fact))``."""
    through = model._meta.get_field("sources").remote_field.through
    return f"{through._meta.model_name}_set"


def with_citations(rows, citation_model):
    """``rows`` with their citations and the sources they name: how a revision reads them."""
    citations = f"{citation_model._meta.model_name}_set"
    return rows.prefetch_related(
        Prefetch(citations, queryset=citation_model.objects.select_related("source"))
    )
