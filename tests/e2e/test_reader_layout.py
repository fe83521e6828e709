"""The reader's page read with element boxes in Chromium at 390 and 1280 px: the menu and the
verified date at the top of a profile, and wide tables that say when they scroll, so that no
column is ever out of sight without a word (issue 23)."""

import pytest
from playwright.sync_api import expect

from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Each scroll area: whether its table is wider than its frame, and whether its hint shows.
AREAS = """() => [...document.querySelectorAll(".table-scroll")].map((area) => {
  const hint = document.getElementById(area.getAttribute("aria-describedby") || "");
  return {
    label: area.getAttribute("aria-label"),
    overflows: area.scrollWidth > area.clientWidth + 1,
    hinted: !!hint && hint.offsetParent !== null,
  };
})"""


def box(locator):
    found = locator.bounding_box()
    assert found is not None, locator
    return found


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_verified_date_and_suggest_a_correction_sit_under_the_title(open_page, viewport):
    load_demo()
    page, watcher = open_page(viewport=viewport)
    page.goto("/vendors/aws-trainium/")
    title = box(page.locator("h1"))
    meta = page.locator(".page-meta")
    expect(meta).to_have_text("Facts verified 31 Oct 2026 · Suggest a correction")
    assert 0 <= box(meta)["y"] - (title["y"] + title["height"]) < 40  # right under the title
    assert box(meta)["y"] < viewport["height"]  # on the first screen, not after 34 sources
    expect(meta.get_by_role("link", name="Suggest a correction")).to_have_attribute(
        "href", "/vendors/aws-trainium/correction/"
    )
    watcher.assert_clean()


def test_on_a_phone_on_this_page_is_a_menu_at_the_top_that_opens_without_javascript(open_page):
    load_demo()
    page, watcher = open_page(viewport=PHONE, java_script_enabled=False)
    page.goto("/vendors/aws-trainium/")
    menu = page.locator("details.toc-menu")
    expect(menu).to_be_visible()
    expect(page.locator("nav.toc")).to_be_hidden()  # the wide screen's column
    glance = box(page.locator("#glance"))
    assert box(menu)["y"] < glance["y"] and box(menu)["y"] < PHONE["height"]
    link = menu.get_by_role("link", name="Sources")
    expect(link).to_be_hidden()
    menu.locator("summary").click()
    expect(link).to_be_visible()
    assert box(link)["height"] >= 24  # a target a thumb can hit
    link.click()
    assert page.url.endswith("#sources")


def test_on_a_wide_screen_the_sections_are_a_column_beside_the_text_and_no_menu(open_page):
    load_demo()
    page, _ = open_page(viewport=DESKTOP)
    page.goto("/vendors/aws-trainium/")
    expect(page.locator("details.toc-menu")).to_be_hidden()
    column = page.locator("nav.toc")
    expect(column).to_be_visible()
    assert box(column)["x"] > box(page.locator("article.profile"))["x"] + 500


@pytest.mark.parametrize(
    ("path", "viewport"),
    [("/?w-performance=3&w-access=0", DESKTOP), ("/data/", PHONE), ("/", PHONE), ("/data/", DESKTOP)],
    ids=["weighted-1280", "data-390", "rankings-390", "data-1280"],
)
def test_a_wide_table_fits_or_says_that_it_scrolls(open_page, path, viewport):
    load_demo()
    page, watcher = open_page(viewport=viewport)
    page.goto(path)
    page.wait_for_load_state("load")
    areas = page.evaluate(AREAS)
    assert areas and all(area["hinted"] for area in areas if area["overflows"]), areas
    assert not any(area["hinted"] for area in areas if not area["overflows"]), areas
    watcher.assert_clean()


def test_the_reader_weighted_table_shows_every_column_at_1280(open_page):
    load_demo()
    page, _ = open_page(viewport=DESKTOP)
    page.goto("/?w-performance=3&w-access=0")
    area = box(page.get_by_role("region", name="Rankings table"))
    verified = box(page.locator("table.rankings thead th", has_text="Verified"))
    assert verified["x"] + verified["width"] <= area["x"] + area["width"] + 1


def test_the_downloads_keep_each_year_in_view_at_390(open_page):
    load_demo()
    page, _ = open_page(viewport=PHONE)
    page.goto("/data/")
    for area in page.locator(".table-scroll").all():
        frame = box(area)
        for cell in area.locator("tbody td:last-child").all():
            assert cell.inner_text().strip()[-4:].isdigit()  # "30 Nov 2026": the year is there
            edge = box(cell)
            assert edge["x"] + edge["width"] <= frame["x"] + frame["width"] + 1, cell.inner_text()
