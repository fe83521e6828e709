"""Reader-weighted rankings: a visitor's own weights reorder the vendors; our total stays."""

import re

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db


def names(html):
    """The ranked vendors, in order (the tick boxes of the rankings table, not of "Not scored yet")."""
    ranked = html.split('<section class="not-scored"', 1)[0]
    return re.findall(r'class="pick"[^>]*aria-label="Compare ([^"]+)"', ranked)


def cells(html, css_class):
    found = re.findall(rf'<td class="num {css_class}">(.*?)</td>', html)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in found]


def yours(html):
    """The “Your ranking” cells in row order, as text."""
    return cells(html, "yours")


def totals(html):
    return cells(html, "total")


def scored(name, **values):
    """A live vendor scored ``values`` by axis slug."""
    from vendors.models import Axis

    vendor = f.make_vendor(name=name)
    for slug, value in values.items():
        f.make_score(vendor=vendor, axis=Axis.objects.get(slug=slug), value=value)
    f.publish(vendor)
    return vendor


@pytest.fixture
def axes():
    return [f.make_axis(name="Speed", slug="speed"), f.make_axis(name="Price", slug="price")]


@pytest.fixture
def two(axes):
    # Editorially Cheap (7) is ahead of Fast (6); a reader who cares about speed sees Fast first.
    return scored("Fast", speed=5, price=1), scored("Cheap", speed=2, price=5)


def test_weights_reorder_the_vendors_and_the_editorial_total_stays(client, two):
    editorial = client.get("/").content.decode()
    assert names(editorial) == ["Cheap", "Fast"]
    page = client.get("/?w-speed=3&w-price=1").content.decode()
    assert names(page) == ["Fast", "Cheap"]
    assert totals(page) == ["6", "7"]  # our totals, unchanged, beside the reader's ranking
    # (5×3 + 1×1) × 2 axes / 4 = 8.0 and (2×3 + 5×1) × 2 / 4 = 5.5, on the totals' scale of 10
    assert yours(page) == ["#1 8.0", "#2 5.5"]
    assert 'Speed <span class="weight">×3</span>' in page


def test_equal_weights_give_the_editorial_order_and_totals(client, two):
    page = client.get("/?w-speed=2&w-price=2").content.decode()
    assert names(page) == ["Cheap", "Fast"] and yours(page) == ["#1 7.0", "#2 6.0"]


def test_ties_are_broken_by_total_then_name_so_anyone_gets_the_same_order(client, visitor, axes):
    scored("Bravo", speed=4, price=1)
    scored("Zulu", speed=4, price=3)  # the highest total, last by name
    scored("Charlie", speed=4, price=1)
    url = "/?w-speed=1&w-price=0"  # all tie on speed
    assert names(client.get(url).content.decode()) == ["Zulu", "Bravo", "Charlie"]
    client.force_login(f.make_superuser())
    assert names(visitor.get(url).content.decode()) == names(client.get(url).content.decode())


def test_a_column_sort_beside_weights_is_set_aside_saying_so(client, two):
    page = client.get("/?w-speed=3&w-price=1&sort=name").content.decode()
    assert names(page) == ["Fast", "Cheap"]
    assert "the column sort in this address was set aside" in page
    assert "set aside" not in client.get("/?w-speed=3&w-price=1").content.decode()


def test_a_weighted_address_is_noindex_and_the_editorial_one_is_not(client, two):
    weighted = client.get("/?w-speed=3")
    assert weighted["X-Robots-Tag"] == "noindex"
    assert '<meta name="robots" content="noindex">' in weighted.content.decode()
    assert "application/ld+json" not in weighted.content.decode()  # the ItemList is the editorial order
    editorial = client.get("/")
    assert "X-Robots-Tag" not in editorial and "noindex" not in editorial.content.decode()


def test_the_form_is_a_plain_get_form_without_inline_script(client, two):
    page = client.get("/?w-speed=4").content.decode()
    assert f.inline_scripts(page) == []
    form = page.split('aria-label="Your weights"', 1)[1].split("</form>", 1)[0]
    assert 'name="w-speed" value="4" min="0" max="10"' in form
    assert 'name="w-price" value="1"' in form  # an axis left out counts with weight 1
    assert 'href="/">Back to the editorial ranking' in form


@pytest.mark.parametrize(
    ("raw", "used", "message"),
    [
        ("abc", "1", "Speed: “abc” is not a whole number from 0 to 10, so it counts with weight 1."),
        ("2.5", "1", "“2.5” is not a whole number"),
        ("1e9", "1", "“1e9” is not a whole number"),
        ("٣", "1", "“٣” is not a whole number"),  # a digit, but not one a form sends
        ("99", "10", "Speed: 99 is more than 10, so it counts with weight 10."),
        ("9" * 5000, "10", "is more than 10"),
        ("-3", "0", "Speed: -3 is less than 0, so it counts with weight 0."),
        ("+7", "7", None),
        (" 007 ", "7", None),
        ("", "1", None),
    ],
)
def test_a_weight_that_is_garbage_or_out_of_range_is_corrected_with_a_message(
    client, two, raw, used, message
):
    response = client.get("/", {"w-speed": raw, "w-price": "1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert f'name="w-speed" value="{used}"' in page
    if message:
        assert message in page and "Some weights were corrected" in page
    else:
        assert "Some weights were corrected" not in page


def test_all_weights_zero_counts_every_axis_equally_and_says_so(client, two):
    page = client.get("/?w-speed=0&w-price=0").content.decode()
    assert "Every weight was 0" in page
    assert names(page) == ["Cheap", "Fast"]


def test_a_weight_for_an_unknown_or_inactive_axis_is_ignored_and_said_so(client, two):
    f.make_axis(name="Old axis", slug="old", is_active=False)
    page = client.get("/?w-speed=3&w-old=10&w-nope=2").content.decode()
    assert "“w-old” is not one of the axes" in page and "“w-nope” is not one of the axes" in page
    assert names(page) == ["Fast", "Cheap"]


def test_vendors_without_scores_are_listed_apart_not_ranked(client, two):
    f.make_vendor(name="Aardvark Unscored")
    scored("Zero For You", price=1)  # scored, but only on an axis weighted 0: still ranked among the scored
    page = client.get("/?w-speed=5&w-price=0").content.decode()
    assert names(page) == ["Fast", "Cheap", "Zero For You"]
    assert len(yours(page)) == 3 and yours(page)[2] == "#3 0.0"
    section = page[page.index('<section class="not-scored"') :]
    assert "Not scored yet" in section and "Aardvark Unscored" in section
    assert "not scored" not in "".join(yours(page))


def test_pages_keep_the_weights_and_together_list_every_vendor_once(client):
    axis = f.make_axis(slug="speed", name="Speed")
    many = f.make_published_vendors(120, lanes=[f.make_lane()], axes=[axis])
    pages = [client.get(f"/?w-speed=2&page={n}").content.decode() for n in (1, 2, 3)]
    assert 'href="?w-speed=2&amp;page=3"' in pages[1]
    shown = [name for page in pages for name in names(page)]
    assert sorted(shown) == sorted(v.name for v in many) and len(shown) == 120
    assert yours(pages[2])[0].startswith("#101 ")


def test_a_weighted_ranking_is_cached_under_its_own_address_and_stays_noindex(settings, visitor, two):
    settings.PAGE_CACHE_ENABLED = True
    first = visitor.get("/?w-speed=3")
    second = visitor.get("/?w-speed=3")
    assert second["X-Page-Cache"] == "hit" and second["X-Robots-Tag"] == "noindex"
    assert "public" in second["Cache-Control"]
    assert names(second.content.decode()) == names(first.content.decode()) == ["Fast", "Cheap"]
    assert names(visitor.get("/").content.decode()) == ["Cheap", "Fast"]


def populate(count, axes):
    lane = f.make_lane()
    for n in range(count):
        vendor = f.make_vendor(lane=lane)
        for axis in axes:
            f.make_score(vendor=vendor, axis=axis, value=1 + n % 5)
        f.publish(vendor)
    for _ in range(count):  # and as many unscored: past the 50 "Not scored yet" lists at 60
        f.make_vendor(lane=lane)


@pytest.mark.parametrize(
    ("url", "counts", "queries"),
    # A weighted page reads its keys with their weighted scores, then its items by key: one more.
    [("/", (2, 60), 5), ("/?w-speed=3&w-price=0", (2, 60), 6), ("/?w-speed=3&w-price=2&page=2", (55, 60), 6)],
)
def test_query_counts_are_pinned_with_or_without_weights(
    client, axes, url, counts, queries, django_assert_num_queries
):
    for count in counts:
        populate(count, axes)
        client.get(url)  # its rows rendered once and kept (infra/rows/): the page reads them
        with django_assert_num_queries(queries):
            assert client.get(url).status_code == 200


def test_a_page_past_the_last_shows_the_last_reading_the_count_first(client, axes, django_assert_num_queries):
    """The page's keys come with the count of all; past the last page there are none (and no items
    to read by key), so the count is read alone and the last page shown: two queries more than
    a weighted page's six, at any size."""
    for count, shown in ((2, 2), (60, 12)):  # 2 scored, then 62: the last page holds 12
        populate(count, axes)
        client.get("/?w-speed=3&page=9")
        with django_assert_num_queries(8):
            page = client.get("/?w-speed=3&page=9").content.decode()
        assert len(names(page)) == shown
