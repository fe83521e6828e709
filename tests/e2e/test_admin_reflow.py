"""The admin at 320 CSS px (WCAG 1.4.10) and at 200 % zoom, and with reduced motion (issue 25, part 5).

200 % zoom of a 1280 px window lays the page out in 640 CSS px, which is what is checked: a
browser's zoom changes the CSS pixel's size, not the layout's rules. Nothing scrolls sideways
but a table that says it does (a named region, reachable by keyboard).
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import sign_in
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What sticks out to the right of the window, outside a region that says it scrolls sideways.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => {
    const region = el.closest("[role=region][tabindex]");
    // The section menu is one line of links that scrolls by itself, in its named nav.
    return (region && /scrolls sideways/.test(region.getAttribute("aria-label") || ""))
      || el.closest("nav.section-menu[aria-label] ul")
      || el.closest(".visually-hidden");  // read out, never shown (Django's own table headers)
  };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1 && !scrolls(el) && getComputedStyle(el).position !== "fixed") {
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} (${Math.round(box.right)} px)`);
    }
  }
  return {page: document.scrollingElement.scrollWidth - width, out: out.slice(0, 8)};
}"""


@pytest.mark.parametrize("width", [320, 640], ids=["320px", "1280px-at-200%"])
def test_admin_pages_reflow_without_sideways_scrolling(open_page, width):
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    page, _ = sign_in(
        open_page, username="narrow", group="Publisher", viewport={"width": width, "height": 700}
    )
    found = {}
    for path in [
        "/admin/",
        "/admin/vendors/vendor/",
        f"/admin/vendors/vendor/{vendor.pk}/change/",
        "/admin/vendors/vendor/add/",
        "/admin/vendors/stalefact/",
        "/admin/claims/source/",
        "/admin/comparisons/comparison/",
        f"/admin/vendors/vendor/{vendor.pk}/history/",
        f"/admin/vendors/vendor/{vendor.pk}/import/",
    ]:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        result = page.evaluate(STICKING_OUT)
        if result["page"] > 0 or result["out"]:
            found[path] = result
    assert found == {}, "\n".join(f"{path}: {result}" for path, result in found.items())

    # The history's table scrolls in its own named region, which the keyboard reaches.
    page.goto(f"/admin/vendors/vendor/{vendor.pk}/history/")
    region = page.get_by_role("region", name="Revisions (the table scrolls sideways on a narrow screen)")
    expect(region).to_be_visible()
    assert region.get_attribute("tabindex") == "0"


def test_with_reduced_motion_asked_for_nothing_in_the_admin_moves(open_page):
    load_demo()
    page, _ = sign_in(
        open_page, username="still", reduced_motion="reduce", viewport={"width": 1280, "height": 900}
    )
    page.goto(f"/admin/vendors/vendor/{Vendor.objects.get(slug='aws-trainium').pk}/change/")
    durations = page.evaluate(
        """() => Array.from(document.querySelectorAll("a, button, input[type=submit], .button"))
             .map((el) => getComputedStyle(el).transitionDuration.split(",").map(parseFloat))
             .flat()"""
    )
    assert durations and max(durations) <= 0.001  # seconds: the admin's 0.15 s fades are gone
    assert page.evaluate("getComputedStyle(document.documentElement).scrollBehavior") == "auto"


def test_without_reduced_motion_the_admins_own_transitions_stay(open_page):
    load_demo()
    page, _ = sign_in(open_page, username="moving", viewport={"width": 1280, "height": 900})
    page.goto("/admin/vendors/vendor/")
    durations = page.evaluate(
        """() => Array.from(document.querySelectorAll("input[type=submit], .button"))
             .map((el) => parseFloat(getComputedStyle(el).transitionDuration))"""
    )
    assert max(durations) >= 0.1
