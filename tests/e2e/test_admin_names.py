"""Names for everything in the admin (issue 25, part 3): the section menu says where the editor
is, what the server says after a save is announced, and a state reads as words."""

import pytest
from playwright.sync_api import expect

from editorial.selectors import State
from tests.e2e.conftest import sign_in
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_section_menu_is_a_named_nav_that_marks_the_section_in_view(open_page):
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    page, watcher = sign_in(open_page, username="menu", viewport={"width": 1280, "height": 900})
    page.goto(f"/admin/vendors/vendor/{vendor.pk}/change/")
    menu = page.get_by_role("navigation", name="Sections of this page")
    expect(menu.locator("a[aria-current]")).to_have_count(1)
    expect(menu.locator("a[aria-current=location]")).to_have_text("Publishing")

    scores = menu.get_by_role("link", name="Scores")
    scores.focus()
    page.keyboard.press("Enter")
    expect(scores).to_have_attribute("aria-current", "location")
    expect(menu.locator("a[aria-current]")).to_have_count(1)
    assert watcher.console_errors == []


def test_a_save_and_who_else_is_here_are_announced_in_a_live_region(open_page):
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    change = f"/admin/vendors/vendor/{vendor.pk}/change/"
    first, _ = sign_in(open_page, username="editor2", viewport={"width": 1280, "height": 900})
    first.goto(change)

    second, _ = sign_in(open_page, username="alice", viewport={"width": 1280, "height": 900})
    second.goto(change)
    announcer = second.locator(".admin-announcer[role=status]")
    expect(announcer).to_contain_text("Also here: editor2")

    second.locator("#id_alternative_blurb").fill("Teams already on AWS")
    second.locator("input[name=_continue]").click()
    expect(second.locator(".admin-announcer[role=status]")).to_contain_text("was changed successfully")


def test_each_items_state_in_the_lists_is_written_in_words(open_page):
    load_demo()
    page, _ = sign_in(open_page, username="lists", viewport={"width": 1280, "height": 900})
    words = {str(label) for label in State.labels}
    for path in ["/admin/vendors/vendor/", "/admin/comparisons/comparison/"]:
        page.goto(path)
        states = page.locator("#result_list td.field-state").all_inner_texts()
        assert states, path
        assert {state.split(" for ")[0] for state in states} <= words, (path, states)
