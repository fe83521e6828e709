from django.conf import settings
from django.db import models
from django.db.models import Q

from comparisons.models import Comparison
from vendors.models import Fact, Vendor

PROBLEM_MAX_LENGTH = 2000


class CorrectionQuerySet(models.QuerySet):
    def open(self):
        """Corrections nobody has accepted or rejected yet: the editors' queue."""
        return self.filter(status=Correction.Status.NEW)


class Correction(models.Model):
    """A reader's report that something on a page is wrong, with the source that says so."""

    class Status(models.TextChoices):
        NEW = "new", "New"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    vendor = models.ForeignKey(
        Vendor, on_delete=models.CASCADE, null=True, blank=True, related_name="corrections"
    )
    comparison = models.ForeignKey(
        Comparison, on_delete=models.CASCADE, null=True, blank=True, related_name="corrections"
    )
    fact = models.ForeignKey(
        Fact,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="corrections",
        help_text="The fact the reader pointed at, while it exists.",
    )
    part = models.CharField(
        "which part",
        max_length=300,
        help_text="What the reader says is wrong, as they picked it on the page.",
    )
    problem = models.TextField("what is wrong", max_length=PROBLEM_MAX_LENGTH)
    source_url = models.URLField("source", max_length=500, help_text="Where the reader read otherwise.")
    email = models.EmailField(blank=True, help_text="Only to answer the reader; never shown.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.NEW)
    created_at = models.DateTimeField("sent", auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    editor_note = models.CharField(
        max_length=500, blank=True, help_text="Why it was accepted or rejected, for the other editors."
    )

    objects = CorrectionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(vendor__isnull=True) ^ Q(comparison__isnull=True),
                name="correction_one_page",
                violation_error_message="A correction is about one profile or one comparison.",
            ),
            models.CheckConstraint(
                condition=Q(status="new", handled_at__isnull=True)
                | (~Q(status="new") & Q(handled_at__isnull=False)),
                name="correction_handled_when_decided",
                violation_error_message="A decided correction says when it was decided.",
            ),
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="correction_queue")]

    def __str__(self):
        return f"{self.page_name}: {self.part}"

    @property
    def page_name(self) -> str:
        if self.vendor is not None:
            return self.vendor.name
        assert self.comparison is not None  # correction_one_page: one profile or one comparison
        return self.comparison.title
