"""JSON-LD on the profile and the rankings, parsed and matched to what the page shows."""

import json
import re

import pytest

from comparisons.models import ComparisonFAQ
from editorial import services
from tests import factories as f
from tests.vendors.test_views import visible_text
from vendors.demo import load_demo

pytestmark = pytest.mark.django_db


def json_ld(html):
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert blocks, "no JSON-LD on the page"
    (block,) = blocks
    return {item["@type"]: item for item in json.loads(block)}


@pytest.fixture
def profile_page(client):
    load_demo()
    return client.get("/vendors/aws-trainium/").content.decode()


def test_a_profile_describes_its_vendor_sources_and_verified_date_as_the_page_does(client):
    load_demo()
    profile_page = client.get("/vendors/google-tpu/").content.decode()  # a demo profile with sources
    product = json_ld(profile_page)["Product"]
    assert product["name"] == re.search(r"<h1[^>]*>(.*?)</h1>", profile_page).group(1) == "Google TPU"
    company = re.search(r'<p class="eyebrow">.*? · (.*?)</p>', profile_page).group(1)
    assert product["brand"] == {"@type": "Organization", "name": company}
    shown_sources = re.findall(r'<li id="source-\d+">.*?<a href="([^"]+)"', profile_page, re.S)
    assert [c["url"] for c in product["citation"]] == shown_sources and shown_sources
    verified = re.search(
        r'<time datetime="(\d{4}-\d\d-\d\d)">[^<]*</time>', profile_page.split('id="sources"')[1]
    )
    assert product["dateModified"] == verified.group(1)


def test_a_profile_lists_its_faqs_and_its_place_as_the_page_does(profile_page):
    data = json_ld(profile_page)
    questions = [q["name"] for q in data["FAQPage"]["mainEntity"]]
    faq_section = profile_page.split('id="faq"')[1].split("</section>")[0]
    assert questions == [visible_text(q) for q in re.findall(r"<h3[^>]*>(.*?)</h3>", faq_section)]
    first_answer = data["FAQPage"]["mainEntity"][0]["acceptedAnswer"]["text"]
    assert first_answer in visible_text(faq_section)
    crumbs = [(item["position"], item["name"]) for item in data["BreadcrumbList"]["itemListElement"]]
    assert crumbs == [(1, "Rankings"), (2, "hyperscaler custom silicon"), (3, "AWS Trainium")]


def test_the_rankings_list_their_vendors_in_rank_order(client):
    load_demo()
    page = client.get("/").content.decode()
    items = json_ld(page)["ItemList"]["itemListElement"]
    shown = re.findall(r'class="pick"[^>]*aria-label="Compare ([^"]+)"', page)
    assert [item["name"] for item in items] == shown
    assert [item["position"] for item in items] == list(range(1, len(shown) + 1))


def test_nothing_in_the_data_can_end_its_element_early(client):
    from discovery.templatetags.structured_data import json_ld as tag

    html = tag([{"name": "</script><script>alert(1)</script> & more"}])
    assert html.count("</script>") == 1 and "\\u003C/script\\u003E" in html and "\\u0026" in html


def test_an_editorial_comparison_lists_its_vendors_and_faqs_as_the_page_does(client):
    first, second = f.make_vendor(name="First Chip"), f.make_vendor(name="Second Chip")
    comparison = f.make_comparison(slug="first-vs-second", title="First vs Second", vendors=[first, second])
    ComparisonFAQ.objects.create(
        comparison=comparison, question="Which is faster?", answer="**First**, by the data.", position=1
    )
    f.publish(comparison)
    page = client.get("/compare/first-vs-second/").content.decode()
    data = json_ld(page)
    columns = re.findall(r'<th scope="col"><a href="[^"]+">(.*?)</a></th>', page)
    assert (
        [item["name"] for item in data["ItemList"]["itemListElement"]]
        == columns
        == ["First Chip", "Second Chip"]
    )
    (question,) = data["FAQPage"]["mainEntity"]
    assert (
        question["name"] == "Which is faster?" and question["acceptedAnswer"]["text"] == "First, by the data."
    )
    crumbs = [item["name"] for item in data["BreadcrumbList"]["itemListElement"]]
    assert crumbs == ["Comparisons", "First vs Second"]


def test_a_generated_comparison_and_a_preview_carry_no_json_ld(client, admin_client):
    first = f.make_vendor(name="First Chip", slug="first-chip")
    f.make_vendor(slug="second-chip")
    page = client.get("/compare/vendors/first-chip/second-chip/").content.decode()
    assert "application/ld+json" not in page  # noindex, and nothing editorial to describe
    first.summary = "Changed, not yet published."
    first.save()
    services.refresh_state(obj=first)
    assert "application/ld+json" not in admin_client.get("/vendors/first-chip/").content.decode()


def breadcrumb_names(html):
    trail = json_ld(html)["BreadcrumbList"]["itemListElement"]
    assert [item["position"] for item in trail] == list(range(1, len(trail) + 1))
    return [(item["name"], item["item"]) for item in trail]


@pytest.mark.parametrize(
    "path, trail",
    [
        ("/vendors/", [("Rankings", "/"), ("Vendors", "/vendors/")]),
        ("/lanes/", [("Rankings", "/"), ("Lanes", "/lanes/")]),
        ("/compare/", [("Comparisons", "/compare/")]),
    ],
)
def test_list_pages_carry_breadcrumbs_to_their_own_address(client, path, trail):
    load_demo()
    html = client.get(path).content.decode()

    assert breadcrumb_names(html) == [(name, f"http://testserver{url}") for name, url in trail]


def test_a_lane_and_a_change_log_carry_the_trail_their_links_show(client):
    load_demo()
    lane_page = client.get("/lanes/hyperscaler-custom-silicon/").content.decode()
    (*_, (lane_name, lane_url)) = breadcrumb_names(lane_page)
    assert lane_url == "http://testserver/lanes/hyperscaler-custom-silicon/"
    assert lane_name.lower() in visible_text(re.search(r"<h1[^>]*>(.*?)</h1>", lane_page).group(1)).lower()

    changes = client.get("/vendors/aws-trainium/changes/").content.decode()
    trail = breadcrumb_names(changes)
    assert [name for name, _ in trail] == ["Rankings", lane_name, "AWS Trainium", "Change log"]
    assert trail[2][1] == "http://testserver/vendors/aws-trainium/"


def test_a_filtered_vendor_list_has_no_structured_data(client):
    load_demo()
    assert "application/ld+json" not in client.get("/vendors/?sort=name").content.decode()
