"""Layouts read with element boxes in Chromium: nothing scrolls sideways on a phone but the
declared scroll areas, which a keyboard can reach and a screen reader can name; nothing paints
over what a reader needs (the Compare bar, a score chart's bars); the total and the vendor
names stay in view."""

import pytest
from playwright.sync_api import expect

from tests.e2e.shots import FIVE_VENDORS, PAGE_TYPES
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 320, "height": 700}  # WCAG 2.2's reflow width (SC 1.4.10)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Every element that scrolls sideways, and what a keyboard and a screen reader get from it.
SCROLL_AREAS = """() => [...document.querySelectorAll("body *")].filter((element) => {
  const overflow = getComputedStyle(element).overflowX;
  return (overflow === "auto" || overflow === "scroll") && element.scrollWidth > element.clientWidth;
}).map((element) => ({
  html: element.outerHTML.slice(0, 120),
  tabindex: element.getAttribute("tabindex"),
  role: element.getAttribute("role"),
  label: element.getAttribute("aria-label") || "",
}))"""


def overlap(a, b):
    """The area two boxes share (0 when they do not meet)."""
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(width, 0) * max(height, 0)


@pytest.mark.parametrize("viewport", [NARROW, PHONE, DESKTOP], ids=["320", "390", "1280"])
def test_only_named_focusable_scroll_areas_scroll_sideways(open_page, viewport):
    load_demo()
    page, _ = open_page(viewport=viewport)
    page.set_default_timeout(10_000)
    problems = []
    for path, (status, ready) in PAGE_TYPES.items():
        assert page.goto(path).status == status, path
        page.wait_for_selector(ready)
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > viewport["width"]:
            problems.append(f"{path}: the page is {width} px wide")
        for area in page.evaluate(SCROLL_AREAS):
            if area["tabindex"] != "0" or area["role"] != "region" or not area["label"]:
                problems.append(
                    f"{path}: a scroll area without tabindex=0, role=region and a label: {area['html']}"
                )
    assert problems == []


def test_rankings_on_a_phone_scroll_under_the_compare_bar_and_say_they_scroll(open_page):
    load_demo()
    page, watcher = open_page(viewport=PHONE)
    page.goto("/")
    scroller = page.get_by_role("region", name="Rankings table")
    assert scroller.evaluate("e => e.scrollWidth > e.clientWidth"), (
        "the table fits: the test would prove nothing"
    )
    expect(page.get_by_text("Scroll the table sideways for every column.")).to_be_visible()
    expect(scroller).to_have_attribute("aria-describedby", "rankings-scroll-hint")

    # A ranked name beside its tick box: two lines at most (a long one took four).
    ranked = page.locator("table.rankings tbody th[scope=row] a").first
    assert ranked.evaluate("a => a.getClientRects().length") <= 2
    # The vendors not scored yet, with their tick boxes, fit the screen: nothing scrolls sideways.
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")

    # Scroll until vendor names pass behind the sticky bar: the bar, not the names, is on top.
    bar = page.locator(".compare-bar")
    names = page.locator("table.rankings tbody th[scope=row], table.not-scored-list tbody th[scope=row]")
    under = []
    for _ in range(20):
        box = bar.bounding_box()
        under = [n.bounding_box() for n in names.all() if overlap(n.bounding_box(), box) > 0]
        if under:
            break
        page.evaluate("window.scrollBy({top: 120, behavior: 'instant'})")  # done when it returns
    assert under, "no vendor name ever passed behind the Compare bar"
    box = bar.bounding_box()
    name = under[0]
    x = max(name["x"], box["x"]) + 5
    y = (
        max(name["y"], box["y"])
        + (min(name["y"] + name["height"], box["y"] + box["height"]) - max(name["y"], box["y"])) / 2
    )
    assert page.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('.compare-bar')", [x, y])
    button = page.get_by_role("button", name="Compare selected").bounding_box()
    assert (
        page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('button')?.textContent",
            [button["x"] + 4, button["y"] + button["height"] / 2],
        )
        == "Compare selected"
    )
    watcher.assert_clean()


def test_rankings_on_a_desktop_fit_without_the_scroll_line(open_page):
    load_demo()
    page, _ = open_page(viewport=DESKTOP)
    page.goto("/")
    expect(page.get_by_text("Scroll the table sideways for every column.")).to_be_hidden()
    assert page.get_by_role("region", name="Rankings table").evaluate("e => e.scrollWidth <= e.clientWidth")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_profile_shows_the_total_on_screen_and_chart_names_clear_of_their_bars(open_page, viewport):
    load_demo()
    page, watcher = open_page(viewport=viewport)
    page.goto("/vendors/aws-trainium/")
    total = page.get_by_role("row", name="Total / 25 18")
    expect(total).to_be_visible()
    box = total.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], "the total is off screen"

    rows = page.locator(".score-chart g")
    expect(rows).to_have_count(5)
    for row in rows.all():
        label = row.locator(".chart-label").bounding_box()
        for bar in row.locator("rect").all():
            assert overlap(label, bar.bounding_box()) == 0, row.locator(".chart-label").text_content()
    assert [t.strip() for t in rows.locator(".chart-label").all_text_contents()][-1] == "2026 momentum"
    watcher.assert_clean()


def test_five_vendor_comparison_keeps_the_vendor_names_in_view_while_reading_its_rows(open_page):
    load_demo()
    names = ["AMD Instinct", "AWS Trainium", "Cerebras", "Google TPU", "Nvidia (data-center GPUs)"]

    # Wide: the row of names stays at the top of the window, above the row being read.
    page, watcher = open_page(viewport=DESKTOP)
    page.goto(FIVE_VENDORS)
    # "Software" names a fact row and, lower, a score row: read the score's.
    row = page.get_by_role("rowheader", name="Software", exact=True).last
    row.evaluate("e => e.scrollIntoView({block: 'center'})")
    header = page.locator("table.compare thead th")
    expect(header).to_have_text(names)
    read = row.bounding_box()
    assert page.evaluate("window.scrollY") > 1000, "the row is near the top: the test would prove nothing"
    for th in header.all():
        box = th.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= read["y"], th.text_content()
    watcher.assert_clean()

    # A phone, and a tablet too narrow for five columns: every cell of a row is a card line
    # that names its vendor.
    for viewport in (PHONE, {"width": 800, "height": 1000}):
        page, watcher = open_page(viewport=viewport)
        page.goto(FIVE_VENDORS)
        row = page.locator(
            "table.compare tr", has=page.get_by_role("rowheader", name="Software", exact=True)
        ).last
        cells = row.locator("td")
        labels = [c.evaluate("td => getComputedStyle(td, '::before').content") for c in cells.all()]
        assert labels == [f'"{name}"' for name in names]
        for cell in cells.all():
            box = cell.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
        watcher.assert_clean()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_vendor_list_lane_boxes_are_thumb_sized_and_wrapped_names_stay_beside_them(open_page, viewport):
    load_demo()
    page, _ = open_page(viewport=viewport)
    page.goto("/vendors/")
    lanes = page.get_by_role("group", name="Lane").get_by_role("checkbox")
    expect(lanes).to_have_count(4)
    for box in lanes.all():
        size = box.bounding_box()
        assert size["width"] >= 20 and size["height"] >= 20
        # Every line of the lane's name starts right of its box (a wrapped line used to drop under it).
        lines = box.evaluate(
            """input => { const range = document.createRange(); range.selectNodeContents(input.parentElement);
            range.setStartAfter(input); return [...range.getClientRects()].map(r => r.left); }"""
        )
        assert lines and min(lines) >= size["x"] + size["width"], box.get_attribute("value")
    text_start = (
        "e => { const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects()[0].x; }"
    )
    legend = page.locator(".filters legend").first.evaluate(text_start)
    label = page.get_by_text("Name or company", exact=True).evaluate(text_start)
    assert legend == label, "the filter headings sit off the other labels"


def test_profile_lists_its_sections_beside_the_text_on_a_desktop_only(open_page):
    load_demo()
    page, watcher = open_page(viewport=DESKTOP)
    page.goto("/vendors/aws-trainium/")
    toc = page.get_by_role("navigation", name="On this page")
    expect(toc).to_be_visible()
    assert toc.bounding_box()["x"] >= page.locator("article.profile").bounding_box()["x"] + 800
    toc.get_by_role("link", name="Sources").click()
    expect(page.get_by_role("heading", name="Sources", level=2)).to_be_in_viewport()
    expect(toc).to_be_in_viewport()  # it stays beside the text while the page scrolls
    watcher.assert_clean()

    page, _ = open_page(viewport=PHONE)
    page.goto("/vendors/aws-trainium/")
    expect(page.get_by_role("navigation", name="On this page")).to_be_hidden()
