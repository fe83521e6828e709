"""Review before live, in a real Chromium: an Editor edits a live profile, a Publisher publishes it."""

import pytest
from playwright.sync_api import expect

from tests import factories as f
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw"


def log_in(open_page, group, name):
    user = f.make_staff_user(group=group, username=name)
    user.set_password(PASSWORD)
    user.save()
    page, watcher = open_page(viewport={"width": 1280, "height": 900})
    page.goto("/admin/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.get_by_role("heading", name="Profiles, scores and sources")).to_be_visible()
    return page, watcher


def memory_row(page):
    return page.locator("table.glance tr", has=page.get_by_role("rowheader", name="Memory"))


def test_an_editors_change_waits_for_the_publisher_then_goes_live(open_page):
    load_demo()
    visitor, visitor_watch = open_page()
    visitor.goto("/vendors/aws-trainium/")
    expect(memory_row(visitor)).to_contain_text("144 GB HBM3e")

    editor, editor_watch = log_in(open_page, "Editor", "alice")
    editor.goto("/admin/vendors/vendor/")
    editor.get_by_role("link", name="AWS Trainium").click()
    memory = editor.locator("textarea[name^='facts-'][name$='-value']").filter(has_text="144 GB HBM3e")
    memory.fill(memory.input_value().replace("144 GB", "288 GB"))
    editor.click("input[name=_continue]")
    expect(editor.locator(".messagelist").get_by_text("Visitors still see the live version")).to_be_visible()
    expect(editor.get_by_role("heading", name="Publishing: Live + unpublished changes")).to_be_visible()
    expect(editor.locator(".workflow .diff")).to_contain_text(
        "144 GB HBM3e at 4.9 TB/s per chip -> Trainium3: 288 GB"
    )
    editor.get_by_role("button", name="Submit for review").click()
    expect(editor.get_by_role("heading", name="Publishing: Waiting for review")).to_be_visible()

    visitor.reload()
    expect(memory_row(visitor)).to_contain_text("144 GB HBM3e")
    expect(memory_row(visitor)).not_to_contain_text("288 GB")

    publisher, publisher_watch = log_in(open_page, "Publisher", "pat")
    queue = publisher.locator(".review-queue")
    expect(queue).to_contain_text("AWS Trainium")
    expect(queue).to_contain_text("alice")
    queue.get_by_role("link", name="AWS Trainium").click()
    publisher.get_by_label("Public note", exact=True).fill("Trainium3 memory per AWS")
    publisher.get_by_role("button", name="Publish changes").click()
    expect(publisher.locator(".messagelist").get_by_text("Published: visitors see it now.")).to_be_visible()
    expect(publisher.get_by_role("heading", name="Publishing: Live", exact=True)).to_be_visible()

    visitor.reload()
    expect(memory_row(visitor)).to_contain_text("288 GB HBM3e")
    change_log = visitor.locator("section.change-log")
    expect(change_log).to_contain_text("Trainium3 memory per AWS")
    expect(change_log).to_contain_text("Memory: Trainium3: 144 GB HBM3e")
    visitor_watch.assert_clean()
    for watcher in (editor_watch, publisher_watch):  # the admin asks for /favicon.ico, which we do not serve
        assert watcher.foreign_requests == [] and watcher.failed_requests == []
