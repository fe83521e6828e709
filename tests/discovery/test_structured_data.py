"""JSON-LD on the profile and the rankings, parsed and matched to what the page shows."""

import json
import re

import pytest

from comparisons.models import ComparisonFAQ
from editorial import services
from tests import factories as f
from tests.vendors.test_views import visible_text
from vendors.demo import load_demo
from vendors.models import SCORE_MIN

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


def test_a_profile_page_is_dated_by_its_verified_rule_and_cites_what_the_page_lists(client):
    load_demo()
    profile_page = client.get("/vendors/google-tpu/").content.decode()  # a demo profile with sources
    page = json_ld(profile_page)["WebPage"]
    assert page["name"] == re.search(r"<h1[^>]*>(.*?)</h1>", profile_page).group(1) == "Google TPU"
    assert page["url"] == "http://testserver/vendors/google-tpu/"
    shown_sources = re.findall(r'<li id="source-\d+">.*?<a href="([^"]+)"', profile_page, re.S)
    assert [c["url"] for c in page["citation"]] == shown_sources and shown_sources
    verified = re.search(
        r'<time datetime="(\d{4}-\d\d-\d\d)">[^<]*</time>', profile_page.split('id="sources"')[1]
    )
    assert page["dateModified"] == verified.group(1)
    # Not scored, so no Product (which needs a review); the page is about its maker.
    company = re.search(r'<p class="eyebrow">.*? · (.*?)</p>', profile_page).group(1)
    assert page["mainEntity"] == {"@type": "Organization", "name": company}
    assert "Product" not in types_in(profile_page)


def test_a_scored_profile_is_a_product_reviewed_by_the_site_on_the_scale_the_page_shows(profile_page):
    product = json_ld(profile_page)["WebPage"]["mainEntity"]
    assert product["@type"] == "Product" and product["name"] == "AWS Trainium"
    company = re.search(r'<p class="eyebrow">.*? · (.*?)</p>', profile_page).group(1)
    assert product["brand"] == {"@type": "Organization", "name": company}
    review = product["review"]
    assert review["author"]["@type"] == "Organization" and review["author"]["name"] == "chipsite"
    best, total = re.search(r'Total / (\d+)</th><td class="total">(\d+)</td>', profile_page).groups()
    axes = len(
        re.findall(r'<tr><th scope="row">', profile_page.split('class="scores"')[1].split("<tfoot>")[0])
    )
    assert review["reviewRating"] == {
        "@type": "Rating",
        "ratingValue": int(total),
        "bestRating": int(best),
        "worstRating": SCORE_MIN * axes,
    }
    verdict = profile_page.split('id="verdict"')[1].split("</section>")[0]
    assert review["reviewBody"] and review["reviewBody"] in visible_text(verdict)


def test_a_profile_scored_on_some_axes_only_makes_no_product_claim(client):
    vendor = f.make_vendor(name="Half Chip", slug="half-chip", published=False)
    f.make_axis()
    f.make_score(vendor=vendor, value=5)
    f.publish(vendor)
    html = client.get("/vendors/half-chip/").content.decode()
    assert json_ld(html)["WebPage"]["mainEntity"]["@type"] == "Organization"
    assert "Product" not in types_in(html) and "Review" not in types_in(html)


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
    ranked = page.split('<section class="not-scored"', 1)[0]  # the ranked rows' tick boxes only
    shown = re.findall(r'class="pick"[^>]*aria-label="Compare ([^"]+)"', ranked)
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


def test_a_version_at_its_permanent_address_carries_no_json_ld(client):
    """Only the live page describes the item; a version page is kept for citations, not search."""
    vendor = f.make_vendor(slug="first-chip")
    f.make_comparison(slug="first-vs-none", vendors=[vendor])
    for path in ("/vendors/first-chip/v/1/", "/compare/first-vs-none/v/1/"):
        response = client.get(path)
        assert response.status_code == 200 and "application/ld+json" not in response.content.decode()


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


# What Google's rich results need of each type we emit (Product snippet, Review snippet, FAQ,
# breadcrumb, carousel), and a property one of these must have, where any of several will do.
REQUIRED = {
    "WebPage": {"name", "url"},
    "Product": {"name"},
    "Review": {"author", "reviewRating"},
    "Rating": {"ratingValue"},
    "Organization": {"name"},
    "CreativeWork": {"name", "url"},
    "FAQPage": {"mainEntity"},
    "Question": {"name", "acceptedAnswer"},
    "Answer": {"text"},
    "BreadcrumbList": {"itemListElement"},
    "ListItem": {"position", "name"},
    "ItemList": {"itemListElement"},
}
ONE_OF = {"Product": {"review", "aggregateRating", "offers"}, "ListItem": {"item", "url"}}
# Properties schema.org gives each type (its own and inherited), of those we use or might:
# anything else (a Product's citation or dateModified) is a property the type does not have.
THING = {"@context", "@type", "@id", "name", "url", "description", "image", "sameAs"}
CREATIVE_WORK = THING | {
    "about", "author", "citation", "dateModified", "datePublished", "headline", "inLanguage",
    "isPartOf", "mainEntity", "publisher", "text",
}  # fmt: skip
ITEM_LIST = THING | {"itemListElement", "itemListOrder", "numberOfItems"}
ALLOWED = {
    "WebPage": CREATIVE_WORK | {"breadcrumb", "lastReviewed", "primaryImageOfPage"},
    "FAQPage": CREATIVE_WORK | {"breadcrumb", "lastReviewed"},
    "CreativeWork": CREATIVE_WORK,
    "Product": THING
    | {"aggregateRating", "brand", "category", "manufacturer", "model", "offers", "review", "sku"},
    "Review": CREATIVE_WORK | {"itemReviewed", "reviewBody", "reviewRating"},
    "Rating": THING | {"author", "bestRating", "ratingExplanation", "ratingValue", "worstRating"},
    "Organization": THING | {"logo"},
    "Question": CREATIVE_WORK | {"acceptedAnswer", "answerCount", "suggestedAnswer"},
    "Answer": CREATIVE_WORK,
    "BreadcrumbList": ITEM_LIST,
    "ItemList": ITEM_LIST,
    "ListItem": THING | {"item", "nextItem", "position", "previousItem"},
}


def nodes(value, parent=None):
    """Every typed object in the JSON-LD, nested ones too, each with its parent's type."""
    if isinstance(value, list):
        for item in value:
            yield from nodes(item, parent)
    elif isinstance(value, dict):
        if "@type" in value:
            yield value, parent
        for child in value.values():
            yield from nodes(child, value.get("@type", parent))


def problems(html):
    """What a validator would say of the page's JSON-LD, per object: nothing, when it is right."""
    (block,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    found = []
    for node, parent in nodes(json.loads(block)):
        kind = node["@type"]
        if kind not in ALLOWED:
            found.append(f"{kind}: a type we do not check")
            continue
        missing = REQUIRED[kind] - {key for key, value in node.items() if value not in ("", [], None)}
        if kind in ONE_OF and not ONE_OF[kind] & set(node):
            missing.add(" or ".join(sorted(ONE_OF[kind])))
        if kind == "Review" and parent != "Product" and "itemReviewed" not in node:
            missing.add("itemReviewed")  # a review standing alone names what it reviews
        if missing:
            found.append(f"{kind} lacks {sorted(missing)}")
        if extra := set(node) - ALLOWED[kind]:
            found.append(f"{kind} has no {sorted(extra)}")
        if kind == "Rating" and not node["worstRating"] <= node["ratingValue"] <= node["bestRating"]:
            found.append(f"Rating {node['ratingValue']} off its scale")
    return found


def types_in(html):
    (block,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return {node["@type"] for node, _ in nodes(json.loads(block))}


@pytest.fixture
def pages(client):
    """A scored and an unscored profile, an editorial comparison with FAQs, the rankings."""
    load_demo()
    first, second = f.make_vendor(name="First Chip"), f.make_vendor(name="Second Chip")
    comparison = f.make_comparison(slug="first-vs-second", title="First vs Second", vendors=[first, second])
    ComparisonFAQ.objects.create(comparison=comparison, question="Which?", answer="*First*.", position=1)
    f.publish(comparison)
    paths = ["/vendors/aws-trainium/", "/vendors/google-tpu/", "/compare/first-vs-second/", "/"]
    return {path: client.get(path).content.decode() for path in paths}


def test_every_structured_object_has_what_search_engines_require_and_only_what_its_type_has(pages):
    assert {path: problems(html) for path, html in pages.items()} == dict.fromkeys(pages, [])
    seen = set().union(*(types_in(html) for html in pages.values()))
    assert seen == set(REQUIRED)  # every type we check was emitted and checked


def test_the_checks_catch_a_product_with_page_properties_and_no_review():
    html = (
        '<script type="application/ld+json">[{"@context": "https://schema.org", "@type": "Product",'
        ' "name": "X", "citation": [], "dateModified": "2026-01-01"}]</script>'
    )
    assert problems(html) == [
        "Product lacks ['aggregateRating or offers or review']",
        "Product has no ['citation', 'dateModified']",
    ]
