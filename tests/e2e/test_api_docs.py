"""The read API's page as an analyst uses it, in a real Chromium: the operations described by
the OpenAPI document, one tried from the page, under the strict CSP and with nothing from a CDN."""

import pytest
from playwright.sync_api import expect

from tests.e2e.shots import SCREENSHOTS
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_analyst_reads_the_api_page_and_tries_a_profile(open_page):
    load_demo()
    page, watcher = open_page(viewport={"width": 1280, "height": 900})
    page.goto("/vendors/")
    page.get_by_role("link", name="Read API").click()
    expect(page.get_by_role("heading", name="chipsite read API").first).to_be_visible()
    expect(page.get_by_text("/api/v1/comparisons/{slug}/", exact=True)).to_be_visible()

    page.get_by_text("/api/v1/vendors/{slug}/", exact=True).first.click()
    page.locator("input[placeholder='slug']").fill("aws-trainium")
    page.get_by_role("button", name="Execute").click()
    response = page.locator(".live-responses-table .response").first
    expect(response.locator(".response-col_status")).to_have_text("200")
    expect(response.locator(".response-col_description")).to_contain_text('"verified_on": "2026-10-31"')

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "api-docs-1280.png")
    watcher.assert_clean()  # no CSP refusal, no failed request, nothing from another host
