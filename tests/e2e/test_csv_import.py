"""An editor imports 20 facts from a CSV in Chromium, on a desktop and on a phone."""

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.e2e.conftest import sign_in
from vendors.models import Fact

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Company", "Current chips", "Architecture", "Memory", "Software"]


def twenty_facts_csv(source):
    rows = [f"fact,{NAMES[n % 5]},Imported value {n:02d},,no,2026-11-01,{source.url}" for n in range(20)]
    return ("kind,label,value,reason,vendor_stated,verified_on,source_urls\n" + "\n".join(rows)).encode()


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}], ids=["1280", "390"]
)
def test_an_editor_previews_and_imports_20_facts_without_scrolling_sideways(open_page, viewport):
    for position, name in enumerate(NAMES, start=1):
        f.make_attribute(name=name, position=position)
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    source = f.make_source(url="https://aws.amazon.com/ai/machine-learning/trainium/")
    page, watcher = sign_in(open_page, username="csv-editor", viewport=viewport)

    page.goto(f"/admin/vendors/vendor/{vendor.pk}/change/")
    page.get_by_role("link", name="Import facts, chips, events and scores from CSV").click()
    page.get_by_label("CSV file").set_input_files(
        {"name": "facts.csv", "mimeType": "text/csv", "buffer": twenty_facts_csv(source)}
    )
    page.get_by_role("button", name="Preview the changes").click()

    expect(page.get_by_role("heading", name="Preview of facts.csv")).to_be_visible()
    expect(page.locator(".import-counts")).to_contain_text("20 new")
    assert page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")
    assert not Fact.objects.exists()

    page.get_by_role("button", name="Import these changes").click()

    expect(page.locator(".messagelist")).to_contain_text("Imported 20 rows from facts.csv")
    assert Fact.objects.filter(vendor=vendor).count() == 20
    # The import's click leaves the preview while its icons may still be on their way: the
    # browser cancels those (ERR_ABORTED), which is no failure of the site (seen on a busy machine).
    watcher.assert_clean(aborted_under=("/static/",))
