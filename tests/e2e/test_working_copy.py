"""A change page in a real Chromium keeps what was typed across a reload (localStorage), and
says when it closes, so that “Also here: …” names only who has the page open now."""

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests import factories as f
from tests.e2e.conftest import sign_in, wait_until
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What was typed, kept in the browser for this page (static/js/working-copy.js).
UNSAVED_KEPT = "() => Object.keys(localStorage).some((key) => key.startsWith('chipsite:unsaved:'))"


def test_what_was_typed_and_not_saved_is_offered_back_after_a_reload_then_saved(open_page):
    vendor = f.make_vendor(name="AWS Trainium", summary="The summary as saved.")
    page, watcher = sign_in(open_page, username="autosaver", viewport={"width": 1280, "height": 900})
    page.goto(f.admin_change_url(vendor))
    page.fill("#id_summary", "Typed, never saved: the browser crashed.")
    page.wait_for_function(UNSAVED_KEPT)  # the page keeps it a moment after the last key

    page.reload()

    expect(page.get_by_text("Restore unsaved changes?")).to_be_visible()
    summary = page.locator("#id_summary")
    expect(summary).to_have_value("The summary as saved.")  # nothing restored unasked
    page.get_by_role("button", name="Restore unsaved changes").click()
    expect(summary).to_have_value("Typed, never saved: the browser crashed.")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist").get_by_text("was changed successfully")).to_be_visible()
    vendor.refresh_from_db()
    assert vendor.summary == "Typed, never saved: the browser crashed."
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('chipsite:unsaved:'))") == []
    expect(page.get_by_text("Restore unsaved changes?")).to_have_count(0)
    # The reload cancels an admin icon still loading on a busy machine (ERR_ABORTED): the browser's
    # doing; a static file the site lacks is a bad response, still caught.
    assert watcher.failed_except_aborted("/static/") == []
    assert watcher.bad_responses == []


def test_discarding_the_offer_forgets_what_was_typed(open_page):
    vendor = f.make_vendor(name="Groq", summary="As saved.")
    page, _ = sign_in(open_page, username="discarder", viewport={"width": 1280, "height": 900})
    page.goto(f.admin_change_url(vendor))
    page.fill("#id_summary", "A thought not worth keeping.")
    page.wait_for_function(UNSAVED_KEPT)
    page.reload()

    page.get_by_role("button", name="Discard them").click()
    page.reload()

    expect(page.get_by_text("Restore unsaved changes?")).to_have_count(0)
    expect(page.locator("#id_summary")).to_have_value("As saved.")


def test_leaving_the_page_clears_the_editors_presence(open_page):
    vendor = f.make_vendor(name="Cerebras")
    page, _ = sign_in(open_page, username="leaver", viewport={"width": 1280, "height": 900})
    page.goto(f.admin_change_url(vendor))
    key = f"editorial:open:vendors.vendor:{vendor.pk}"
    assert [seen["name"] for seen in (cache.get(key) or {}).values()] == ["leaver"]

    page.goto("/admin/")  # the page goes: its script says so as it does

    wait_until(lambda: not (cache.get(key) or {}))  # the beacon, answered by the live server
    assert (cache.get(key) or {}) == {}
    assert Vendor.objects.filter(pk=vendor.pk).exists()


# The field of a fact's value whose row's attribute is ``Pricing``: (its name, its value now).
PRICING = """() => {
  const select = [...document.querySelectorAll("select[name^='facts-'][name$='-attribute']")]
    .find((el) => el.selectedOptions.length && el.selectedOptions[0].textContent.trim() === "Pricing");
  const field = document.querySelector(`[name='${select.name.replace(/-attribute$/, "-value")}']`);
  return [field.name, field.value];
}"""


@pytest.mark.parametrize("slug", ["aws-trainium", "google-tpu", "amd-instinct"])
def test_typing_into_a_demo_profiles_pricing_is_restored_after_a_reload(open_page, slug):
    """Their rows cite several sources each, so many fields share a name (issue 46: the restore
    failed on them, and the draft was lost)."""
    from vendors.demo import load_demo

    load_demo()
    vendor = Vendor.objects.get(slug=slug)
    page, watcher = sign_in(open_page, username=f"restorer-{slug}", viewport={"width": 1280, "height": 900})
    page.goto(f.admin_change_url(vendor))
    name, saved = page.evaluate(PRICING)
    typed = saved + " Typed and not saved."
    page.fill(f"[name='{name}']", typed)
    page.wait_for_function(UNSAVED_KEPT)
    other_fields = page.evaluate(
        "() => [...new FormData(document.querySelector('.sectioned-form form'))].length"
    )

    page.reload()
    assert page.evaluate(PRICING) == [name, saved]  # nothing restored unasked
    offer = page.get_by_text("Restore unsaved changes?")
    expect(offer).to_contain_text(":")  # a 24-hour time: no AM or PM
    assert not any(word in offer.inner_text() for word in (" AM ", " PM "))
    page.get_by_role("button", name="Restore unsaved changes").click()
    expect(page.locator(f"[name='{name}']")).to_have_value(typed)
    expect(offer).to_have_count(0)
    assert page.evaluate(
        "() => [...new FormData(document.querySelector('.sectioned-form form'))].length"
    ) == (other_fields)
    # the draft now holds what was restored, until the page is saved
    page.wait_for_function(UNSAVED_KEPT)
    assert [error for error in watcher.console_errors if "uncaught" in error] == []
