"""Site search's own index: what each published version says, in rows search can rank.

Entries are written once, when a version is published (``discovery.search.index_version``),
and belong to that version: a search reads the entries of live versions only, so a draft,
an unpublished change or a superseded version is never found.
"""

from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q

from comparisons.models import ComparisonVersion
from vendors.models import VendorVersion


class SearchEntry(models.Model):
    class Kind(models.TextChoices):
        # In the order a results page shows its groups.
        VENDOR = "vendor", "Vendors"
        CHIP = "chip", "Chips"
        COMPARISON = "comparison", "Comparisons"
        FACT = "fact", "Facts"
        EVENT = "event", "What changed"
        FAQ = "faq", "Questions"

    vendor_version = models.ForeignKey(
        VendorVersion, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    comparison_version = models.ForeignKey(
        ComparisonVersion, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    title = models.CharField(max_length=500, help_text="Weighs most: a name, a title, a question.")
    keywords = models.CharField(
        max_length=1000, blank=True, help_text="Weighs next: company, lane, attribute."
    )
    body = models.TextField(blank=True, help_text="The text itself, without Markdown.")
    page = models.CharField(max_length=300, help_text="The name of the page it is on.")
    url = models.CharField(max_length=500, help_text="The page and the section the entry comes from.")
    position = models.PositiveIntegerField(default=0, help_text="Its order on the page.")
    # Filled from title, keywords and body when the version is published (PostgreSQL only).
    vector = SearchVectorField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["kind", "position"]
        verbose_name_plural = "search entries"
        constraints = [
            models.CheckConstraint(
                condition=Q(vendor_version__isnull=True) ^ Q(comparison_version__isnull=True),
                name="search_entry_one_version",
                violation_error_message="A search entry belongs to one published version.",
            )
        ]
        indexes = [
            GinIndex(fields=["vector"], name="search_entry_vector"),
            GinIndex(OpClass("title", name="gin_trgm_ops"), name="search_entry_title_trgm"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.title}"
