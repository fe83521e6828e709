"""The documents that claims cite, and what the link checks found on them."""

from urllib.parse import urlsplit, urlunsplit

from django.core.validators import URLValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone


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
