"""An editor adds a chip's number on a vendor's page in Chromium, with a new source from the dialog."""

import pytest
from playwright.sync_api import expect

from claims.models import Source
from tests import factories as f
from tests.e2e.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATASHEET = "https://aws.amazon.com/ai/machine-learning/trainium/"


def test_an_editor_adds_a_spec_row_citing_a_source_added_in_the_dialog(open_page):
    vendor = f.make_vendor(name="AWS Trainium")
    page, watcher = sign_in(open_page, username="chip-editor", viewport={"width": 1280, "height": 900})
    page.goto(f.admin_change_url(vendor))

    page.locator("#section-menu").get_by_role("link", name="Chips").click()
    page.locator("#specs-group .add-row a").click()
    page.locator("#id_specs-0-chip").fill("Trainium3")
    page.locator("#id_specs-0-kind").select_option("memory")
    page.locator("#id_specs-0-quantity").fill("144")
    page.locator("#id_specs-0-unit").select_option("GB")
    page.locator("#id_specs-0-sources ~ .add-source-button").click()
    dialog = page.locator("#source-dialog")
    dialog.get_by_label("URL").fill(DATASHEET)
    dialog.get_by_label("Title").fill("AWS Trainium")
    dialog.get_by_label("Publisher").fill("AWS")
    dialog.get_by_role("button", name="Add source").click()
    expect(dialog).not_to_be_visible()
    expect(page.locator("#id_specs-0-sources + .select2-container .select2-selection__choice")).to_have_count(
        1
    )

    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist").get_by_text("was changed successfully")).to_be_visible()
    page.wait_for_load_state("load")

    (spec,) = vendor.specs.all()
    assert (spec.chip, spec.kind, spec.unit) == ("Trainium3", "memory", "GB")
    assert [source.url for source in spec.sources.all()] == [DATASHEET]
    assert Source.objects.count() == 1
    assert watcher.console_errors == []
