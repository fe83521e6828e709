"""Rankings, lanes and the filtered vendor list: sorting, filtering, bad input, query counts."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories as f
from tests.discovery.test_structured_data import json_ld
from tests.factories import (
    make_attribute,
    make_axis,
    make_event,
    make_fact,
    make_faq,
    make_lane,
    make_score,
    make_source,
    make_vendor,
    publish,
)
from vendors.models import Axis, Lane

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Three lanes, two axes, five vendors with different scores."""
    hyper = make_lane(name="hyperscaler custom silicon", slug="hyperscaler-custom-silicon", position=1)
    gpu = make_lane(name="merchant GPU", slug="merchant-gpu", position=2)
    infer = make_lane(name="inference specialist", slug="inference-specialist", position=3)
    perf = make_axis(name="Performance", slug="performance")
    soft = make_axis(name="Software", slug="software")
    vendors = {}
    for name, company, lane, scores in [
        ("AWS Trainium", "Amazon Web Services", hyper, (4, 3)),
        ("Google TPU", "Google", hyper, (5, 4)),
        ("AMD Instinct", "AMD", gpu, (4, 2)),
        ("Groq", "Groq, Inc.", infer, (3, 5)),
        ("Cerebras", "Cerebras Systems", infer, None),
    ]:
        vendor = make_vendor(name=name, company=company, lane=lane)
        if scores:
            make_score(vendor=vendor, axis=perf, value=scores[0])
            make_score(vendor=vendor, axis=soft, value=scores[1])
            publish(vendor)
        vendors[name] = vendor
    return vendors


def breadcrumbs(html):
    """The names of the page's BreadcrumbList (its JSON-LD), in order."""
    return [crumb["name"] for crumb in json_ld(html)["BreadcrumbList"]["itemListElement"]]


def names_in(html):
    return re.findall(r'<h2>(?:<input[^>]*>)?<a href="/vendors/[^"]+/">([^<]+)</a></h2>', html)


def ranking_names(html):
    """The ranked vendors, in order: the rankings table's rows only."""
    table = re.search(r'<table class="rankings.*?</table>', html, re.S).group(0)
    return re.findall(r'<th scope="row">(?:<input[^>]*>)?<a href="/vendors/[^"]+/">([^<]+)</a></th>', table)


def not_scored_rows(html):
    """The "Not scored yet" list: each row's visible cells (name, lane, facts verified)."""
    section = re.search(r'<section class="not-scored".*?</section>', html, re.S)
    if section is None:
        return []
    rows = re.findall(r"<tr>(.*?)</tr>", section.group(0), re.S)[1:]  # the header row first
    return [
        [
            unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


class TestRankings:
    def test_scored_vendors_are_ranked_by_total_and_the_unscored_listed_apart(self, client, world):
        page = client.get("/").content.decode()
        assert ranking_names(page) == ["Google TPU", "Groq", "AWS Trainium", "AMD Instinct"]
        # Cerebras has no score: not a ranked row with a dash, but under "Not scored yet",
        # with its lane and its facts' date (it has no facts, and says so).
        assert '<h2 id="not-scored-heading">Not scored yet</h2>' in page
        assert not_scored_rows(page) == [["Cerebras", "inference specialist", "no facts yet"]]
        totals = re.findall(r'<td class="num total">(.*?)</td>', page, re.S)
        assert totals == ["9", "8", "7", "6"]  # every ranked row has its total, none a dash

    @pytest.mark.parametrize(
        ("sort", "expected"),
        [
            ("-axis-software", ["Groq", "Google TPU", "AWS Trainium", "AMD Instinct"]),
            ("axis-software", ["AMD Instinct", "AWS Trainium", "Google TPU", "Groq"]),
            ("name", ["AMD Instinct", "AWS Trainium", "Google TPU", "Groq"]),
            ("-name", ["Groq", "Google TPU", "AWS Trainium", "AMD Instinct"]),
            ("lane", ["AWS Trainium", "Google TPU", "AMD Instinct", "Groq"]),
        ],
    )
    def test_sort_by_any_column(self, client, world, sort, expected):
        page = client.get("/", {"sort": sort}).content.decode()
        assert ranking_names(page) == expected
        assert [row[0] for row in not_scored_rows(page)] == ["Cerebras"]  # whatever the sort

    def test_header_links_sort_without_javascript(self, client, world):
        page = client.get("/").content.decode()
        assert 'href="?sort=-axis-software"' in page
        page = client.get("/?sort=-axis-software").content.decode()
        assert 'aria-sort="descending"' in page
        assert 'href="?sort=axis-software"' in page  # clicking again reverses

    @pytest.mark.parametrize("sort", ["password", "-", "axis-nope", "x" * 5000, "name'--"])
    def test_unknown_sort_is_said_and_ignored(self, client, world, sort):
        response = client.get("/", {"sort": sort})
        assert response.status_code == 200
        assert "was ignored" in response.content.decode()
        assert ranking_names(response.content.decode())[0] == "Google TPU"

    def test_totals_and_scores_shown(self, client, world):
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get("/").content.decode()))
        assert re.search(r"Google TPU 9 5 4 hyperscaler custom silicon", text)


class TestVendorList:
    def test_lists_all_published_vendors_sorted_by_total(self, client, world):
        assert names_in(client.get("/vendors/").content.decode()) == [
            "Google TPU", "Groq", "AWS Trainium", "AMD Instinct", "Cerebras",
        ]  # fmt: skip

    def test_several_lanes_at_once(self, client, world):
        page = client.get("/vendors/?lane=merchant-gpu&lane=inference-specialist&sort=name").content.decode()
        assert names_in(page) == ["AMD Instinct", "Cerebras", "Groq"]

    def test_minimum_total(self, client, world):
        assert names_in(client.get("/vendors/?min_total=5").content.decode()) == [
            "Google TPU", "Groq", "AWS Trainium", "AMD Instinct",
        ]  # fmt: skip
        assert names_in(client.get("/vendors/?min_total=10").content.decode()) == []

    def test_minimum_score_on_an_axis(self, client, world):
        page = client.get("/vendors/?min_software=4&sort=name").content.decode()
        assert names_in(page) == ["Google TPU", "Groq"]
        page = client.get("/vendors/?min_software=4&min_performance=4").content.decode()
        assert names_in(page) == ["Google TPU"]

    def test_text_search_on_name_and_company(self, client, world):
        assert names_in(client.get("/vendors/?q=amazon").content.decode()) == ["AWS Trainium"]
        assert names_in(client.get("/vendors/?q=cerebras").content.decode()) == ["Cerebras"]

    def test_each_option_shows_how_many_it_would_match(self, client, world):
        page = client.get("/vendors/?lane=inference-specialist").content.decode()
        assert "hyperscaler custom silicon (2)" in page
        assert "inference specialist (2)" in page
        assert "merchant GPU (1)" in page
        # Other filters count within the chosen lane: only Groq is scored there.
        assert ">4 or more (1)<" in page
        assert ">5 or more (1)<" in page

    def test_pagination(self, client, world):
        lane = make_lane()
        for n in range(25):
            make_vendor(name=f"Extra {n:02}", lane=lane)
        first = client.get("/vendors/?sort=name").content.decode()
        assert len(names_in(first)) == 20
        assert "page 1 of 2" in first and "1–20 of " in first
        assert 'href="?sort=name&amp;page=2"' in first
        second = client.get("/vendors/?sort=name&page=2").content.decode()
        assert len(names_in(second)) == 10

    @pytest.mark.parametrize(
        "query",
        [
            "min_total=abc",
            "sort=password",
            "page=-1",
            "page=abc",
            "page=99999",
            "lane=no-such-lane",
            "min_software=9",
            "min_total=1e9999",
            "q=" + "x" * 10000,
            "lane=" + "y" * 5000,
            "unknown=1",
            "q=%00",
            "min_total=5&min_total=abc",
        ],
    )
    def test_bad_values_never_500_and_are_said(self, client, world, query):
        response = client.get("/vendors/?" + query)
        assert response.status_code == 200
        page = response.content.decode()
        if not query.startswith("page="):
            assert "ignored" in page
        assert names_in(page)  # never silently "nothing"

    def test_an_ignored_value_keeps_the_valid_ones(self, client, world):
        page = client.get("/vendors/?lane=merchant-gpu&min_total=abc").content.decode()
        assert names_in(page) == ["AMD Instinct"]
        assert "Minimum total: “abc” is not one of the choices, so this filter was ignored." in page

    @pytest.mark.parametrize(
        "query, sentence",
        [
            ("lane=bogus", "Lane: “bogus” is not one of the choices, so this filter was ignored."),
            ("min_total=7", "Minimum total: “7” is not one of the choices, so this filter was ignored."),
            ("q=" + "x" * 101, "Name or company: “" + "x" * 40 + "…” is longer than 100 characters"),
            ("q=%00", "Name or company: the text holds a character that cannot be searched for, so it was"),
        ],
    )
    def test_a_bad_value_is_named_in_one_sentence_of_ours(self, client, world, query, sentence):
        page = client.get("/vendors/?" + query).content.decode()
        notices = re.findall(r'<p class="notice" role="status">(.*?)</p>', page, re.S)
        assert len(notices) == 1 and unescape(notices[0]).startswith(sentence)
        # Django's form wording ("Select a valid choice. ...") is not for someone following a link.
        assert "Select a valid choice" not in page and "(" not in notices[0]


class TestLanes:
    def test_lane_page_lists_vendors_with_best_for_and_total(self, client, world):
        world["Google TPU"].alternative_blurb = "large, steady training runs"
        world["Google TPU"].save()
        publish(world["Google TPU"])
        page = client.get("/lanes/hyperscaler-custom-silicon/").content.decode()
        assert names_in(page) == ["Google TPU", "AWS Trainium"]
        assert "large, steady training runs" in page
        assert "<strong>9</strong> / 10" in page

    def test_a_lanes_description_shows_on_the_index_and_its_page_and_names_read_alike(self, client, world):
        lane = Lane.objects.get(slug="inference-specialist")
        lane.description = "Chips built to **serve** models, not train them."
        lane.save()
        index = client.get("/lanes/").content.decode()
        page = client.get("/lanes/inference-specialist/").content.decode()
        for html in (index, page):
            assert "Chips built to <strong>serve</strong> models, not train them." in html
        # One spelling everywhere: the lane's name as its editors wrote it, headings included.
        assert '<a href="/lanes/inference-specialist/">inference specialist</a></h2>' in index
        assert "<h1>inference specialist</h1>" in page
        assert '<a href="/lanes/merchant-gpu/">merchant GPU</a></h2>' in index
        # A lane without a description shows no empty block.
        assert index.count('class="lane-description"') == 1

    def test_a_lanes_name_reads_as_written_in_its_title_breadcrumbs_and_the_profiles_byline(
        self, client, world
    ):
        written = "merchant GPU"  # as the editors wrote it: neither "Merchant GPU" nor "merchant gpu"
        page = client.get("/lanes/merchant-gpu/").content.decode()
        assert f"<title>{written}: AI-chip vendors in this lane · chipsite</title>" in page
        assert f"<h1>{written}</h1>" in page
        assert breadcrumbs(page) == ["Rankings", written]
        profile = client.get(world["AMD Instinct"].get_absolute_url()).content.decode()
        byline = re.search(r'<p class="eyebrow">(.*?)</p>', profile).group(1)
        assert byline == f'<a href="/lanes/merchant-gpu/">{written}</a> · AMD'
        assert breadcrumbs(profile) == ["Rankings", written, "AMD Instinct"]

    def test_unknown_lane_is_404(self, client, world):
        assert client.get("/lanes/nope/").status_code == 404


def populate(count):
    """``count`` more published vendors, each with facts, events, scores, FAQs and citations."""
    lanes = [make_lane() for _ in range(3)]
    axes = list(Axis.objects.all()) or [make_axis() for _ in range(5)]
    attributes = [make_attribute() for _ in range(4)]
    for n in range(count):
        vendor = make_vendor(lane=lanes[n % 3])
        sources = [make_source(), make_source()]
        for attribute in attributes:
            make_fact(vendor=vendor, attribute=attribute, sources=sources)
            make_fact(vendor=vendor, attribute=attribute, sources=sources[:1])
        make_event(vendor=vendor, sources=sources)
        make_event(vendor=vendor, sources=sources[1:])
        for axis in axes:
            make_score(vendor=vendor, axis=axis, value=1 + n % 5, sources=sources[:1])
        make_faq(vendor=vendor, sources=sources)
        publish(vendor)
    return vendor


def count_queries(client, url):
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context)


PAGES = {
    "rankings": ("/", 5),
    "rankings sorted by an axis": ("/?sort=-axis-{axis}", 5),
    "vendor list": ("/vendors/", 6),
    "vendor list filtered": ("/vendors/?lane={lane}&min_total=5&min_{axis}=2&q=e", 7),
    "lanes": ("/lanes/", 1),
    "lane": ("/lanes/{lane}/", 4),
    "profile": ("/vendors/{vendor}/", 6),
}


@pytest.mark.parametrize("name", PAGES)
def test_query_count_is_pinned_and_does_not_grow_with_the_data(client, name, django_assert_num_queries):
    url, expected = PAGES[name]
    vendor = populate(2)

    def fill(template):
        return template.format(axis=Axis.objects.first().slug, lane=vendor.lane.slug, vendor=vendor.slug)

    small = fill(url)
    client.get(small)  # its rows rendered once and kept (infra/rows/): the page reads them
    with django_assert_num_queries(expected):
        assert client.get(small).status_code == 200
    vendor = populate(12)
    large = fill(url)
    client.get(large)
    with django_assert_num_queries(expected):
        assert client.get(large).status_code == 200


@pytest.mark.django_db
class TestLongLists:
    """Rankings and lane pages come in pages of 50, saying where the reader is."""

    @pytest.fixture
    def many(self):
        lanes = [make_lane(slug="big-lane")]
        axes = [f.make_axis(slug="speed", name="Speed")]
        return f.make_published_vendors(120, lanes=lanes, axes=axes)

    def test_rankings_show_50_at_a_time_and_say_which(self, client, many):
        first = client.get("/").content.decode()
        assert first.count('class="pick"') == 50
        assert "1–50 of 120" in first and 'href="?page=2"' in first
        third = client.get("/?page=3").content.decode()
        assert third.count('class="pick"') == 20 and "101–120 of 120" in third

    def test_sorting_keeps_across_pages_and_an_unscored_vendor_is_listed_apart(self, client, many):
        unscored = make_vendor(name="Unscored Chip", lane=many[0].lane)
        page = client.get("/?sort=-axis-speed&page=2").content.decode()
        assert 'href="?sort=-axis-speed&amp;page=3"' in page
        for sort in ("-axis-speed", "axis-speed"):
            last = client.get(f"/?sort={sort}&page=3").content.decode()
            assert unscored.name not in ranking_names(last) and "101–120 of 120" in last
            assert [row[0] for row in not_scored_rows(last)] == [unscored.name]

    def test_more_unscored_vendors_than_a_page_lists_link_to_the_vendor_list(self, client, many):
        for n in range(55):
            make_vendor(name=f"Waiting {n:02}", lane=many[0].lane)
        page = client.get("/").content.decode()
        rows = not_scored_rows(page)
        assert len(rows) == 50 and rows[0][0] == "Waiting 00"
        assert "These 55 vendors are published" in page
        assert '<a href="/vendors/?sort=name">5 more not scored yet' in page
        lane = client.get("/lanes/big-lane/").content.decode()
        assert len(not_scored_rows(lane)) == 50 and "55 not scored yet, listed below" in lane

    def test_pages_together_list_every_vendor_once_in_the_sort_order(self, client, many):
        for sort in ("name", "-name"):
            pages = [client.get(f"/?sort={sort}&page={n}").content.decode() for n in (1, 2, 3)]
            shown = [name for page in pages for name in names_in_rankings(page)]
            assert shown == sorted((v.name for v in many), reverse=sort == "-name")

    def test_a_lane_page_shows_50_at_a_time(self, client, many):
        page = client.get("/lanes/big-lane/?page=2").content.decode()
        assert page.count("<h2><a") == 50 and "51–100 of 120" in page


def names_in_rankings(html):
    """The ranked vendors, in order (not the tick boxes under "Not scored yet")."""
    ranked = html.split('<section class="not-scored"', 1)[0]
    return re.findall(r'class="pick"[^>]*aria-label="Compare ([^"]+)"', ranked)


@pytest.mark.django_db
def test_each_filter_of_the_vendor_list_offers_any_once(client):
    populate(3)
    html = client.get("/vendors/?min_total=5").content.decode()

    selects = dict(re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', html, re.S))
    assert "min_total" in selects and len(selects) > 2
    for name, options in selects.items():
        values = re.findall(r'<option value="([^"]*)"', options)
        assert len(values) == len(set(values)), (name, values)
    assert re.findall(r'<option value="">([^<]*)</option>', selects["min_total"]) == ["Any total"]
