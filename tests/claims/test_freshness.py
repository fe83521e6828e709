"""One staleness rule: the editors' queue, the profile, the API and the downloads agree."""

import csv
import datetime as dt
import io

import pytest
from django.utils import timezone

from claims.freshness import is_stale, stale_before
from tests import factories as f
from tests.claims.test_source_checks import Site, check
from vendors import services
from vendors.documents import document_of
from vendors.models import Fact, FactCitation, VendorVersion

pytestmark = pytest.mark.django_db

NOW = timezone.now()
HOUR = dt.timedelta(hours=1)


def _fact_with_problem(*, verified_on, verified_at, problem_at):
    source = f.make_source(problem="returned 404" if problem_at else "", problem_at=problem_at)
    if problem_at:
        source.problem_on = timezone.localdate(problem_at)
        source.save()
    vendor = f.make_vendor()
    fact = f.make_fact(vendor=vendor, verified_on=verified_on, sources=[source])
    Fact.objects.filter(pk=fact.pk).update(verified_at=verified_at)
    f.publish(vendor)
    return fact, VendorVersion.objects.live().get(item=vendor)


TODAY = timezone.localdate(NOW)
CASES = {
    # name: (verified_on, verified_at, problem_at, stale)
    "never verified": (None, None, None, True),
    "verified today, no problem": (TODAY, NOW - HOUR, None, False),
    "verified 90 days ago": (TODAY - dt.timedelta(days=90), None, None, False),
    "verified 91 days ago": (TODAY - dt.timedelta(days=91), None, None, True),
    "problem found before it was verified": (TODAY, NOW - HOUR, NOW - 2 * HOUR, False),
    "problem found later the same day": (TODAY, NOW - 2 * HOUR, NOW - HOUR, True),
    "problem found the same day, moment unknown": (TODAY - dt.timedelta(days=1), None, NOW, True),
}


@pytest.mark.parametrize(("verified_on", "verified_at", "problem_at", "stale"), CASES.values(), ids=CASES)
def test_the_queue_and_the_published_document_read_staleness_the_same(
    verified_on, verified_at, problem_at, stale
):
    fact, version = _fact_with_problem(
        verified_on=verified_on, verified_at=verified_at, problem_at=problem_at
    )

    (published,) = document_of(version).facts
    assert (fact in Fact.objects.stale(), published.is_stale) == (stale, stale)


QUOTE_CASES = {
    # name: (verified_at, quote_missing_at, stale)
    "quote found": (NOW - HOUR, None, False),
    "quote gone before it was verified": (NOW - HOUR, NOW - 2 * HOUR, False),
    "quote gone later the same day": (NOW - 2 * HOUR, NOW - HOUR, True),
}


@pytest.mark.parametrize(("verified_at", "quote_missing_at", "stale"), QUOTE_CASES.values(), ids=QUOTE_CASES)
def test_a_quote_gone_from_its_source_is_a_problem_moment_in_both_rules(verified_at, quote_missing_at, stale):
    source = f.make_source()
    fact = f.make_fact(vendor=f.make_vendor(), verified_on=TODAY, sources=[source, f.make_source()])
    Fact.objects.filter(pk=fact.pk).update(verified_at=verified_at)
    FactCitation.objects.filter(cited=fact, source=source).update(
        quote="144 GB", quote_found=quote_missing_at is None, quote_missing_at=quote_missing_at
    )

    python = is_stale(
        verified_on=TODAY,
        verified_at=verified_at,
        problems=[
            moment
            for c in FactCitation.objects.filter(cited=fact)
            for moment in (c.source.problem_at, c.quote_missing_at)
        ],
        cutoff=stale_before(),
    )
    assert (fact in Fact.objects.stale(), python) == (stale, stale)


def _stale_everywhere(client, *, vendor, fact, comparison):
    """Whether the fact reads stale in the queue, on the profile, on a comparison, in the API
    and in the CSV."""
    page = client.get(vendor.get_absolute_url()).content.decode()
    compared = client.get(comparison.get_absolute_url()).content.decode()
    claim = page[page.index(f'id="fact-{fact.pk}"') :].split("</p>", 1)[0]
    api = client.get(f"/api/v1/vendors/{vendor.slug}/").json()
    text = client.get(f"/data/vendors/{vendor.slug}.csv").content.decode("utf-8-sig")
    (row,) = [row for row in csv.DictReader(io.StringIO(text, newline="")) if row["kind"] == "fact"]
    return {
        "queue": fact in Fact.objects.stale(),
        "profile": "not recently verified" in claim,
        "comparison": "not recently verified" in compared,
        "api": api["facts"][0]["stale"],
        "csv": row["stale"] == "true",
    }


@pytest.fixture
def site(settings):
    settings.SOURCE_CHECK_ALLOW_PRIVATE = True
    site = Site()
    site.thread.start()
    yield site
    site.server.shutdown()
    site.server.server_close()


def test_a_source_failing_later_the_same_day_makes_the_fact_stale_everywhere_until_verified_again(
    client, site
):
    editor = f.make_superuser()
    site.pages["/spec"] = (200, "<p>96 GB</p>", {})
    source = f.make_source(url=site.url("/spec"))
    vendor = f.make_vendor(name="Checked Chip", slug="checked-chip")
    fact = f.make_fact(vendor=vendor, value="96 GB", sources=[source])
    f.publish(vendor)
    comparison = f.make_comparison(vendors=[vendor, f.make_vendor()])
    services.mark_verified(user=editor, facts=Fact.objects.filter(pk=fact.pk))  # verified this morning
    check(source)
    assert _stale_everywhere(client, vendor=vendor, fact=fact, comparison=comparison) == dict.fromkeys(
        ("queue", "profile", "comparison", "api", "csv"), False
    )
    published = vendor.versions.count()

    del site.pages["/spec"]  # the page is gone: two failed checks make a problem, later that day
    check(source)
    check(source)

    assert source.problem_at > Fact.objects.get(pk=fact.pk).verified_at
    assert timezone.localdate(source.problem_at) == Fact.objects.get(pk=fact.pk).verified_on
    assert _stale_everywhere(client, vendor=vendor, fact=fact, comparison=comparison) == dict.fromkeys(
        ("queue", "profile", "comparison", "api", "csv"), True
    )
    live = VendorVersion.objects.live().get(item=vendor)
    assert not live.content_changed and live.number == published + 1  # no publish: a restamp

    services.mark_verified(user=editor, facts=Fact.objects.filter(pk=fact.pk))

    assert _stale_everywhere(client, vendor=vendor, fact=fact, comparison=comparison) == dict.fromkeys(
        ("queue", "profile", "comparison", "api", "csv"), False
    )


def test_a_document_stored_before_schema_2_is_read_with_its_moments_unknown():
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor, verified_on=TODAY, sources=[f.make_source()])
    version = f.publish(vendor)
    old = version.document
    del old["schema"]
    for row in old["facts"]:
        del row["verified_at"]
    for entry in old["sources"].values():
        del entry["problem_at"]
    VendorVersion.objects.filter(pk=version.pk).update(document=old)

    (fact,) = document_of(VendorVersion.objects.get(pk=version.pk)).facts
    assert (fact.verified_on, fact.verified_at, fact.is_stale) == (TODAY, None, False)
    assert fact.cited[0].problem_at is None
