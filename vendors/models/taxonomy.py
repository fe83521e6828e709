"""What every profile is measured against: lanes, at-a-glance attributes, scoring axes."""

from django.db import models
from django.urls import reverse

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
