"""Comparison pages: editorial ones and any set of vendors compared from the data."""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from comparisons.models import Assessment, Comparison, ComparisonVendor, Criterion
from editorial import services
from tests.factories import (
    make_assessment,
    make_attribute,
    make_axis,
    make_comparison,
    make_fact,
    make_lane,
    make_score,
    make_source,
    make_vendor,
    publish,
)
from vendors.models import Attribute, Fact, Score

pytestmark = pytest.mark.django_db


def comparison_of(vendors, *, published=True, **fields):
    fields.setdefault("title", " vs ".join(v.name for v in vendors))
    fields.setdefault("slug", "-vs-".join(v.slug for v in vendors))
    fields.setdefault("summary", "A one-line summary.")
    return make_comparison(vendors=vendors, published=published, **fields)


def columns(html):
    return re.findall(r'<th scope="col"><a href="/vendors/[^"]+/">([^<]+)</a></th>', html)


def row(html, label):
    """The cells of the table row whose header starts with ``label``, as text."""
    match = re.search(rf'<th scope="row">{re.escape(label)}.*?</th>(.*?)</tr>', html, re.S)
    assert match, f"no row {label!r}"
    cells = re.findall(r"<td[^>]*>(.*?)</td>", match.group(1), re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip() for cell in cells]


def leaders(html, label):
    match = re.search(rf'<th scope="row">{re.escape(label)}.*?</th>(.*?)</tr>', html, re.S)
    return ["leader" in attrs for attrs in re.findall(r"<td([^>]*)>", match.group(1))]


@pytest.fixture
def trio():
    memory, software, pricing = (
        make_attribute(name="Memory", position=1),
        make_attribute(name="Software", position=2),
        make_attribute(name="Pricing", position=3),
    )
    perf, soft = make_axis(name="Performance", position=1), make_axis(name="Software", position=2)
    a = make_vendor(name="Alpha", slug="alpha")
    b = make_vendor(name="Beta", slug="beta")
    c = make_vendor(name="Gamma", slug="gamma")
    spec = make_source(title="Alpha spec sheet")
    make_fact(vendor=a, attribute=memory, value="144 GB HBM3e", vendor_stated=True, sources=[spec])
    make_fact(vendor=a, attribute=memory, value="4.9 TB/s")
    make_fact(vendor=b, attribute=software, value="CUDA")
    make_fact(vendor=c, attribute=memory, value="44 GB SRAM")
    make_fact(vendor=c, attribute=pricing, value="Per token")
    for vendor, (p, s) in zip((a, b, c), [(4, 3), (4, 5), (3, 2)], strict=True):
        make_score(vendor=vendor, axis=perf, value=p)
        make_score(vendor=vendor, axis=soft, value=s)
        publish(vendor)  # the facts and scores reach the public pages
    return a, b, c


def editor_client(client, django_user_model):
    """``client`` signed in as a user who may change comparisons, and nothing more."""
    editor = django_user_model.objects.create_user("ed", password="pw", is_staff=True)
    editor.user_permissions.add(Permission.objects.get(codename="change_comparison"))
    client.force_login(editor)
    return client


class TestGeneratedComparison:
    def test_rows_line_up_by_attribute_and_missing_values_say_not_stated(self, client, trio):
        html = client.get("/compare/vendors/alpha/beta/gamma/").content.decode()
        assert columns(html) == ["Alpha", "Beta", "Gamma"]
        assert row(html, "Memory") == [
            "144 GB HBM3e † (vendor-stated) [1] 4.9 TB/s",
            "not stated",
            "44 GB SRAM",
        ]
        assert row(html, "Software")[:3] == ["not stated", "CUDA", "not stated"]
        assert row(html, "Pricing") == ["not stated", "not stated", "Per token"]
        labels = re.findall(r'<th scope="row">([^<]+)', html)
        assert (
            labels.index("Pricing")
            < labels.index("Performance")
            < labels.index("Total / 10")
            < labels.index("Lane")
        )
        assert '<li id="source-1"><a href="https://example.com' in html and "Alpha spec sheet" in html

    def test_row_leaders_with_ties(self, client, trio):
        html = client.get("/compare/vendors/alpha/beta/gamma/").content.decode()
        assert leaders(html, "Performance") == [True, True, False]  # 4, 4, 3: a tie leads together
        assert leaders(html, "Total / 10") == [False, True, False]  # 7, 9, 5
        assert row(html, "Total / 10") == ["7", "9 ★ leads", "5"]
        assert leaders(html, "Memory") == [False, False, False]  # text has no leader

    def test_any_order_redirects_to_one_canonical_page(self, client, trio):
        response = client.get("/compare/", {"vendors": ["gamma", "alpha", "beta"]})
        assert response.status_code == 302
        assert response["Location"] == "/compare/vendors/alpha/beta/gamma/"
        response = client.get("/compare/vendors/gamma/alpha/")
        assert response.status_code == 301
        assert response["Location"] == "/compare/vendors/alpha/gamma/"

    def test_duplicates_collapse(self, client, trio):
        response = client.get("/compare/", {"vendors": ["beta", "alpha", "beta"]})
        assert response["Location"] == "/compare/vendors/alpha/beta/"

    def test_generated_page_is_noindex_and_links_to_the_editorial_one(self, client, trio):
        a, b, c = trio
        html = client.get("/compare/vendors/alpha/beta/gamma/").content.decode()
        assert '<meta name="robots" content="noindex, follow">' in html
        assert "Our editors compared exactly these vendors" not in html
        editorial = comparison_of([c, a, b], title="The trio compared")
        html = client.get("/compare/vendors/alpha/beta/gamma/").content.decode()
        assert f'<a href="{editorial.get_absolute_url()}">The trio compared</a>' in html
        # A comparison of a different set is not offered.
        assert "Our editors" not in client.get("/compare/vendors/alpha/beta/").content.decode()

    @pytest.mark.parametrize(
        ("picked", "message"),
        [
            (["alpha"], "Pick at least 2 different vendors to compare (you picked 1)."),
            (["alpha", "alpha"], "Pick at least 2 different vendors"),
            ([""], "Pick at least 2 different vendors to compare (you picked 0)."),
            (["a", "b", "c", "d", "e", "f"], "Pick at most 5 vendors"),
            (["alpha", "<script>x</script>"], "is not a vendor&#x27;s address"),
            (["alpha", "x" * 5000], "is not a vendor&#x27;s address"),
            (["alpha", "../../etc"], "is not a vendor&#x27;s address"),
        ],
    )
    def test_bad_picks_get_a_clear_message_never_a_500(self, client, trio, picked, message):
        response = client.get("/compare/", {"vendors": picked})
        assert response.status_code == 400
        html = response.content.decode()
        assert message in html
        assert "<script>x</script>" not in html

    @pytest.mark.parametrize(
        "path",
        [
            "/compare/vendors/alpha/nope/",
            "/compare/vendors/alpha/",
            "/compare/vendors/a/b/c/d/e/f/",
            "/compare/vendors/alpha/%00/",
        ],
    )
    def test_unknown_or_malformed_paths_are_404(self, client, trio, path):
        assert client.get(path).status_code == 404


class TestDraftsNeverLeak:
    def test_any_n_naming_a_draft_or_scheduled_vendor_is_404(self, client, trio):
        make_vendor(name="Secret", slug="secret", published=False)
        soon = make_vendor(name="Soon", slug="soon", published=False)
        publish(soon, at=timezone.now() + dt.timedelta(days=1))
        for slug in ("secret", "soon"):
            response = client.get("/compare/", {"vendors": ["alpha", slug]}, follow=True)
            assert response.status_code == 404
            assert "Secret" not in response.content.decode()
        # Same answer as for a vendor that does not exist at all.
        assert client.get("/compare/vendors/alpha/nope/").status_code == 404

    def test_editorial_comparison_hides_unpublished_vendors(self, client, trio):
        a, b, _ = trio
        draft = make_vendor(name="Hidden Draft", slug="hidden", published=False)
        comparison = comparison_of([a, draft, b], title="Three chips compared")
        html = client.get(comparison.get_absolute_url()).content.decode()
        assert columns(html) == ["Alpha", "Beta"]
        assert "Hidden Draft" not in html

    @pytest.mark.parametrize("state", ["draft", "scheduled"])
    def test_a_draft_or_scheduled_comparison_is_hidden_from_visitors_and_previewed_by_editors(
        self, client, visitor, trio, django_user_model, state
    ):
        comparison = comparison_of(
            trio, title="Not out yet", summary="Only editors see this.", published=False
        )
        if state == "scheduled":
            day = timezone.localdate() + dt.timedelta(days=3)
            publish(comparison, at=timezone.make_aware(dt.datetime.combine(day, dt.time(9))))
            banner = f"Preview: Scheduled for {day.day} {day:%b %Y} 09:00."
        else:
            banner = "Preview: Draft."

        assert visitor.get(comparison.get_absolute_url()).status_code == 404
        assert "Not out yet" not in visitor.get("/compare/").content.decode()
        profile = visitor.get(trio[0].get_absolute_url()).content.decode()
        assert "Not out yet" not in profile and "Head-to-head comparisons" not in profile

        response = editor_client(client, django_user_model).get(comparison.get_absolute_url())
        assert response.status_code == 200
        html = response.content.decode()
        assert banner in html
        assert "Not out yet" in html and "Only editors see this." in html
        assert columns(html) == ["Alpha", "Beta", "Gamma"]
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
        # Signed in or not, the list shows live comparisons only.
        assert "Not out yet" not in client.get("/compare/").content.decode()

    def test_a_visitor_gets_no_preview_and_a_cacheable_live_page(self, visitor, trio):
        comparison = comparison_of(trio)
        response = visitor.get(comparison.get_absolute_url())
        assert response.status_code == 200
        assert "Preview:" not in response.content.decode()
        assert "no-store" not in response.get("Cache-Control", "")


class TestEditorialComparison:
    def test_criteria_rows_after_scores_with_pointers_marks_and_leaders(self, client, trio):
        a, b, c = trio
        comparison = comparison_of(trio, intro="Three ways to **train**.", verdict="Pick by budget.")
        price = Criterion.objects.create(comparison=comparison, name="Token price", position=1)
        speed = Criterion.objects.create(comparison=comparison, name="Speed", position=2)
        Criterion.objects.create(
            comparison=comparison, name="Memory again", position=3, attribute=make_attribute(name="Unused")
        )
        quote = make_source(title="Price list")
        assessment = make_assessment(criterion=price, vendor=a, value="$0.60 per million tokens")
        assessment.sources.set([quote])
        make_assessment(criterion=speed, vendor=a, mark=3, reason="Fine.")
        make_assessment(criterion=speed, vendor=b, mark=5)
        make_assessment(criterion=speed, vendor=c, mark=5)
        ComparisonVendor.objects.filter(comparison=comparison, vendor=b).update(pick_if="you live on CUDA")
        publish(comparison)
        html = client.get(comparison.get_absolute_url()).content.decode()
        labels = re.findall(r'<th scope="row">([^<]+)', html)
        assert labels.index("Lane") < labels.index("Token price") < labels.index("Speed")
        assert row(html, "Token price")[0].startswith("$0.60 per million tokens [")
        assert row(html, "Token price")[1:] == ["not assessed yet", "not assessed yet"]
        assert leaders(html, "Speed") == [False, True, True]
        assert "<strong>train</strong>" in html and "Pick by budget." in html
        assert "Pick Beta</strong> if you live on CUDA" in html
        assert "Price list" in html
        assert '<meta name="robots"' not in html

    def test_which_to_pick_shows_when_only_the_third_vendor_has_a_line(self, client, trio):
        comparison = comparison_of(trio, published=False)
        ComparisonVendor.objects.filter(comparison=comparison, vendor=trio[2]).update(pick_if="SRAM matters")
        publish(comparison)
        html = client.get(comparison.get_absolute_url()).content.decode()
        assert '<h2 id="pick">Which to pick</h2>' in html
        assert "Pick Gamma</strong> if SRAM matters" in html
        assert "Pick Alpha" not in html and "Pick Beta" not in html

    def test_no_which_to_pick_when_no_vendor_has_a_line(self, client, trio):
        html = client.get(comparison_of(trio).get_absolute_url()).content.decode()
        assert "Which to pick" not in html

    def test_star_legend_only_when_a_star_is_shown(self, client, trio):
        starred = client.get(comparison_of(trio).get_absolute_url()).content.decode()
        assert "★ marks the highest number in a row" in starred
        # Two vendors without a single number between them: no leader, so no star and no legend.
        a, b = make_vendor(name="Delta", slug="delta"), make_vendor(name="Epsilon", slug="epsilon")
        make_fact(vendor=a, attribute=Attribute.objects.get(name="Memory"), value="96 GB")
        for vendor in (a, b):
            publish(vendor)
        html = client.get(comparison_of([a, b]).get_absolute_url()).content.decode()
        assert "96 GB" in html
        assert "★" not in html and "marks the highest number" not in html

    def test_vendor_stated_legend_only_when_a_column_has_a_vendor_stated_value(self, client, trio):
        html = client.get(comparison_of(trio).get_absolute_url()).content.decode()
        assert html.count("Vendor-stated: the figure or claim comes from the vendor itself") == 1
        plain = client.get(comparison_of(trio[1:]).get_absolute_url()).content.decode()
        assert "Vendor-stated:" not in plain and "†" not in plain

    def test_profile_lists_its_published_comparisons_with_summaries(self, client, trio):
        comparison_of(trio, title="Alpha vs Beta vs Gamma", summary="Three ways to go.")
        html = client.get(trio[0].get_absolute_url()).content.decode()
        assert "Head-to-head comparisons" in html
        assert "Alpha vs Beta vs Gamma</a>: Three ways to go." in html

    def test_list_shows_published_comparisons_with_summaries(self, client, trio):
        comparison_of(trio, title="Published one", summary="Visible summary.")
        comparison_of(trio[:2], title="Draft one", slug="draft-one", published=False)
        html = client.get("/compare/").content.decode()
        assert "Published one" in html and "Visible summary." in html
        assert "Draft one" not in html


class TestVisitorsSeeWhatIsPublished:
    def test_an_edit_to_a_comparisons_working_copy_shows_only_once_it_is_published(
        self, client, visitor, trio, django_user_model
    ):
        a, b, c = trio
        comparison = comparison_of(trio, title="Three chips", summary="The old summary.")
        speed = Criterion.objects.create(comparison=comparison, name="Speed", position=1)
        make_assessment(criterion=speed, vendor=a, mark=2)
        publish(comparison)

        # An Editor's save: the working copy changes, the live version does not.
        Comparison.objects.filter(pk=comparison.pk).update(summary="The new summary.")
        Assessment.objects.filter(criterion=speed, entry__vendor=a).update(mark=5)
        make_assessment(criterion=speed, vendor=b, mark=4)
        assert services.refresh_state(obj=comparison) is True

        html = visitor.get(comparison.get_absolute_url()).content.decode()
        assert "The old summary." in html and "The new summary." not in html
        assert row(html, "Speed") == ["2 / 5", "not assessed yet", "not assessed yet"]
        listing = visitor.get("/compare/").content.decode()
        assert "The old summary." in listing and "The new summary." not in listing
        profile = visitor.get(a.get_absolute_url()).content.decode()
        assert "Three chips</a>: The old summary." in profile

        # Someone who may change comparisons previews the working copy, and can ask for the live one.
        editor = editor_client(client, django_user_model)
        preview = editor.get(comparison.get_absolute_url()).content.decode()
        assert "Preview: Live + unpublished changes." in preview and "The new summary." in preview
        assert row(preview, "Speed") == ["5 / 5 ★ leads", "4 / 5", "not assessed yet"]
        live = editor.get(comparison.get_absolute_url() + "?live").content.decode()
        assert "Preview:" not in live and "The old summary." in live

        publish(comparison)

        html = visitor.get(comparison.get_absolute_url()).content.decode()
        assert "The new summary." in html and "The old summary." not in html
        assert row(html, "Speed") == ["5 / 5 ★ leads", "4 / 5", "not assessed yet"]
        assert "The new summary." in visitor.get("/compare/").content.decode()
        assert "Three chips</a>: The new summary." in visitor.get(a.get_absolute_url()).content.decode()

    def test_a_vendors_unpublished_fact_change_reaches_comparisons_when_the_vendor_is_published(
        self, visitor, trio
    ):
        a, b, c = trio
        editorial = comparison_of(trio).get_absolute_url()
        generated = "/compare/vendors/alpha/beta/gamma/"
        Fact.objects.filter(vendor=c, value="44 GB SRAM").update(value="96 GB SRAM")
        Score.objects.filter(vendor=c, axis__name="Performance").update(value=5)
        assert services.refresh_state(obj=c) is True

        for url in (editorial, generated):
            html = visitor.get(url).content.decode()
            assert row(html, "Memory")[2] == "44 GB SRAM", url
            assert leaders(html, "Performance") == [True, True, False], url

        publish(c)

        for url in (editorial, generated):
            html = visitor.get(url).content.decode()
            assert row(html, "Memory")[2] == "96 GB SRAM", url
            assert "44 GB SRAM" not in html, url
            assert leaders(html, "Performance") == [False, False, True], url

    def test_each_column_says_how_verified_its_vendors_live_facts_are(self, visitor, trio):
        a, b, c = trio
        make_fact(vendor=a, attribute=make_attribute(name="Process"), value="3 nm", verified_on=None)
        Fact.objects.filter(vendor=c, value="Per token").update(verified_on=dt.date(2026, 9, 15))
        for vendor in (a, c):
            publish(vendor)
        make_fact(vendor=b, value="Not live yet", verified_on=None)  # not published: not counted
        for url in (comparison_of(trio).get_absolute_url(), "/compare/vendors/alpha/beta/gamma/"):
            html = visitor.get(url).content.decode()
            listed = html.split('<ul class="verified">')[1].split("</ul>")[0]
            verified = [
                re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip()
                for item in re.findall(r"<li>(.*?)</li>", listed, re.S)
            ]
            assert verified == [
                "Alpha: Facts verified 1 Nov 2026; 1 fact not yet verified",
                "Beta: Facts verified 1 Nov 2026",
                "Gamma: Facts verified 15 Sep 2026",
            ], url


def make_world(count):
    lane = make_lane()
    axes = [make_axis() for _ in range(5)]
    attributes = [make_attribute() for _ in range(6)]
    vendors = []
    for n in range(count):
        vendor = make_vendor(lane=lane)
        for attribute in attributes:
            make_fact(vendor=vendor, attribute=attribute, sources=[make_source()])
        for axis in axes:
            make_score(vendor=vendor, axis=axis, value=1 + n % 5, sources=[make_source()])
        publish(vendor)
        vendors.append(vendor)
    comparison = comparison_of(vendors)
    for i in range(3):
        criterion = Criterion.objects.create(comparison=comparison, name=f"C{i}", position=i)
        for vendor in vendors:
            make_assessment(criterion=criterion, vendor=vendor, mark=3).sources.set([make_source()])
    publish(comparison)
    return vendors, comparison


@pytest.mark.parametrize("count", [2, 5])
def test_editorial_query_count_does_not_grow_with_vendors(client, count, django_assert_num_queries):
    _, comparison = make_world(count)
    with django_assert_num_queries(3):
        assert client.get(comparison.get_absolute_url()).status_code == 200


@pytest.mark.parametrize("count", [2, 5])
def test_generated_query_count_does_not_grow_with_vendors(client, count, django_assert_num_queries):
    vendors, _ = make_world(count)
    url = "/compare/vendors/" + "/".join(sorted(v.slug for v in vendors)) + "/"
    with django_assert_num_queries(3):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("count", [1, 4])
def test_comparison_list_query_count_does_not_grow_with_comparisons(client, count, django_assert_num_queries):
    vendors, _ = make_world(2)
    for n in range(count - 1):
        comparison_of(vendors, title=f"Another pair {n}", slug=f"another-pair-{n}")
    with django_assert_num_queries(1):
        html = client.get("/compare/").content.decode()
    assert html.count('<li><h2><a href="/compare/') == count


def test_profile_lists_its_own_comparisons_first_then_others(client, trio):
    a, b, c = trio
    comparison_of([b, c], title="AAA Beta vs Gamma", summary="Not including Alpha.")
    comparison_of([a, b], title="ZZZ Alpha vs Beta", summary="Including Alpha.")
    html = client.get(a.get_absolute_url()).content.decode()
    assert html.index("ZZZ Alpha vs Beta") < html.index("AAA Beta vs Gamma")
