"""A visitor's journey through the public pages, in a real Chromium against the live server."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.shots import SCREENSHOTS, STYLESHEET, png_size, whole_page_screenshot
from vendors import selectors
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def first_cited_source_title(slug):
    """The title of the source behind the profile's first footnote, as the live version has it."""
    document = selectors.live_version(slug=slug).document
    fact = next(fact for fact in document["facts"] if fact["sources"])
    return document["sources"][str(min(fact["sources"]))]["title"]


def rows(page):
    return page.locator("table.rankings tbody tr")


def test_visitor_sorts_filters_and_follows_a_footnote(open_page):
    load_demo()
    expected_title = first_cited_source_title("google-tpu")
    page, watcher = open_page()

    # The rankings.
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("AI chip companies: the rankings")
    expect(page.locator("table.rankings")).to_be_visible()
    expect(rows(page)).to_have_count(1)  # the demo scores AWS Trainium only
    expect(page.locator(".not-scored-list tbody tr")).to_have_count(8)  # the others, listed apart
    assert watcher.responses.get(STYLESHEET) == 200, "the stylesheet did not load"

    page.get_by_role("columnheader", name="Software").get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"[?&]sort=-axis-software(&|$)"))
    expect(page.get_by_role("columnheader", name="Software")).to_have_attribute("aria-sort", "descending")
    expect(rows(page).first.locator("th")).to_have_text("AWS Trainium")

    # The vendor list, filtered by lane.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Vendors").click()
    expect(page).to_have_url(re.compile(r"/vendors/$"))
    page.get_by_role("checkbox", name=re.compile(r"^inference specialist\b")).check()
    page.get_by_role("button", name="Apply filters").click()
    expect(page).to_have_url(re.compile(r"[?&]lane=inference-specialist(&|$)"))
    cards = page.locator("ul.cards > li h2")
    expect(cards).to_have_count(3)
    assert sorted(cards.all_inner_texts()) == ["Cerebras", "Groq", "SambaNova"]
    expect(page.locator("p.count")).to_have_text("3 vendors")

    # Clear the filters and open Google TPU's profile from the list.
    page.get_by_role("form", name="Filter vendors").get_by_role("link", name="Clear").click()
    expect(page).to_have_url(re.compile(r"/vendors/$"))
    expect(cards).to_have_count(9)
    page.locator("ul.cards").get_by_role("link", name="Google TPU", exact=True).click()
    expect(page).to_have_url(re.compile(r"/vendors/google-tpu/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Google TPU")

    # The first footnote in At a glance jumps to its source.
    marker = page.locator("table.glance sup.fn a").first
    expect(marker).to_have_text("[1]")
    marker.click()
    expect(page).to_have_url(re.compile(r"/vendors/google-tpu/#source-1$"))
    assert page.evaluate("location.hash") == "#source-1"
    source = page.locator("li#source-1")
    expect(source).to_be_in_viewport()
    expect(source).to_contain_text(expected_title)

    assert watcher.responses.get(STYLESHEET) == 200
    watcher.assert_clean()


def test_sort_and_filter_work_without_javascript(open_page):
    load_demo()
    page, watcher = open_page(java_script_enabled=False)

    page.goto("/")
    page.get_by_role("columnheader", name="Software").get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"[?&]sort=-axis-software(&|$)"))
    expect(rows(page).first.locator("th")).to_have_text("AWS Trainium")

    page.goto("/vendors/")
    page.get_by_role("checkbox", name=re.compile(r"^inference specialist\b")).check()
    page.get_by_role("button", name="Apply filters").click()
    expect(page).to_have_url(re.compile(r"[?&]lane=inference-specialist(&|$)"))
    cards = page.locator("ul.cards > li h2")
    expect(cards).to_have_count(3)
    assert sorted(cards.all_inner_texts()) == ["Cerebras", "Groq", "SambaNova"]

    watcher.assert_clean()


def test_screenshots_of_profile_and_rankings(open_page):
    load_demo()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    for width, height in [(1280, 800), (390, 844)]:
        page, watcher = open_page(viewport={"width": width, "height": height})
        page.goto("/vendors/aws-trainium/")
        expect(page.get_by_role("heading", level=1)).to_have_text("AWS Trainium")
        assert watcher.responses.get(STYLESHEET) == 200, "the stylesheet did not load"
        if width == 390:
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            assert scroll_width <= 390, f"the profile overflows sideways at 390 px ({scroll_width} px wide)"
        path = SCREENSHOTS / f"profile-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.exists()
        assert png_size(path)[0] == width
        watcher.assert_clean()

    page, watcher = open_page(viewport={"width": 390, "height": 844})
    page.goto("/")
    expect(page.locator("table.rankings")).to_be_visible()
    path = SCREENSHOTS / "rankings-390.png"
    whole_page_screenshot(page, path)
    assert png_size(path)[0] == 390
    watcher.assert_clean()
