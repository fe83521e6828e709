"""Editorial head-to-head comparisons of two to five vendors, with their own criteria."""

from typing import TYPE_CHECKING

import reversion
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse

from claims.models import Citation, Source, citation_table, with_citations
from editorial.models import Editable, PublishedVersion
from vendors.models import SCORE_MAX, SCORE_MIN, Attribute, Axis, Vendor

if TYPE_CHECKING:
    from django.db.models.fields.related_descriptors import RelatedManager

MIN_VENDORS = 2
MAX_VENDORS = 5


class Comparison(Editable):
    """The working copy of a comparison. Visitors read its published versions (ComparisonVersion)."""

    title = models.CharField(max_length=200, help_text="E.g. “Google TPU vs AWS Trainium vs Nvidia GPU”.")
    slug = models.SlugField(
        max_length=200,
        unique=True,
        help_text="The last part of its address: tpu-vs-trainium for /compare/tpu-vs-trainium/.",
    )
    summary = models.CharField(max_length=300, help_text="One line, shown wherever the comparison is listed.")
    intro = models.TextField(blank=True, help_text="Markdown. Shown above the table.")
    verdict = models.TextField(blank=True, help_text="Markdown. The editor's verdict.")
    vendors = models.ManyToManyField(Vendor, through="ComparisonVendor", related_name="comparisons")
    # The reverse of ComparisonCitation.cited, a table citation_table builds.
    comparisoncitation_set: "RelatedManager[Citation]"
    sources = models.ManyToManyField(
        Source, through="ComparisonCitation", blank=True, related_name="comparisons"
    )
    verified_on = models.DateField(
        "verified on", null=True, blank=True, help_text="When an editor last checked the page's own text."
    )

    class Meta:
        ordering = ["title"]
        permissions = [
            ("publish_comparison", "Can publish, schedule, unpublish and discard changes to comparisons"),
            ("revert_comparison", "Can revert comparisons to an earlier revision"),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("comparisons:detail", kwargs={"slug": self.slug})

    # What a revision of the comparison holds (django-reversion follows these): every row
    # with its citations and what their descriptions name, one query a kind however many.
    @property
    def entries_for_revision(self):
        return self.entries.select_related("vendor", "comparison")

    @property
    def assessments_for_revision(self):
        return with_citations(
            self.assessments.select_related("criterion", "entry__vendor"), AssessmentCitation
        )

    @property
    def faqs_for_revision(self):
        return with_citations(self.faqs.all(), ComparisonFAQCitation)

    @property
    def citations_for_revision(self):
        # ``cited`` is ComparisonCitation's own, which the abstract Citation does not declare.
        return self.comparisoncitation_set.select_related("cited", "source")  # type: ignore[misc]


class ComparisonVersion(PublishedVersion):
    """A comparison as it was published; its vendors' columns come from their own live versions."""

    item = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="versions")
    slug = models.SlugField(max_length=200)
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=300)
    vendors = models.ManyToManyField(Vendor, related_name="+", blank=True)

    class Meta(PublishedVersion.Meta):
        verbose_name = "published version"
        constraints = [
            models.UniqueConstraint(fields=["item", "number"], name="comparison_version_number_once"),
        ]
        indexes = [models.Index(fields=["slug", "published_at"], name="comparison_version_slug")]

    def get_absolute_url(self):
        return reverse("comparisons:detail", kwargs={"slug": self.slug})


class ComparisonVendor(models.Model):
    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="entries")
    vendor = models.ForeignKey(Vendor, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField(default=0, help_text="Columns appear in this order.")
    pick_if = models.CharField(
        "pick this if",
        max_length=300,
        blank=True,
        help_text="Completes “Pick this if …”, e.g. “you already run on AWS”.",
    )

    class Meta:
        ordering = ["comparison", "position", "pk"]
        verbose_name = "compared vendor"
        constraints = [
            models.UniqueConstraint(
                fields=["comparison", "vendor"],
                name="vendor_once_per_comparison",
                violation_error_message="This vendor is already in the comparison.",
            ),
        ]

    def __str__(self):
        return f"{self.vendor} in {self.comparison}"


class Criterion(models.Model):
    """A row of the comparison's own: a value or a 1-5 mark per vendor, or a pointer to shared data."""

    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="criteria")
    name = models.CharField(max_length=100, help_text="E.g. “Token price”.")
    position = models.PositiveIntegerField(default=0, help_text="Rows appear in this order.")
    attribute = models.ForeignKey(
        Attribute,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Show this at-a-glance attribute's values instead of writing them again.",
    )
    axis = models.ForeignKey(
        Axis,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Show this axis's scores instead of marking again.",
    )

    class Meta:
        ordering = ["comparison", "position", "pk"]
        verbose_name_plural = "criteria"
        constraints = [
            models.CheckConstraint(
                condition=Q(attribute__isnull=True) | Q(axis__isnull=True),
                name="criterion_points_to_one_thing_at_most",
                violation_error_message="A criterion points to an attribute or an axis, not both.",
            ),
            models.UniqueConstraint(fields=["comparison", "name"], name="criterion_name_once_per_comparison"),
        ]

    def __str__(self):
        return self.name


class Assessment(models.Model):
    """One compared vendor's value or mark on one criterion, with a reason and citations.

    It hangs off the comparison's vendor row, so taking a vendor out of the comparison takes its
    assessments with it. ``comparison`` repeats what the criterion and the row both name: it is
    the foreign key the admin's inline follows, and ``clean`` keeps the three in agreement.
    """

    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="assessments")
    criterion = models.ForeignKey(Criterion, on_delete=models.CASCADE, related_name="assessments")
    entry = models.ForeignKey(
        ComparisonVendor, on_delete=models.CASCADE, related_name="assessments", verbose_name="vendor"
    )
    value = models.CharField(
        max_length=300, blank=True, help_text="Plain text, e.g. “$0.60 per million tokens”."
    )
    mark = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(SCORE_MIN), MaxValueValidator(SCORE_MAX)],
        help_text="1 to 5, when the criterion is marked rather than described.",
    )
    reason = models.TextField(blank=True, help_text="Markdown. A short reason.")
    vendor_stated = models.BooleanField(default=False, help_text="Tick when the value comes from the vendor.")
    sources = models.ManyToManyField(Source, through="AssessmentCitation", blank=True, related_name="+")

    class Meta:
        ordering = ["criterion", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["criterion", "entry"],
                name="one_assessment_per_vendor",
                violation_error_message="This vendor already has an assessment on this criterion.",
            ),
            models.CheckConstraint(
                condition=Q(mark__isnull=True) | Q(mark__gte=SCORE_MIN, mark__lte=SCORE_MAX),
                name="assessment_mark_from_1_to_5",
                violation_error_message="A mark is from 1 to 5.",
            ),
        ]

    def __str__(self):
        return f"{self.criterion}: {self.entry.vendor}"

    def clean(self):
        super().clean()
        for field in ("criterion", "entry"):
            row_comparison = getattr(getattr(self, field, None), "comparison_id", None)
            if self.comparison_id and row_comparison not in (None, self.comparison_id):
                raise ValidationError({field: "Pick one of this comparison's own."})


class ComparisonFAQ(models.Model):
    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="faqs")
    question = models.CharField(max_length=300)
    answer = models.TextField(help_text="Markdown.")
    position = models.PositiveIntegerField(default=0)
    sources = models.ManyToManyField(Source, through="ComparisonFAQCitation", blank=True, related_name="+")

    class Meta:
        ordering = ["comparison", "position", "pk"]
        verbose_name = "frequently asked question"

    def __str__(self):
        return self.question


ComparisonCitation = citation_table(
    Comparison,
    verbose_name="comparison citation",
    unique_name="unique_comparison_citation",
    prefix="comparison_citation",
)
AssessmentCitation = citation_table(
    Assessment,
    verbose_name="assessment citation",
    unique_name="unique_assessment_citation",
    prefix="assessment_citation",
)
ComparisonFAQCitation = citation_table(
    ComparisonFAQ,
    verbose_name="comparison answer citation",
    unique_name="unique_comparison_answer_citation",
    prefix="comparison_answer_citation",
    column="faq_id",
)


# Revisions record a whole comparison: its vendors, criteria, assessments, FAQs and citations.
reversion.register(
    Comparison,
    follow=[
        "entries_for_revision",
        "criteria",
        "assessments_for_revision",
        "faqs_for_revision",
        "citations_for_revision",
    ],
)
reversion.register(ComparisonVendor)
reversion.register(Criterion)
reversion.register(Assessment, follow=["assessmentcitation_set"])
reversion.register(ComparisonFAQ, follow=["comparisonfaqcitation_set"])
for citation in (ComparisonCitation, AssessmentCitation, ComparisonFAQCitation):
    reversion.register(citation)
