"""A visitor searches from the header, without JavaScript, and lands on the fact's own row."""

import re

import pytest
from playwright.sync_api import expect

from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_header_search_finds_a_fact_and_opens_its_row_without_javascript(open_page):
    load_demo()
    page, watcher = open_page(java_script_enabled=False)

    page.goto("/lanes/")
    box = page.get_by_role("search", name="Site").get_by_role("searchbox", name="Search chipsite")
    box.fill("HBM3e")
    box.press("Enter")

    expect(page).to_have_url(re.compile(r"/search/\?q=HBM3e$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Search")
    facts = page.get_by_role("region", name="Facts")
    expect(facts.locator("mark").first).to_have_text(re.compile("HBM3e", re.I))
    hit = facts.get_by_role("link", name="AWS Trainium: Memory")
    href = hit.get_attribute("href")
    assert re.fullmatch(r"/vendors/aws-trainium/#fact-\d+", href)
    hit.click()

    expect(page).to_have_url(re.compile(r"/vendors/aws-trainium/#fact-\d+$"))
    row = page.locator(f"#{href.split('#')[1]}")
    expect(row).to_contain_text("HBM3e")
    expect(row).to_be_in_viewport()
    watcher.assert_clean(aborted_under=("/static/",))


def test_a_query_of_one_long_word_wraps_on_a_phone(open_page):
    load_demo()
    page, watcher = open_page(viewport={"width": 390, "height": 844})

    page.goto("/search/?q=" + "x" * 5000)
    expect(page.get_by_role("status").first).to_contain_text("only its first 200 characters")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, "the results page scrolls sideways on a phone"
    watcher.assert_clean()


def test_a_misspelt_search_finds_its_vendor_and_and_n_more_opens_the_rest(open_page):
    load_demo()
    page, watcher = open_page(java_script_enabled=False)

    page.goto("/search/?q=trainum")
    vendors = page.get_by_role("region", name="Vendors")
    expect(vendors.get_by_role("link").first).to_have_text("AWS Trainium")

    page.goto("/search/?q=chip")
    facts = page.get_by_role("region", name="Facts")
    expect(facts.get_by_role("listitem")).to_have_count(10)
    more = facts.get_by_role("link", name=re.compile(r"^And \d+ more facts: show all \d+$"))
    expect(more).to_be_visible()
    total = int(re.search(r"show all (\d+)", more.inner_text()).group(1))
    more.click()

    expect(page).to_have_url(re.compile(r"/search/\?q=chip&kind=fact$"))
    expect(page.get_by_role("region", name="Facts").get_by_role("listitem")).to_have_count(total)
    # An icon still on its way when the link is followed is dropped by the browser, not failed.
    watcher.assert_clean(aborted_under=("/static/",))
