"""The sticky Compare bar on a phone gives way to what a reader reaches: the “Not scored yet”
heading scrolled into view, and every link and tick box reached by Tab, are never under the bar."""

import pytest

from tests.e2e.test_phone_layout import PHONE, overlap
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_view_above_the_bar(page, locator):
    """What hides ``locator`` from a reader: the bar over it, or the window's edges; "" for nothing."""
    box, bar = locator.bounding_box(), page.locator(".compare-bar").bounding_box()
    if overlap(box, bar) > 0:
        bottom = box["y"] + box["height"]
        return f"under the Compare bar ({box['y']:.0f}-{bottom:.0f} px, bar from {bar['y']:.0f})"
    if box["y"] < 0 or box["y"] + box["height"] > PHONE["height"]:
        return f"outside the window ({box['y']:.0f} px)"
    return ""


def test_the_not_scored_heading_and_its_vendors_are_not_hidden_under_the_compare_bar_on_a_phone(open_page):
    load_demo()
    page, watcher = open_page(viewport=PHONE)
    page.goto("/")
    heading = page.get_by_role("heading", name="Not scored yet")
    first_vendor = page.locator("table.not-scored-list tbody th[scope=row] a").first
    assert page.locator(".compare-bar").evaluate("bar => getComputedStyle(bar).position") == "sticky"

    # Scrolled to just into view from above, as a reader scrolling down meets it.
    heading.evaluate("h => h.scrollIntoView({block: 'end', behavior: 'instant'})")
    assert in_view_above_the_bar(page, heading) == ""

    # Reached by Tab from the top of the page: no stop on the way to the first vendor not scored
    # yet (the ranked rows, the list's scroll area, that vendor) is under the bar.
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    focused = page.locator(":focus")
    hidden = []
    for stop in range(1, 400):
        page.keyboard.press("Tab")
        if focused.evaluate("e => !!e.closest('.compare-bar')"):
            pytest.fail("Tab reached the Compare bar before the first vendor not scored yet")
        if where := in_view_above_the_bar(page, focused):
            hidden.append(f"stop {stop}: {focused.evaluate('e => e.outerHTML.slice(0, 80)')} {where}")
        if first_vendor.evaluate("a => a === document.activeElement"):
            break
    assert hidden == [], "\n".join(hidden)
    watcher.assert_clean()
