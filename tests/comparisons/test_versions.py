"""A comparison version's permanent address and its citation: what was cited stays readable."""

import datetime as dt
import json
import re

import pytest
from django.utils import timezone

from comparisons.models import ComparisonVendor
from editorial import services
from tests import factories as f
from tests.vendors.test_lists import count_queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def comparison():
    memory = f.make_attribute(name="Memory")
    lane = f.make_lane()
    first = f.make_vendor(name="Alpha Chip", slug="alpha-chip", lane=lane, published=False)
    f.make_fact(vendor=first, attribute=memory, value="96 GB", verified_on=dt.date(2026, 10, 2))
    f.publish(first, at=timezone.now() - dt.timedelta(days=10))
    second = f.make_vendor(name="Beta Chip", slug="beta-chip", lane=lane, published=False)
    f.make_fact(vendor=second, attribute=memory, value="80 GB", verified_on=dt.date(2026, 11, 3))
    f.publish(second, at=timezone.now() - dt.timedelta(days=10))
    comparison = f.make_comparison(
        title="Alpha vs Beta",
        slug="alpha-vs-beta",
        vendors=[first, second],
        published_at=timezone.now() - dt.timedelta(days=5),
    )
    # Since version 1: the comparison's text and Alpha's memory have changed.
    comparison.summary = "Rewritten summary."
    comparison.save()
    services.refresh_state(obj=comparison)
    f.publish(comparison)
    first.facts.update(value="144 GB")
    services.refresh_state(obj=first)
    f.publish(first)
    return comparison


def test_an_earlier_comparison_version_shows_its_text_and_the_profiles_as_they_stood(client, comparison):
    page = client.get("/compare/alpha-vs-beta/v/1/").content.decode()

    assert "Summary of comparison" in page and "Rewritten summary." not in page
    assert "96 GB" in page and "144 GB" not in page
    assert "Version 1 of 2, published" in page
    assert 'href="/compare/alpha-vs-beta/">Read the current version</a> (version 2)' in page
    assert "<title>Alpha vs Beta, version 1 of 2 (" in page
    assert '<link rel="canonical" href="http://testserver/compare/alpha-vs-beta/">' in page
    assert '<meta name="robots" content="noindex, follow">' in page


def test_the_live_comparison_shows_the_current_profiles_and_no_banner(client, comparison):
    page = client.get("/compare/alpha-vs-beta/").content.decode()

    assert "Rewritten summary." in page and "144 GB" in page
    assert "Read the current version" not in page


def test_a_comparison_offers_a_citation_of_its_exact_version(client, comparison):
    page = client.get("/compare/alpha-vs-beta/").content.decode()

    assert "Cite this page" in page
    assert "chipsite. “Alpha vs Beta: AI chip comparison.” Version 2, published " in page
    # The oldest verified date among its columns' facts.
    assert "; facts verified 2 Oct 2026. http://testserver/compare/alpha-vs-beta/v/2/" in page
    assert 'href="/compare/alpha-vs-beta/v/2/cite.bib" download' in page


def test_the_comparison_citation_downloads_as_bibtex_and_csl_json(client, comparison):
    bib = client.get("/compare/alpha-vs-beta/v/1/cite.bib")
    assert bib["Content-Disposition"] == 'attachment; filename="chipsite-compare-alpha-vs-beta-v1.bib"'
    assert "  url = {http://testserver/compare/alpha-vs-beta/v/1/}" in bib.content.decode()
    (item,) = json.loads(client.get("/compare/alpha-vs-beta/v/1/cite.json").content)
    assert item["URL"] == "http://testserver/compare/alpha-vs-beta/v/1/" and item["version"] == "1"
    assert item["title"] == "Alpha vs Beta: AI chip comparison"
    assert client.get("/compare/alpha-vs-beta/v/1/cite.doc").status_code == 404


@pytest.mark.parametrize("url", ["/compare/alpha-vs-beta/v/3/", "/compare/nothing/v/1/"])
def test_comparison_versions_never_published_are_404(client, comparison, url):
    assert client.get(url).status_code == 404


def test_an_unpublished_comparison_takes_its_versions_down(client, comparison):
    services.unpublish(obj=comparison, user=f.make_superuser())

    assert client.get("/compare/alpha-vs-beta/v/1/").status_code == 404
    assert client.get("/compare/alpha-vs-beta/v/1/cite.bib").status_code == 404


def test_a_preview_of_a_comparison_offers_no_citation(admin_client, comparison):
    comparison.summary = "Unpublished words."
    comparison.save()
    services.refresh_state(obj=comparison)

    assert "Cite this page" not in admin_client.get("/compare/alpha-vs-beta/").content.decode()


def column_names(page):
    head = re.search(r'<table class="compare.*?</thead>', page, re.S).group(0)
    return re.findall(r'<th scope="col"><a href="/vendors/[^"]+/">([^<]+)</a></th>', head)


def added_later_note(page):
    note = re.search(r'<div class="notice added-later".*?</div>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", note.group(0).replace("<li>", " ")).split()) if note else ""


def test_a_version_keeps_its_columns_and_says_which_vendors_came_later(client, comparison):
    # Gamma was a column of version 1, but its profile went live after it; Delta was added in
    # version 3. Version 1 shows the two columns it showed when published, and says why the
    # live page has more.
    lane = f.make_lane()
    gamma = f.make_vendor(name="Gamma Chip", slug="gamma-chip", lane=lane, published=False)
    f.make_fact(vendor=gamma, attribute=f.make_attribute(name="Power"), value="700 W")
    version_1 = comparison.versions.get(number=1)
    ComparisonVendor.objects.create(comparison=comparison, vendor=gamma, position=3)
    services.refresh_state(obj=comparison)
    f.publish(comparison)  # version 3 holds Gamma's column; Gamma is not live yet
    f.publish(gamma, at=timezone.now())  # after version 3
    delta = f.make_vendor(name="Delta Chip", slug="delta-chip", lane=lane)
    ComparisonVendor.objects.create(comparison=comparison, vendor=delta, position=4)
    services.refresh_state(obj=comparison)
    f.publish(comparison)  # version 4 adds Delta
    live = client.get("/compare/alpha-vs-beta/").content.decode()
    assert column_names(live) == ["Alpha Chip", "Beta Chip", "Gamma Chip", "Delta Chip"]

    first = client.get(f"/compare/alpha-vs-beta/v/{version_1.number}/").content.decode()
    assert column_names(first) == ["Alpha Chip", "Beta Chip"]
    note = added_later_note(first)
    assert "Delta Chip: added to the comparison after this version." in note
    assert "Gamma Chip: added to the comparison after this version." in note
    third = client.get("/compare/alpha-vs-beta/v/3/").content.decode()
    assert column_names(third) == ["Alpha Chip", "Beta Chip"]
    gamma_went_live = timezone.localtime(gamma.versions.get().published_at)
    assert (
        f"Gamma Chip: a column of this version, but its profile was first published on "
        f"{gamma_went_live.day} {gamma_went_live:%b %Y}, after it." in added_later_note(third)
    )
    assert "Version 3 of 4" in third
    assert added_later_note(live) == ""  # the live page shows every column: nothing to explain


def test_a_comparison_version_page_takes_a_fixed_number_of_queries(client, comparison):
    small = count_queries(client, "/compare/alpha-vs-beta/v/1/")
    f.make_published_vendors(30, lanes=[f.make_lane()])
    assert count_queries(client, "/compare/alpha-vs-beta/v/1/") == small
