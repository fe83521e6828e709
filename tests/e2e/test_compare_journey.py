"""Comparing vendors in a real Chromium: tick three on the rankings, compare, follow a footnote."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.shots import SCREENSHOTS, STYLESHEET, png_size
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tick(page, name):
    page.get_by_role("checkbox", name=f"Compare {name}", exact=True).check()


def test_visitor_ticks_three_vendors_compares_and_follows_a_footnote(open_page):
    load_demo()
    page, watcher = open_page()
    page.goto("/")
    for name in ("Nvidia (data-center GPUs)", "Google TPU", "AWS Trainium"):
        tick(page, name)
    page.get_by_role("button", name="Compare selected").click()

    # One canonical address, whatever order the boxes were ticked in.
    expect(page).to_have_url(re.compile(r"/compare/vendors/aws-trainium/google-tpu/nvidia/$"))
    headers = page.locator("table.compare thead th")
    expect(headers).to_have_text(["AWS Trainium", "Google TPU", "Nvidia (data-center GPUs)"])
    memory = page.locator("table.compare tr", has=page.get_by_role("rowheader", name="Memory", exact=True))
    expect(memory.locator("td").nth(0)).to_contain_text("144 GB HBM3e")
    compute = page.locator("table.compare tr", has=page.get_by_role("rowheader", name="Compute", exact=True))
    expect(compute.locator("td").nth(0)).to_have_text("not stated")

    # The first cited cell: the first column's (AWS Trainium's) first fact.
    trainium = Vendor.objects.get(slug="aws-trainium")
    first_source = min(
        trainium.facts.order_by("attribute__position", "position").first().sources.all(), key=lambda s: s.pk
    )
    marker = page.locator("table.compare sup.fn a").first
    expect(marker).to_have_text("[1]")
    marker.click()
    expect(page).to_have_url(re.compile(r"#source-1$"))
    expect(page.locator("li#source-1")).to_be_in_viewport()
    expect(page.locator("li#source-1")).to_contain_text(first_source.title)

    assert watcher.responses.get(STYLESHEET) in (200, 304)  # 304: cached from the first page
    watcher.assert_clean()


def test_compare_works_without_javascript_and_screenshots(open_page):
    load_demo()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page, watcher = open_page(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page.goto("/vendors/")
    for name in ("Cerebras", "Groq", "SambaNova", "Tenstorrent"):
        tick(page, name)
    page.get_by_role("button", name="Compare selected").click()
    expect(page).to_have_url(re.compile(r"/compare/vendors/cerebras/groq/sambanova/tenstorrent/$"))
    expect(page.locator("table.compare thead th")).to_have_count(4)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 390, f"the comparison overflows sideways at 390 px ({scroll_width} px)"
    path = SCREENSHOTS / "compare-390.png"
    page.screenshot(path=str(path), full_page=True)
    assert png_size(path)[0] == 390
    watcher.assert_clean()

    page, watcher = open_page(viewport={"width": 1280, "height": 800})
    page.goto("/compare/google-tpu-vs-aws-trainium-vs-nvidia-gpu/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Google TPU vs AWS Trainium vs Nvidia GPU")
    path = SCREENSHOTS / "compare-1280.png"
    page.screenshot(path=str(path), full_page=True)
    assert png_size(path)[0] == 1280
    watcher.assert_clean()
