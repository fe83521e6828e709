"""A reader weighs the axes and shares the address; downloads a profile's data as a spreadsheet."""

import csv
import re

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.e2e.shots import SCREENSHOTS, png_size
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


RANKED = "table.rankings tbody th[scope=row] a"


def ranked_names(page):
    return page.locator(RANKED).all_inner_texts()


@pytest.fixture
def scored_vendors():
    speed, price = f.make_axis(name="Speed", slug="speed"), f.make_axis(name="Price", slug="price")
    for name, values in {"Fast": (5, 1), "Cheap": (2, 5), "Middling": (3, 3)}.items():
        vendor = f.make_vendor(name=name)
        f.make_score(vendor=vendor, axis=speed, value=values[0])
        f.make_score(vendor=vendor, axis=price, value=values[1])
        f.publish(vendor)
    f.make_vendor(name="Aardvark")  # not scored


@pytest.mark.parametrize("width", [1280, 390])
def test_a_reader_weighs_the_axes_without_javascript_and_a_private_window_sees_the_same(
    open_page, scored_vendors, width
):
    page, watcher = open_page(java_script_enabled=False, viewport={"width": width, "height": 1000})
    page.goto("/")
    assert ranked_names(page) == ["Cheap", "Fast", "Middling"]  # by total, then name
    expect(page.locator(".not-scored")).to_contain_text("Aardvark")  # listed apart, not ranked
    page.get_by_text("Rank by your own weights").click()
    page.get_by_label("Speed").fill("4")
    page.get_by_label("Price").fill("1")
    page.get_by_role("button", name="Rank with my weights").click()
    expect(page).to_have_url(re.compile(r"/\?w-speed=4&w-price=1$"))
    expect(page.locator(RANKED)).to_have_text(["Fast", "Middling", "Cheap"])  # the new page, whole
    expect(page.locator("td.total")).to_have_text(["6", "6", "7"])  # our totals, as they were
    expect(page.locator(".not-scored")).to_contain_text("Aardvark")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"weighted-rankings-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert png_size(shot)[0] == width

    private, private_watcher = open_page()  # a new context: no cookies, no history
    private.goto(page.url)
    assert ranked_names(private) == ranked_names(page)
    watcher.assert_clean()
    private_watcher.assert_clean()


def test_with_javascript_the_order_follows_the_weights_as_they_are_typed(open_page, scored_vendors):
    page, watcher = open_page()
    page.goto("/")
    page.get_by_text("Rank by your own weights").click()
    page.get_by_label("Price").fill("0")  # no button pressed
    expect(page.locator("table.rankings tbody th[scope=row] a")).to_have_text(["Fast", "Middling", "Cheap"])
    expect(page).to_have_url(re.compile(r"/\?w-speed=1&w-price=0$"))  # the address to share
    expect(page.locator("h1")).to_have_text("AI chip companies: your ranking")
    expect(page.get_by_label("Price")).to_be_focused()
    page.get_by_label("Speed").fill("0")
    page.get_by_label("Price").fill("3")
    expect(page.locator("table.rankings tbody th[scope=row] a")).to_have_text(["Cheap", "Middling", "Fast"])
    watcher.assert_clean()  # the script is a file the strict CSP allows


def test_a_reader_downloads_a_profiles_data_and_opens_it_as_a_table(open_page, tmp_path):
    load_demo()
    page, watcher = open_page(accept_downloads=True)
    page.goto("/vendors/cerebras/")
    link = page.locator("p.download").get_by_role("link", name="CSV")
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == "chipsite-vendor-cerebras.csv"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    with path.open(newline="", encoding="utf-8-sig") as file:
        rows = list(csv.DictReader(file))
    assert rows and list(rows[0])[:3] == ["vendor", "kind", "label"]
    facts = [row for row in rows if row["kind"] == "fact"]
    assert facts and all(row["source_1_url"].startswith("https://") and row["verified_on"] for row in facts)
    watcher.assert_clean()
