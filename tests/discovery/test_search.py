"""Site search: live content only, names first, links to the exact row, hostile queries answered."""

import datetime as dt
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from discovery.models import SearchEntry
from discovery.search import MAX_QUERY_LENGTH, index_all, search
from editorial import services
from tests import factories as f

pytestmark = pytest.mark.django_db

on_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL full-text search")
on_sqlite = pytest.mark.skipif(connection.vendor == "postgresql", reason="SQLite's FTS5 index")


def hits(results, kind):
    return [hit.title for group in results.groups if group.kind == kind for hit in group.hits]


def search_page(client, q):
    return client.get(reverse("search"), {"q": q})


@pytest.fixture
def catalogue():
    lane = f.make_lane(name="Training")
    memory = f.make_attribute(name="Memory")
    zephyr = f.make_vendor(name="Zephyr Accelerator", company="Zephyr Labs", lane=lane, published=False)
    fact = f.make_fact(vendor=zephyr, attribute=memory, value="144 GB of HBM3e per chip")
    faq = f.make_faq(vendor=zephyr, question="Who makes Zephyr?", answer="Zephyr Labs, since **2021**.")
    f.make_event(vendor=zephyr, text="Zephyr 2 shipped to its first customers.")
    f.publish(zephyr)
    # Another vendor that only mentions Zephyr, many times, in its text.
    rival = f.make_vendor(
        name="Borealis",
        lane=lane,
        summary="Borealis competes with Zephyr. Zephyr is faster; Zephyr costs more; Zephyr sells out.",
    )
    return {"zephyr": zephyr, "fact": fact, "faq": faq, "rival": rival, "memory": memory}


def test_a_vendor_named_in_the_query_comes_before_one_that_mentions_it(catalogue):
    results = search("zephyr")

    assert hits(results, "vendor") == ["Zephyr Accelerator", "Borealis"]


def test_a_fact_is_found_by_its_value_and_links_to_its_row_on_the_profile(client, catalogue):
    results = search("HBM3e")

    (hit,) = [hit for group in results.groups if group.kind == "fact" for hit in group.hits]
    assert hit.title == "Zephyr Accelerator: Memory"
    page, anchor = hit.url.split("#")
    assert anchor == f"fact-{catalogue['fact'].pk}"
    profile = client.get(page).content.decode()
    assert f'id="{anchor}"' in profile
    assert re.search(rf'id="{anchor}">144 GB of HBM3e per chip', profile)


def test_a_question_is_found_by_its_answer_and_links_to_the_question(client, catalogue):
    results = search("2021")

    (hit,) = [hit for group in results.groups if group.kind == "faq" for hit in group.hits]
    assert hit.title == "Who makes Zephyr?"
    page, anchor = hit.url.split("#")
    assert f'<h3 id="{anchor}">Who makes Zephyr?</h3>' in client.get(page).content.decode()
    # The answer's Markdown is searched and quoted as text.
    assert "**" not in hit.snippet and "<mark>2021</mark>" in hit.snippet


def test_a_comparison_is_found_by_its_title_and_its_questions(catalogue):
    comparison = f.make_comparison(
        title="Zephyr vs Borealis", vendors=[catalogue["zephyr"], catalogue["rival"]], published=False
    )
    comparison.faqs.create(question="Which is cheaper?", answer="Borealis, by list price.", position=1)
    f.publish(comparison)

    assert hits(search("zephyr"), "comparison") == ["Zephyr vs Borealis"]
    (hit,) = [hit for group in search("cheaper").groups for hit in group.hits]
    assert hit.url.startswith(comparison.get_absolute_url() + "#faq-")


def test_results_page_groups_hits_by_kind_with_marked_snippets(client, catalogue):
    response = search_page(client, "zephyr")
    html = response.content.decode()

    assert response.status_code == 200
    headings = re.findall(r'<h2 id="results-(\w+)">', html)
    assert headings == ["vendor", "fact", "event", "faq"]
    assert "<mark>Zephyr</mark>" in html
    assert f'href="{catalogue["zephyr"].get_absolute_url()}"' in html


def test_nothing_unpublished_is_found(catalogue):
    lane = f.make_lane()
    f.make_vendor(name="Quokka Draft", lane=lane, published=False)
    gone = f.make_vendor(name="Quokka Gone", lane=lane)
    services.unpublish(obj=gone, user=f.make_superuser())
    later = f.make_vendor(name="Quokka Later", lane=lane, published=False)
    f.publish(later, at=timezone.now() + dt.timedelta(days=2))
    # An editor's change to a live vendor, saved but not published.
    zephyr = catalogue["zephyr"]
    zephyr.facts.update(value="Quokka-sized memory")
    services.refresh_state(obj=zephyr)

    assert search("quokka").groups == []
    assert search("quokka", kind="vendor").groups == []  # nor on a page of one kind
    assert hits(search("HBM3e"), "fact") == ["Zephyr Accelerator: Memory"]


def test_a_live_chip_is_found_by_its_name_and_links_to_its_page(client, catalogue):
    zephyr = catalogue["zephyr"]
    f.make_spec(vendor=zephyr, chip="ZX900", quantity=288, unit="GB")
    f.publish(zephyr)
    response = search_page(client, "ZX900")
    page = response.content.decode()
    chips = re.search(r'<section aria-labelledby="results-chip".*?</section>', page, re.S).group(0)
    assert '<h2 id="results-chip">Chips</h2>' in chips
    assert '<a href="/chips/zx900/">ZX900</a> <span class="muted">on Zephyr Accelerator</span>' in chips
    assert "Memory capacity: 288 GB" in chips  # its numbers as the source gives them
    assert client.get("/chips/zx900/").status_code == 200  # the hit leads to a live page


def test_a_chip_not_yet_published_is_never_found(catalogue):
    zephyr = catalogue["zephyr"]
    f.make_spec(vendor=zephyr, chip="ZX900")
    f.publish(zephyr)
    # A second chip saved on the live vendor, not published; a chip of a draft vendor.
    f.make_spec(vendor=zephyr, chip="Pulsar 3")
    services.refresh_state(obj=zephyr)
    draft = f.make_vendor(name="Quokka Draft", lane=f.make_lane(), published=False)
    f.make_spec(vendor=draft, chip="Quasar 5")

    assert hits(search("ZX900"), "chip") == ["ZX900"]
    assert hits(search("Pulsar"), "chip") == [] and hits(search("Quasar"), "chip") == []
    assert search("Pulsar", kind="chip").groups == [] and search("Quasar", kind="chip").groups == []


def test_a_republished_value_is_found_and_the_old_one_is_not(catalogue):
    zephyr = catalogue["zephyr"]
    zephyr.facts.update(value="192 GB of HBM4 per chip")
    services.refresh_state(obj=zephyr)
    f.publish(zephyr)

    assert hits(search("HBM4"), "fact") == ["Zephyr Accelerator: Memory"]
    assert hits(search("HBM3e"), "fact") == []


def test_a_scheduled_version_is_found_once_its_time_comes(catalogue, settings):
    later = f.make_vendor(name="Wombat Chip", published=False)
    f.publish(later, at=timezone.now() + dt.timedelta(hours=1))
    assert search("wombat").groups == []

    with pytest.MonkeyPatch.context() as patch:
        moved = timezone.now() + dt.timedelta(hours=2)
        patch.setattr(timezone, "now", lambda: moved)
        assert hits(search("wombat"), "vendor") == ["Wombat Chip"]


def test_when_no_page_has_every_word_the_search_widens_and_says_so(client, catalogue):
    results = search("zephyr unobtainium")

    assert results.widened
    assert hits(results, "vendor")[0] == "Zephyr Accelerator"
    assert "no page has every word" in search_page(client, "zephyr unobtainium").content.decode()


def test_a_misspelt_name_finds_its_vendor_on_either_database(catalogue):
    assert hits(search("zepher"), "vendor")[0] == "Zephyr Accelerator"
    assert hits(search("zepher memory"), "fact")[0] == "Zephyr Accelerator: Memory"


def test_a_word_finds_the_words_it_starts(catalogue):
    assert hits(search("HBM3"), "fact") == ["Zephyr Accelerator: Memory"]
    assert hits(search("accel"), "vendor") == ["Zephyr Accelerator"]


def test_entries_with_every_word_come_first_then_those_with_some_saying_what_they_lack(client, catalogue):
    results = search("zephyr borealis")

    vendors = [
        (hit.title, hit.missing) for group in results.groups if group.kind == "vendor" for hit in group.hits
    ]
    assert vendors == [("Borealis", []), ("Zephyr Accelerator", ["borealis"])]
    assert not results.widened
    html = search_page(client, "zephyr borealis").content.decode()
    assert "Without “borealis”" in html


def test_stop_words_are_not_searched_for(client, catalogue):
    results = search("the zephyr")

    assert hits(results, "vendor")[0] == "Zephyr Accelerator"
    assert all(
        not hit.missing for group in results.groups for hit in group.hits if hit.title == "Zephyr Accelerator"
    )
    html = search_page(client, "the of").content.decode()
    assert "has only words too common to search for" in html


@on_postgres
def test_entries_carry_a_weighted_vector_on_postgres(catalogue):
    entry = SearchEntry.objects.get(kind="vendor", title="Zephyr Accelerator")
    assert "zephyr':1A" in entry.vector


@on_sqlite
def test_sqlite_searches_its_full_text_index_without_a_vector(catalogue):
    assert not SearchEntry.objects.exclude(vector=None).exists()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM discovery_searchentry_fts WHERE discovery_searchentry_fts MATCH 'zephyr'"
        )
        (indexed,) = cursor.fetchone()
    assert indexed == SearchEntry.objects.filter(title__icontains="zephyr").count() + 1  # and Borealis
    assert hits(search("zephyr labs"), "vendor") == ["Zephyr Accelerator", "Borealis"]


def test_a_ten_thousand_character_query_is_cut_and_says_so(client, catalogue):
    response = search_page(client, "zephyr " + "a" * 10_000)
    html = response.content.decode()

    assert response.status_code == 200
    assert f"only its first {MAX_QUERY_LENGTH} characters were searched" in html
    assert "Zephyr Accelerator" in html


@pytest.mark.parametrize("q", ["!!!", "?*&^%", "'\"", "--", "()"])
def test_a_query_of_punctuation_only_gets_a_clear_page(client, catalogue, q):
    response = search_page(client, q)

    assert response.status_code == 200
    assert "has no letters or digits to search for" in response.content.decode()


def test_a_nul_byte_never_reaches_the_database(client, catalogue):
    with CaptureQueriesContext(connection) as queries:
        response = search_page(client, "zeph\x00yr\x00")

    assert response.status_code == 200
    assert queries.captured_queries
    assert not any("\x00" in query["sql"] for query in queries.captured_queries)


def test_an_empty_query_invites_a_search_and_touches_no_table(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = search_page(client, "   ")

    assert response.status_code == 200
    assert "Type a vendor, a chip, a figure or a question" in response.content.decode()


def test_search_pages_are_not_indexed(client, catalogue):
    response = search_page(client, "zephyr")

    assert response["X-Robots-Tag"] == "noindex"
    assert '<meta name="robots" content="noindex, follow">' in response.content.decode()
    assert "Disallow: /search/" in client.get("/robots.txt").content.decode()


def test_what_an_editor_typed_is_quoted_as_text_not_html(catalogue):
    zephyr = catalogue["zephyr"]
    zephyr.facts.update(value='<img src=x onerror="alert(1)"> HBM3e')
    services.refresh_state(obj=zephyr)
    f.publish(zephyr)

    (hit,) = [hit for group in search("HBM3e").groups for hit in group.hits]
    assert "<img" not in hit.snippet
    assert "&lt;img src=x" in hit.snippet and "<mark>HBM3e</mark>" in hit.snippet


def test_every_page_has_a_search_box_that_works_without_javascript(client, catalogue):
    html = client.get(catalogue["zephyr"].get_absolute_url()).content.decode()

    form = re.search(r'<form class="site-search" method="get" action="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    assert form and form.group(1) == reverse("search")
    assert 'name="q"' in form.group(2) and '<button type="submit">' in form.group(2)
    assert '<label class="visually-hidden" for="site-search-q">' in form.group(2)


def test_rebuilding_the_index_finds_the_same(catalogue):
    before = [(g.kind, g.total) for g in search("zephyr").groups]
    SearchEntry.objects.all().delete()
    assert search("zephyr").groups == []

    call_command("reindex_search", stdout=open("/dev/null", "w"))  # noqa: SIM115

    assert [(g.kind, g.total) for g in search("zephyr").groups] == before


@on_postgres
def test_rebuilding_fills_every_entrys_vector_slice_by_slice(catalogue, monkeypatch):
    """The rebuild fills vectors a slice of keys at a time (one UPDATE of 10,000 vendors'
    entries outlasted the statement timeout); no entry is left out between slices."""
    monkeypatch.setattr("discovery.search.indexing.VECTOR_BATCH", 2)

    index_all()

    assert SearchEntry.objects.count() > 2 * 2  # three slices or more
    assert not SearchEntry.objects.filter(vector__isnull=True).exists()
    assert search("zephyr").groups


@pytest.mark.parametrize("count", [3, 30])
def test_search_page_query_count_does_not_grow_with_the_catalogue(client, count, django_assert_num_queries):
    f.make_published_vendors(count, lanes=[f.make_lane()])
    index_all()  # the bulk builder writes versions without the publishing service

    # The results, grouped and counted, in one query.
    with django_assert_num_queries(1):
        response = search_page(client, "summary vendor")
    assert response.status_code == 200
    assert f'<a href="#results-vendor">Vendors ({count})</a>' in response.content.decode()


@pytest.mark.parametrize("count", [1, 12])
def test_chip_hits_take_one_query_however_many_chips(client, count, django_assert_num_queries):
    vendor = f.make_vendor(name="Nebula", lane=f.make_lane(), published=False)
    for number in range(1, count + 1):
        f.make_spec(vendor=vendor, chip=f"Nova {number}")
    f.publish(vendor)

    with django_assert_num_queries(1):
        response = search_page(client, "nova")
    page = response.content.decode()
    assert len(re.findall(r'<a href="/chips/nova-\d+/">Nova \d+</a>', page)) == min(count, 10)
    assert ("And 2 more chips: show all 12" in page) == (count == 12)


@pytest.fixture
def many_facts():
    """A vendor with 23 facts that say "HBM3e": more than one group shows, fewer than a page."""
    vendor = f.make_vendor(name="Quasar", lane=f.make_lane(), published=False)
    for number in range(1, 24):
        f.make_fact(
            vendor=vendor, attribute=f.make_attribute(name=f"Memory {number}"), value=f"{number} GB HBM3e"
        )
    f.publish(vendor)
    return vendor


def test_and_n_more_opens_every_hit_of_its_kind(client, many_facts):
    html = search_page(client, "HBM3e").content.decode()
    link = re.search(r'<a href="([^"]+)">And 13 more facts: show all 23</a>', html)
    assert link, "the group says how many more there are and links to them"

    page = client.get(link.group(1).replace("&amp;", "&"))
    shown = page.content.decode()

    assert page.status_code == 200
    assert "23 facts for “HBM3e”." in shown
    assert len(re.findall(rf'<a href="{many_facts.get_absolute_url()}#fact-\d+">', shown)) == 23
    assert "And " not in shown and '<a href="/search/?q=HBM3e">Every kind of result</a>' in shown


def test_a_kind_of_result_is_shown_page_by_page(client, many_facts, monkeypatch):
    monkeypatch.setattr("discovery.search.PER_PAGE", 10)

    second = client.get(reverse("search"), {"q": "HBM3e", "kind": "fact", "page": "2"}).content.decode()

    assert "23 facts for “HBM3e”, page 2 of 3." in second
    assert '<ol start="11">' in second
    assert len(re.findall(rf'href="{many_facts.get_absolute_url()}#fact-', second)) == 10
    assert 'href="/search/?q=HBM3e&amp;kind=fact" rel="prev"' in second
    assert 'href="/search/?q=HBM3e&amp;kind=fact&amp;page=3" rel="next"' in second


@pytest.mark.parametrize(
    ("params", "notice"),
    [
        ({"kind": "fact", "page": "x"}, "“x” is not a page number: here is the first page."),
        ({"kind": "fact", "page": "-1"}, "“-1” is not a page number: here is the first page."),
        ({"kind": "fact", "page": "99"}, "There is no page 99 of these results: here is page 1."),
        ({"kind": "<script>"}, "That kind of result does not exist: here are results of every kind."),
    ],
)
def test_a_kind_or_page_that_does_not_exist_is_said_and_the_results_shown(client, many_facts, params, notice):
    response = client.get(reverse("search"), {"q": "HBM3e", **params})
    html = response.content.decode()

    assert response.status_code == 200
    assert notice in html
    assert "Quasar: Memory 1" in html
    assert "<script>" not in html.split("<main", 1)[-1]


@pytest.mark.parametrize("kind", [None, "fact"])
def test_a_kind_of_result_takes_one_query_however_many_hits(
    client, many_facts, kind, django_assert_num_queries
):
    with django_assert_num_queries(1):
        response = client.get(reverse("search"), {"q": "HBM3e", **({"kind": kind} if kind else {})})

    assert response.status_code == 200


def test_a_query_string_of_thousands_of_fields_still_gets_its_results(client, catalogue):
    response = client.get(reverse("search") + "?q=zephyr" + "&x=1" * 5000)

    assert response.status_code == 200
    assert "Zephyr Accelerator" in response.content.decode()


@pytest.mark.parametrize(
    "q",
    [
        "zephyr " * 2000,
        "🙂" * 5000,
        "%" * 300,
        "a:* & !b | ' \" ( ) <-> *",
        "NEAR(zephyr labs)",
        'zephyr" OR "x',
        "ß" * 250,
    ],
)
def test_a_query_of_any_length_or_content_is_a_page_with_a_message_never_an_error(client, catalogue, q):
    response = search_page(client, q)

    assert response.status_code == 200
    assert (
        'class="count"' in response.content.decode()
        or "Nothing live matches" in response.content.decode()
        or ("has no letters or digits" in response.content.decode())
    )


def test_an_address_too_long_for_the_server_gets_a_page_that_says_so(client):
    response = client.get(reverse("search"), {"too-long": "1"})

    assert response.status_code == 200
    assert "That address was too long to read" in response.content.decode()


def test_a_vendor_found_by_its_lane_quotes_its_lane(client, catalogue):
    (borealis,) = [
        hit for group in search("training").groups for hit in group.hits if hit.title == "Borealis"
    ]

    assert "<mark>Training</mark>" in borealis.snippet
