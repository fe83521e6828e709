"""The sitemap, robots.txt and the Atom feeds: live content only, with the change log's words."""

import datetime as dt
import xml.etree.ElementTree as ET

import feedparser
import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from PIL import Image

from editorial import services
from tests import factories as f
from vendors.models import Vendor
from vendors.services import mark_verified

pytestmark = pytest.mark.django_db

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture
def site():
    lane = f.make_lane(name="Inference", slug="inference")
    f.make_lane(name="Empty", slug="empty")
    memory = f.make_attribute(name="Memory")
    trainium = f.make_vendor(name="AWS Trainium", slug="aws-trainium", lane=lane, published=False)
    f.make_fact(vendor=trainium, attribute=memory, value="96 GB")
    f.publish(trainium, at=timezone.now() - dt.timedelta(days=3))
    trainium.facts.update(value="144 GB")
    services.refresh_state(obj=trainium)
    f.publish(trainium, note="Trn2 memory.")
    other = f.make_vendor(name="Other Chip", slug="other-chip", lane=lane)
    f.make_vendor(name="Draft Chip", slug="draft-chip", lane=lane, published=False)
    gone = f.make_vendor(name="Gone Chip", slug="gone-chip", lane=lane)
    services.unpublish(obj=gone, user=f.make_superuser())
    later = f.make_vendor(name="Later Chip", slug="later-chip", lane=lane, published=False)
    f.publish(later, at=timezone.now() + dt.timedelta(days=2))
    comparison = f.make_comparison(slug="trainium-vs-other", vendors=[trainium, other])
    return {"trainium": trainium, "lane": lane, "comparison": comparison}


def sitemap_pages(client):
    """The addresses of the sitemap's pages, as its index at /sitemap.xml lists them."""
    response = client.get("/sitemap.xml")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    return [item.find(f"{SITEMAP}loc").text.removeprefix("http://testserver") for item in root]


def sitemap_entries(client):
    """{address: lastmod} of every page of the sitemap the index lists."""
    entries = {}
    for page in sitemap_pages(client):
        response = client.get(page)
        assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
        for url in ET.fromstring(response.content).findall(f"{SITEMAP}url"):
            address = url.find(f"{SITEMAP}loc").text.removeprefix("http://testserver")
            assert address not in entries, f"{address} is on two pages of the sitemap"
            entries[address] = url.find(f"{SITEMAP}lastmod").text
    return entries


def test_the_sitemap_lists_live_pages_only_with_their_live_versions_dates(client, site):
    entries = sitemap_entries(client)
    assert set(entries) == {
        "/",
        "/vendors/",
        "/lanes/",
        "/chips/",
        "/compare/",
        "/data/",
        "/vendors/aws-trainium/",
        "/vendors/aws-trainium/changes/",
        "/vendors/other-chip/",
        "/vendors/other-chip/changes/",
        "/lanes/inference/",
        "/compare/trainium-vs-other/",
    }  # no draft, unpublished or scheduled vendor, no empty lane, no any-N comparison
    live = site["trainium"].versions.live().get()
    day = timezone.localdate  # the sitemap gives the day (W3C date)
    assert entries["/vendors/aws-trainium/"] == day(live.published_at).isoformat()
    newest = max(v.published_at for v in [live, site["comparison"].versions.live().get()])
    assert entries["/"] == day(newest).isoformat()


def test_robots_txt_points_to_the_sitemap_and_keeps_out_admin_search_and_any_n_comparisons(client):
    response = client.get("/robots.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert {"Disallow: /admin/", "Disallow: /search/", "Disallow: /compare/vendors/"} <= set(lines)
    assert "Sitemap: http://testserver/sitemap.xml" in lines


def read_feed(client, url):
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    return feed


def test_the_site_feed_words_each_change_as_the_change_log_does(client, site):
    feed = read_feed(client, "/feeds/changes/")
    titles = [entry.title for entry in feed.entries]
    assert "AWS Trainium, updated" in titles and "New profile: AWS Trainium" in titles
    assert "New comparison: " + site["comparison"].title in titles
    update = feed.entries[titles.index("AWS Trainium, updated")]
    assert "Trn2 memory." in update.summary and "96 GB" in update.summary and "144 GB" in update.summary
    assert update.link == "http://testserver/vendors/aws-trainium/changes/#v2"
    assert not {"Draft Chip", "Gone Chip", "Later Chip"} & {t.removeprefix("New profile: ") for t in titles}


@pytest.mark.parametrize("url", ["/feeds/changes/", "/vendors/aws-trainium/feed/", "/lanes/inference/feed/"])
def test_every_feed_and_each_of_its_entries_names_the_site_as_author(client, site, url):
    feed = read_feed(client, url)
    assert feed.feed.author == "chipsite"
    assert feed.entries and {entry.author for entry in feed.entries} == {"chipsite"}


def test_entry_ids_stay_the_same_when_the_vendor_is_republished(client, site):
    before = {entry.title: entry.id for entry in read_feed(client, "/feeds/changes/").entries}
    trainium = site["trainium"]
    trainium.facts.update(value="192 GB")
    services.refresh_state(obj=trainium)
    f.publish(trainium)
    after = {entry.title: entry.id for entry in read_feed(client, "/feeds/changes/").entries}
    assert after["New profile: AWS Trainium"] == before["New profile: AWS Trainium"]
    assert len([t for t in after if t == "AWS Trainium, updated"]) == 1  # titles repeat; ids do not
    ids = [entry.id for entry in read_feed(client, "/vendors/aws-trainium/feed/").entries]
    assert len(ids) == len(set(ids)) == 3


def test_a_verification_alone_makes_no_entry(client, site, admin_user):
    count = len(read_feed(client, "/vendors/aws-trainium/feed/").entries)
    mark_verified(vendors=Vendor.objects.filter(pk=site["trainium"].pk), user=admin_user)
    assert site["trainium"].versions.count() == 3  # the verification was published as a version
    assert len(read_feed(client, "/vendors/aws-trainium/feed/").entries) == count


def test_vendor_and_lane_feeds_hold_their_own_entries_and_pages_link_them(client, site):
    vendor_feed = read_feed(client, "/vendors/aws-trainium/feed/")
    assert {entry.title for entry in vendor_feed.entries} == {
        "New profile: AWS Trainium",
        "AWS Trainium, updated",
    }
    lane_feed = read_feed(client, "/lanes/inference/feed/")
    assert {entry.title for entry in lane_feed.entries} == {
        "New profile: AWS Trainium",
        "AWS Trainium, updated",
        "New profile: Other Chip",
    }
    profile = client.get("/vendors/aws-trainium/").content.decode()
    link = 'title="AWS Trainium on chipsite: what changed" href="/vendors/aws-trainium/feed/"'
    assert f'<link rel="alternate" type="application/atom+xml" {link}>' in profile
    assert 'href="/feeds/changes/"' in profile
    assert 'href="/lanes/inference/feed/"' in client.get("/lanes/inference/").content.decode()


@pytest.mark.parametrize(
    "url", ["/vendors/draft-chip/feed/", "/vendors/gone-chip/feed/", "/lanes/nowhere/feed/"]
)
def test_feeds_of_what_is_not_live_are_404(client, site, url):
    assert client.get(url).status_code == 404


def test_the_sitemap_index_lists_pages_of_at_most_400_addresses_each_at_its_own_address(
    client, site, monkeypatch
):
    from discovery import sitemaps

    assert sitemap_pages(client) == [
        "/sitemap-lists-1.xml",
        "/sitemap-profiles-1.xml",
        "/sitemap-changes-1.xml",
        "/sitemap-lanes-1.xml",
        "/sitemap-comparisons-1.xml",
    ]
    with_two = f.make_vendor(name="Second page", slug="second-page", lane=site["lane"])
    f.publish(with_two)
    assert sitemaps.PER_PAGE == 400
    monkeypatch.setattr(sitemaps.PagedSitemap, "limit", 2)  # three live profiles: two pages
    pages = sitemap_pages(client)
    assert "/sitemap-profiles-2.xml" in pages and "/sitemap-profiles-3.xml" not in pages
    assert "/vendors/second-page/" in sitemap_entries(client)
    assert client.get("/sitemap-profiles-3.xml").status_code == 404
    assert client.get("/sitemap-nothing-1.xml").status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/sitemap.xml",
        "/sitemap-profiles-1.xml",
        "/sitemap-lists-1.xml",
        "/feeds/changes/",
        "/vendors/aws-trainium/feed/",
        "/lanes/inference/feed/",
    ],
)
def test_discovery_pages_take_a_fixed_number_of_queries(client, site, url):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    small = count()
    for n in range(15):
        vendor = f.make_vendor(name=f"More {n}", slug=f"more-{n}", lane=site["lane"])
        vendor.summary = "Changed."
        vendor.save()
        services.refresh_state(obj=vendor)
        f.publish(vendor)
    assert count() == small


def test_robots_txt_reads_nothing_from_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/robots.txt").status_code == 200


def test_favicon_ico_leads_to_a_real_icon_of_the_site(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/img/favicon.ico"
    assert "max-age=86400" in response["Cache-Control"]
    with Image.open(finders.find("img/favicon.ico")) as icon:
        assert icon.format == "ICO"
        assert {(16, 16), (32, 32)} <= icon.ico.sizes()
        # The SVG icon's navy ground with the white chip outline.
        assert icon.convert("RGB").getpixel((1, icon.height // 2)) == (0x1D, 0x35, 0x57)
