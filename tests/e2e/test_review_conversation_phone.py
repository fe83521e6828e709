"""The review conversation, walked through on a phone (390 px) in a real Chromium: an Editor
changes a live profile and submits it; the Publisher opens the e-mail's link, reads the working
copy beside the live page, and requests changes with a comment; the Editor finds the comment in
"My work", fixes the profile and submits it again, and the Publisher is told again."""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.e2e.conftest import sign_in
from tests.e2e.shots import SCREENSHOTS
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def signed_in(open_page, *, group, username, **context):
    return sign_in(open_page, username=username, group=group, email=f"{username}@example.com", **context)


def link_in(message, text):
    """The path of the link after ``text`` in an e-mail's body."""
    found = re.search(rf"{re.escape(text)}\s*(\S+)", message.body)
    assert found, message.body
    return urlsplit(found.group(1)).path


def edit_memory(page, old, new):
    memory = page.locator("textarea[name^='facts-'][name$='-value']").filter(has_text=old)
    memory.fill(memory.input_value().replace(old, new))
    page.get_by_role("button", name="Save and continue editing").click()


def test_on_a_phone_a_change_goes_to_review_comes_back_with_a_comment_and_is_resubmitted(open_page):
    load_demo()
    editor, editor_watch = signed_in(open_page, group="Editor", username="alice", **PHONE)
    publisher, publisher_watch = signed_in(open_page, group="Publisher", username="pat", **PHONE)
    mail.outbox.clear()

    editor.goto("/admin/vendors/vendor/")
    editor.get_by_role("link", name="AWS Trainium").click()
    edit_memory(editor, "144 GB", "288 GB")
    expect(editor.locator(".messagelist").get_by_text("Visitors still see the live version")).to_be_visible()
    editor.get_by_label("Message to the publishers").fill("Memory per the re:Invent launch.")
    editor.get_by_role("button", name="Submit for review").click()
    expect(editor.get_by_role("heading", name="Publishing: Waiting for review")).to_be_visible()

    (submitted,) = [m for m in mail.outbox if m.to == ["pat@example.com"]]
    assert "AWS Trainium" in submitted.subject and "Memory per the re:Invent launch." in submitted.body
    publisher.goto(link_in(submitted, "The working copy beside the live page:"))
    live, working = publisher.locator("iframe").all()
    live_box, working_box = live.bounding_box(), working.bounding_box()
    assert live_box["x"] + live_box["width"] <= 390 and working_box["x"] + working_box["width"] <= 390
    assert live_box["y"] + live_box["height"] <= working_box["y"]  # one above the other on a phone
    expect(publisher.locator(".diff")).to_contain_text("Memory: Trainium3: 144 GB HBM3e")
    working_page = publisher.frame_locator("iframe[src$='?frame']")
    working_memory = working_page.locator("table.glance tr", has_text="Memory")
    expect(working_memory).to_contain_text("288 GB HBM3e")
    expect(working_memory.locator(".change-mark")).to_have_text("Changed")
    expect(publisher.frame_locator("iframe[src$='?live&frame']").locator("table.glance")).to_contain_text(
        "144 GB HBM3e"
    )
    publisher.screenshot(path=SCREENSHOTS / "side-by-side-phone.png", full_page=False)

    publisher.get_by_role("link", name="Back to the change page").click()
    publisher.get_by_label("What should change").fill("Cite the Trn3 spec sheet for 288 GB.")
    publisher.get_by_role("button", name="Request changes").click()
    expect(publisher.locator(".messagelist").get_by_text("Sent back with your comment")).to_be_visible()
    (returned,) = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert "Cite the Trn3 spec sheet for 288 GB." in returned.body

    editor.goto("/admin/")
    my_work = editor.locator(".my-work")
    expect(my_work).to_contain_text("Returned to me (1)")
    expect(my_work).to_contain_text("Cite the Trn3 spec sheet for 288 GB.")
    returned_row = my_work.get_by_role("row", name=re.compile("Cite the Trn3"))
    for cell in returned_row.locator("th, td").all():  # a card: every cell on screen, none squeezed
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 200
    editor.screenshot(path=SCREENSHOTS / "my-work-phone.png", full_page=False)
    returned_row.get_by_role("link", name="AWS Trainium").click()
    edit_memory(editor, "288 GB HBM3e", "288 GB HBM3e (Trn3 spec sheet)")
    editor.get_by_role("button", name="Submit for review").click()
    expect(editor.get_by_role("heading", name="Publishing: Waiting for review")).to_be_visible()

    assert len([m for m in mail.outbox if m.to == ["pat@example.com"]]) == 2  # told again
    editor_watch.assert_clean()
    publisher_watch.assert_clean()


def test_on_a_wide_screen_the_live_page_and_the_working_copy_sit_side_by_side(open_page):
    load_demo()
    wide = {"viewport": {"width": 1280, "height": 900}}
    editor, _ = signed_in(open_page, group="Editor", username="alice", **wide)
    editor.goto("/admin/vendors/vendor/")
    editor.get_by_role("link", name="AWS Trainium").click()
    edit_memory(editor, "144 GB", "288 GB")

    editor.get_by_role("link", name="Compare with the live page, side by side").click()
    live, working = editor.locator("iframe").all()
    live_box, working_box = live.bounding_box(), working.bounding_box()
    assert live_box["y"] == working_box["y"] and live_box["x"] + live_box["width"] <= working_box["x"]
    expect(editor.frame_locator("iframe[src$='?frame']").locator(".change-mark")).to_have_count(1)
    editor.screenshot(path=SCREENSHOTS / "side-by-side.png", full_page=False)
