"""An editor on a phone (390 px wide) adds a profile: every field is reached without scrolling sideways."""

import pytest
from playwright.sync_api import expect

from tests import factories as f
from tests.e2e.conftest import sign_in
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def sign_in_on_a_phone(open_page):
    return sign_in(open_page, username="phone-editor", viewport=PHONE, is_mobile=True, has_touch=True)


def scrolls_sideways(page):
    """The page, or a table's scrolling box inside it (the admin wraps each inline table in
    one), is wider than the screen: some field is reached only by scrolling sideways."""
    return page.evaluate(
        "[document.scrollingElement, ...document.querySelectorAll('.inline-group .wrapper')]"
        ".some((el) => el.scrollWidth > el.clientWidth)"
    )


def shown_on_screen(page, locator):
    """The element lies inside the viewport and nothing (the Save bar, the menu) covers its middle."""
    box = locator.bounding_box()
    inside = box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    inside = inside and box["y"] + box["height"] <= PHONE["height"]
    on_top = locator.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"
    )
    return inside and on_top


def test_on_a_phone_a_fact_is_filled_and_saved_without_scrolling_sideways(open_page):
    lane = f.make_lane(name="hyperscaler custom silicon")
    for position, name in enumerate(["Company", "Current chips", "Architecture", "Memory"], start=1):
        f.make_attribute(name=name, position=position)
    page, watcher = sign_in_on_a_phone(open_page)

    page.goto(f"/admin/vendors/vendor/add/?lane={lane.pk}")
    assert not scrolls_sideways(page)
    page.get_by_label("Name:").fill("AWS Trainium")
    page.get_by_label("Company:").fill("Amazon Web Services")
    memory = page.locator("#id_facts-3-value")  # the fourth attribute's row, already chosen
    memory.scroll_into_view_if_needed()
    memory.fill("144 GB HBM3e per chip")

    assert not scrolls_sideways(page)
    assert shown_on_screen(page, memory)
    assert page.locator("label[for=id_facts-3-value]").is_visible()  # each card field names itself
    save = page.get_by_role("button", name="Save", exact=True)
    assert shown_on_screen(page, save)  # the Save bar stays in view far down the page

    save.click()
    expect(page.locator(".messagelist").get_by_text("was added successfully")).to_be_visible()
    vendor = Vendor.objects.get(name="AWS Trainium")
    assert [(fact.attribute.name, fact.value) for fact in vendor.facts.all()] == [
        ("Memory", "144 GB HBM3e per chip")
    ]
    # An icon still loading when the save leaves the page is dropped by the browser.
    assert watcher.foreign_requests == [] and watcher.failed_except_aborted("/static/") == []


def test_on_a_phone_a_comparisons_assessment_is_marked_and_saved_without_scrolling_sideways(open_page):
    tpu, trainium = f.make_vendor(name="Google TPU"), f.make_vendor(name="AWS Trainium")
    comparison = f.make_comparison(title="TPU vs Trainium", vendors=[tpu, trainium])
    f.make_assessment(criterion=f.make_criterion(comparison=comparison, name="Software"), vendor=trainium)
    page, watcher = sign_in_on_a_phone(open_page)

    page.goto(f"/admin/comparisons/comparison/{comparison.pk}/change/")
    assert not scrolls_sideways(page)
    mark = page.locator("#id_assessments-0-mark")
    mark.scroll_into_view_if_needed()
    mark.fill("4")

    assert not scrolls_sideways(page)
    assert shown_on_screen(page, mark)
    assert page.locator("label[for=id_assessments-0-mark]").is_visible()  # the card names its fields
    save = page.get_by_role("button", name="Save and continue editing")
    assert shown_on_screen(page, save)

    save.click()
    expect(page.locator(".messagelist").get_by_text("was changed successfully")).to_be_visible()
    assert comparison.assessments.get().mark == 4
    # An icon still loading when the save leaves the page is dropped by the browser.
    assert watcher.foreign_requests == [] and watcher.failed_except_aborted("/static/") == []


def inside_the_screen(box):
    return box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_on_a_phone_each_cards_title_is_visible_and_names_its_row(open_page):
    vendor = f.make_vendor(name="AWS Trainium")
    fact = f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value="144 GB HBM3e")
    event = f.make_event(vendor=vendor, text="Trainium3 generally available.")
    score = f.make_score(vendor=vendor, axis=f.make_axis(name="Software"), value=3)
    page, _ = sign_in_on_a_phone(open_page)

    page.goto(f.admin_change_url(vendor))

    for row, named in (
        (f"#fact-{fact.pk}", "Memory"),
        (f"#event-{event.pk}", "Jan 2026"),
        (f"#score-{score.pk}", "Software"),
    ):
        title = page.locator(row)
        title.scroll_into_view_if_needed()
        box = title.bounding_box()
        assert box["width"] > PHONE["width"] / 2 and inside_the_screen(box), (row, box)
        assert named in title.inner_text()
        assert title.locator("p").is_visible()


def test_on_a_phone_the_staleness_queue_is_cards_with_edit_and_verify_in_reach(open_page):
    memory = f.make_attribute(name="Memory")
    stale = [
        f.make_fact(vendor=f.make_vendor(name=name), attribute=memory, verified_on=None)
        for name in ("AWS Trainium", "Groq")
    ]
    page, _ = sign_in_on_a_phone(open_page)

    page.goto("/admin/vendors/stalefact/")

    assert not page.evaluate("document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth")
    cards = page.locator("#result_list tbody tr")
    assert cards.count() == 2
    for n, name in enumerate(["AWS Trainium", "Groq"]):
        card = cards.nth(n)
        card.scroll_into_view_if_needed()
        card_box = card.bounding_box()
        assert inside_the_screen(card_box)
        vendor = card.locator("td.field-vendor")
        assert vendor.inner_text() == name and vendor.is_visible()
        for control in (
            card.get_by_role("link", name="Edit"),
            card.get_by_role("button", name="Mark verified today"),
        ):
            box = control.bounding_box()
            assert inside_the_screen(box), box
            # In the same card as the vendor's name: nobody has to scroll away from it to act.
            assert (
                card_box["y"] <= box["y"] and box["y"] + box["height"] <= card_box["y"] + card_box["height"]
            )
    cards.nth(0).get_by_role("button", name="Mark verified today").click()
    expect(page.locator(".messagelist").get_by_text("Marked 1 fact verified today")).to_be_visible()
    stale[0].refresh_from_db()
    assert stale[0].verified_on is not None
