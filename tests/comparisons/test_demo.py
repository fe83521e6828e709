"""The demo's two comparisons, exactly as the reference profile lists them, and nothing more.

Titles and summaries are read from the published page (vendors/demo/reference_profile.txt);
each summary names what the comparison is scored on, and those are its criteria.
"""

import datetime as dt
import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from comparisons.models import (
    Assessment,
    Comparison,
    ComparisonFAQ,
    ComparisonVendor,
    ComparisonVersion,
    Criterion,
)
from editorial import selectors
from editorial.demo import load_demo
from vendors.demo import REFERENCE

pytestmark = pytest.mark.django_db

PAGE = Path(REFERENCE).with_name("reference_profile.txt").read_text().splitlines()


def listed_comparisons():
    """{title: summary} from the page's “Head-to-head comparisons” section."""
    start = PAGE.index("Head-to-head comparisons") + 1
    listed = {}
    for line in PAGE[start:]:
        if not line.startswith("- "):
            break
        title, summary = line.removeprefix("- ").split(": ", 1)
        listed[title] = summary
    return listed


def criteria_named_in(summary):
    """“… scored on scale-up domain, software, access and price.” -> its four criteria."""
    named = re.search(r"(?:scored|compared) on (.+)\.$", summary).group(1)
    names = re.split(r", | and ", named)
    return [name[0].upper() + name[1:] for name in names]


LISTED = listed_comparisons()
EXPECTED = {  # slug: (title, vendor slugs in column order)
    "google-tpu-vs-aws-trainium-vs-nvidia-gpu": (
        "Google TPU vs AWS Trainium vs Nvidia GPU",
        ["google-tpu", "aws-trainium", "nvidia"],
    ),
    "cerebras-vs-groq-vs-sambanova": ("Cerebras vs Groq vs SambaNova", ["cerebras", "groq", "sambanova"]),
}
PUBLISHED_AT = dt.datetime(2026, 10, 31, tzinfo=dt.UTC)


@pytest.fixture
def loaded():
    return load_demo()


def test_the_page_lists_the_two_comparisons_the_demo_loads():
    assert list(LISTED) == [title for title, _ in EXPECTED.values()]
    assert LISTED["Google TPU vs AWS Trainium vs Nvidia GPU"] == (
        "The three ways to train and serve frontier-scale models in 2026, "
        "scored on scale-up domain, software, access and price."
    )
    assert LISTED["Cerebras vs Groq vs SambaNova"] == (
        "The SRAM-first inference specialists compared on speed, token price, "
        "deployment options and company risk."
    )


@pytest.mark.parametrize("slug", list(EXPECTED))
def test_each_comparison_is_published_with_the_pages_title_and_summary(loaded, slug):
    title, _ = EXPECTED[slug]
    comparison = Comparison.objects.get(slug=slug)
    assert comparison.title == title
    assert comparison.summary == LISTED[title]
    live = ComparisonVersion.objects.live().get(item=comparison)
    assert (live.number, live.published_at) == (1, PUBLISHED_AT)
    assert (live.slug, live.title, live.summary) == (slug, title, LISTED[title])
    assert selectors.state(comparison) == "Live"  # nothing waits unpublished


@pytest.mark.parametrize("slug", list(EXPECTED))
def test_vendors_in_column_order(loaded, slug):
    _, vendor_slugs = EXPECTED[slug]
    entries = Comparison.objects.get(slug=slug).entries.select_related("vendor")
    assert [entry.vendor.slug for entry in entries] == vendor_slugs
    assert [entry.position for entry in entries] == [1, 2, 3]


@pytest.mark.parametrize("slug", list(EXPECTED))
def test_criteria_are_the_ones_the_summary_names_in_its_order(loaded, slug):
    comparison = Comparison.objects.get(slug=slug)
    names = [c.name for c in comparison.criteria.all()]
    assert names == criteria_named_in(comparison.summary)
    assert [c.position for c in comparison.criteria.all()] == [1, 2, 3, 4]


def test_named_criteria():
    summaries = list(LISTED.values())
    assert criteria_named_in(summaries[0]) == ["Scale-up domain", "Software", "Access", "Price"]
    assert criteria_named_in(summaries[1]) == ["Speed", "Token price", "Deployment options", "Company risk"]


def test_nothing_the_page_does_not_give_is_made_up(loaded):
    for comparison in Comparison.objects.all():
        assert (comparison.intro, comparison.verdict, comparison.verified_on) == ("", "", None)
        assert not comparison.sources.exists()
        assert not comparison.faqs.exists()
        assert all(entry.pick_if == "" for entry in comparison.entries.all())
        assert all(c.attribute is None and c.axis is None for c in comparison.criteria.all())
    assert not Assessment.objects.exists()
    assert not ComparisonFAQ.objects.exists()


def test_the_report_counts_the_comparisons(loaded):
    assert loaded.created["comparisons"] == 2
    assert "2 comparisons" in str(loaded)


def test_loading_again_creates_nothing_and_keeps_an_editors_changes(loaded):
    comparison = Comparison.objects.get(slug="cerebras-vs-groq-vs-sambanova")
    comparison.verdict = "An editor's verdict."
    comparison.save()
    comparison.criteria.filter(name="Company risk").delete()
    counts = [m.objects.count() for m in (Comparison, ComparisonVendor, Criterion)]

    report = load_demo()
    call_command("load_demo", stdout=io.StringIO())

    assert "comparisons" not in report.created
    assert [m.objects.count() for m in (Comparison, ComparisonVendor, Criterion)] == counts
    comparison.refresh_from_db()
    assert comparison.verdict == "An editor's verdict."
    assert [c.name for c in comparison.criteria.all()] == ["Speed", "Token price", "Deployment options"]


def test_dry_run_reports_the_comparisons_and_saves_none():
    report = load_demo(dry_run=True)
    assert report.created["comparisons"] == 2
    assert not Comparison.objects.exists()
