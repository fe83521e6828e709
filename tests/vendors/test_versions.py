"""A published version's permanent address keeps showing it, so that a citation never rots."""

import datetime as dt
import json
import re

import pytest
from django.utils import timezone

from editorial import services
from tests import factories as f
from tests.vendors.test_lists import count_queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def vendor():
    memory = f.make_attribute(name="Memory")
    vendor = f.make_vendor(name="Cited Chip", slug="cited-chip", published=False)
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB")
    f.publish(vendor, at=timezone.now() - dt.timedelta(days=5))
    vendor.facts.update(value="144 GB")
    services.refresh_state(obj=vendor)
    f.publish(vendor, note="More memory.")
    return vendor


def test_an_earlier_version_keeps_its_address_and_links_to_the_current_one(client, vendor):
    old = client.get("/vendors/cited-chip/v/1/").content.decode()
    assert "96 GB" in old and "144 GB" not in old.split('<ol class="changes"')[0]
    assert "Version 1 of 2, published" in old
    assert 'href="/vendors/cited-chip/">Read the current version</a> (version 2)' in old
    # Its own title, naming the version, so a tab or a bookmark tells it from the live page.
    title = re.search(r"<title>(.*?)</title>", old).group(1)
    assert title.startswith("Cited Chip, version 1 of 2 (") and title != live_title(client)
    assert '<link rel="canonical" href="http://testserver/vendors/cited-chip/">' in old
    assert '<meta name="robots" content="noindex">' in old


def live_title(client):
    return re.search(r"<title>(.*?)</title>", client.get("/vendors/cited-chip/").content.decode()).group(1)


def test_the_current_version_at_its_address_says_so_and_links_to_the_page(client, vendor):
    page = client.get("/vendors/cited-chip/v/2/").content.decode()
    assert "144 GB" in page and "Read the current version" not in page
    assert "Version 2 of 2, published" in page and "This is the current version" in page
    assert '<a href="/vendors/cited-chip/">Read it at the page' in page
    assert re.search(r"<title>Cited Chip, version 2 of 2 \(", page)


def test_the_live_page_has_no_version_banner(client, vendor):
    page = client.get("/vendors/cited-chip/").content.decode()
    assert 'class="version-banner"' not in page and live_title(client).startswith(
        "Cited Chip: AI chip profile"
    )


def test_the_change_log_links_each_entry_to_its_version(client, vendor):
    page = client.get("/vendors/cited-chip/changes/").content.decode()
    assert 'href="/vendors/cited-chip/v/1/"' in page and 'href="/vendors/cited-chip/v/2/"' in page


def test_a_version_keeps_its_address_after_the_vendor_changes_its_slug(client, vendor):
    vendor.slug = "renamed-chip"
    vendor.save()
    services.refresh_state(obj=vendor)
    f.publish(vendor)
    assert "96 GB" in client.get("/vendors/cited-chip/v/1/").content.decode()
    assert "96 GB" in client.get("/vendors/renamed-chip/v/1/").content.decode()


@pytest.mark.parametrize(
    "url", ["/vendors/cited-chip/v/3/", "/vendors/cited-chip/v/0/", "/vendors/nobody/v/1/"]
)
def test_versions_that_were_never_published_are_404(client, vendor, url):
    assert client.get(url).status_code == 404


def test_a_scheduled_version_is_not_there_before_its_time(client, vendor):
    vendor.facts.update(value="192 GB")
    services.refresh_state(obj=vendor)
    f.publish(vendor, at=timezone.now() + dt.timedelta(days=1))
    assert client.get("/vendors/cited-chip/v/3/").status_code == 404


def test_an_unpublished_vendor_takes_its_versions_down(client, vendor):
    services.unpublish(obj=vendor, user=f.make_superuser())
    assert client.get("/vendors/cited-chip/v/1/").status_code == 404


def test_a_version_page_takes_a_fixed_number_of_queries(client, vendor):
    small = count_queries(client, "/vendors/cited-chip/v/1/")
    f.make_published_vendors(30, lanes=[vendor.lane])
    assert count_queries(client, "/vendors/cited-chip/v/1/") == small


def test_a_profile_offers_a_citation_of_its_exact_version(client, vendor):
    page = client.get("/vendors/cited-chip/").content.decode()
    assert "Cite this page" in page
    assert "chipsite. “Cited Chip: AI chip profile.” Version 2, published " in page
    assert "; facts verified 1 Nov 2026. http://testserver/vendors/cited-chip/v/2/" in page
    old = client.get("/vendors/cited-chip/v/1/").content.decode()
    assert "Version 1, published " in old and "http://testserver/vendors/cited-chip/v/1/" in old


def test_the_citation_downloads_as_bibtex_and_csl_json(client, vendor):
    bib = client.get("/vendors/cited-chip/v/2/cite.bib")
    assert bib["Content-Disposition"] == 'attachment; filename="chipsite-cited-chip-v2.bib"'
    text = bib.content.decode()
    assert text.startswith("@misc{chipsite-cited-chip-v2,")
    assert "  url = {http://testserver/vendors/cited-chip/v/2/}" in text
    assert "  note = {Version 2; facts verified 2026-11-01}" in text
    csl = client.get("/vendors/cited-chip/v/2/cite.json")
    assert csl["Content-Type"].startswith("application/vnd.citationstyles.csl+json")
    (item,) = json.loads(csl.content)
    assert item["URL"] == "http://testserver/vendors/cited-chip/v/2/" and item["version"] == "2"
    assert item["title"] == "Cited Chip: AI chip profile" and item["note"] == "Facts verified 2026-11-01"
    assert client.get("/vendors/cited-chip/v/2/cite.xml").status_code == 404
    assert client.get("/vendors/cited-chip/v/9/cite.bib").status_code == 404


def test_a_preview_offers_no_citation(admin_client, vendor):
    vendor.facts.update(value="200 GB")
    services.refresh_state(obj=vendor)
    assert "Cite this page" not in admin_client.get("/vendors/cited-chip/").content.decode()


@pytest.mark.parametrize("fmt", ["bib", "json"])
def test_a_citation_download_takes_a_fixed_number_of_queries(client, vendor, fmt):
    url = f"/vendors/cited-chip/v/2/cite.{fmt}"
    small = count_queries(client, url)
    f.make_published_vendors(30, lanes=[vendor.lane])
    assert count_queries(client, url) == small


def test_an_unpublished_vendor_has_no_citation_to_download(client, vendor):
    services.unpublish(obj=vendor, user=f.make_superuser())
    assert client.get("/vendors/cited-chip/v/2/cite.bib").status_code == 404
