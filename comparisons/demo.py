"""Demo content: the two head-to-head comparisons the reference profile lists.

The reference page gives each comparison its title and one-line summary, and the summary
names what it is scored on; those names become its criteria, in the summary's order. The
page gives nothing else (no intro, verdict, “pick this if” lines, assessments, FAQs or
sources), so nothing else is filled in. A comparison whose slug exists is left alone.

Runs after the vendors are loaded (``manage.py load_demo`` calls each app's loader in turn).
"""

import datetime as dt
from typing import TypedDict

from vendors.demo import publish_demo
from vendors.models import Vendor

from .models import Comparison, ComparisonVendor, Criterion

# The reference profile's verification date, the day it lists both comparisons.
PUBLISHED_AT = dt.datetime(2026, 10, 31, tzinfo=dt.UTC)


class DemoComparison(TypedDict):
    title: str
    slug: str
    summary: str
    vendors: list[str]  # the vendors' slugs
    criteria: list[str]  # the criteria's names


COMPARISONS: list[DemoComparison] = [
    {
        "title": "Google TPU vs AWS Trainium vs Nvidia GPU",
        "slug": "google-tpu-vs-aws-trainium-vs-nvidia-gpu",
        "summary": (
            "The three ways to train and serve frontier-scale models in 2026, "
            "scored on scale-up domain, software, access and price."
        ),
        "vendors": ["google-tpu", "aws-trainium", "nvidia"],
        "criteria": ["Scale-up domain", "Software", "Access", "Price"],
    },
    {
        "title": "Cerebras vs Groq vs SambaNova",
        "slug": "cerebras-vs-groq-vs-sambanova",
        "summary": (
            "The SRAM-first inference specialists compared on speed, token price, "
            "deployment options and company risk."
        ),
        "vendors": ["cerebras", "groq", "sambanova"],
        "criteria": ["Speed", "Token price", "Deployment options", "Company risk"],
    },
]


def load_comparisons(report):
    """Create each comparison that is not there yet, published, with its vendors and criteria."""
    for data in COMPARISONS:
        if Comparison.objects.filter(slug=data["slug"]).exists():
            continue
        vendors = [Vendor.objects.get(slug=slug) for slug in data["vendors"]]
        comparison = Comparison.objects.create(
            title=data["title"],
            slug=data["slug"],
            summary=data["summary"],
        )
        ComparisonVendor.objects.bulk_create(
            ComparisonVendor(comparison=comparison, vendor=vendor, position=position)
            for position, vendor in enumerate(vendors, start=1)
        )
        Criterion.objects.bulk_create(
            Criterion(comparison=comparison, name=name, position=position)
            for position, name in enumerate(data["criteria"], start=1)
        )
        publish_demo(comparison, at=PUBLISHED_AT)
        report.count("comparisons", True)
    return report
