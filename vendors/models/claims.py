"""What a profile is made of: facts, events, scores and answers, each citing its sources.

Each kind cites sources through its own citation table whose foreign key to Source is
PROTECT: the database refuses to delete a source that anything still cites.
"""

import reversion
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from claims.models import Source, Verifiable, VerifiableQuerySet, citation_table, display_date

from .taxonomy import SCORE_MAX, SCORE_MIN, Attribute, Axis
from .vendor import Vendor


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


FactCitation = citation_table(
    Fact, verbose_name="fact citation", unique_name="unique_fact_citation", prefix="fact_citation"
)
EventCitation = citation_table(
    Event, verbose_name="event citation", unique_name="unique_event_citation", prefix="event_citation"
)
ScoreCitation = citation_table(
    Score, verbose_name="score citation", unique_name="unique_score_citation", prefix="score_citation"
)
FAQCitation = citation_table(
    FAQ, verbose_name="answer citation", unique_name="unique_answer_citation", prefix="faq_citation"
)


# Revisions record a whole profile: the vendor and every row that follows it.
reversion.register(
    Vendor,
    follow=[
        "facts_for_revision",
        "events_for_revision",
        "scores_for_revision",
        "faqs_for_revision",
        "specs_for_revision",
        "availability_for_revision",
        "prices_for_revision",
        "results_for_revision",
    ],
)
reversion.register(Fact, follow=["factcitation_set"])
reversion.register(Event, follow=["eventcitation_set"])
reversion.register(Score, follow=["scorecitation_set"])
reversion.register(FAQ, follow=["faqcitation_set"])
for citation in (FactCitation, EventCitation, ScoreCitation, FAQCitation):
    reversion.register(citation)
