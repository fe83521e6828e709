"""The admin at 320 CSS px (WCAG 1.4.10), at 390 px (a phone), at 200 % zoom and at 1280 px, and
with reduced motion (issue 25, part 5; issue 46).

400 % zoom of a 1280 px window lays the page out in 320 CSS px and 200 % zoom in 640, which is
what is checked: a browser's zoom changes the CSS pixel's size, not the layout's rules. Nothing
scrolls sideways but a table in a region of its own that says what it is and that the keyboard
reaches (role=region, a name, tabindex=0).
"""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from claims.models import Source
from comparisons.models import Comparison
from tests import factories as f
from tests.e2e.conftest import sign_in
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = pytest.mark.parametrize(
    "width", [320, 390, 640, 1280], ids=["320px-or-1280px-at-400%", "390px", "1280px-at-200%", "1280px"]
)

# How far the page scrolls sideways, and what sticks out to the right of the window: anything
# outside a box that scrolls is on the page, and a box that scrolls must be a named region the
# keyboard reaches (the section menu's one line of links is reached link by link).
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const named = (box) => box.matches("[role=region][tabindex='0']")
    && (box.getAttribute("aria-label") || box.getAttribute("aria-labelledby"));
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.right <= width + 1 || getComputedStyle(el).position === "fixed") continue;
    // A box clips what it contains, and an absolutely placed box only from its containing block up.
    const up = (box) => getComputedStyle(box).position === "absolute" ? box.offsetParent : box.parentElement;
    let clip = up(el);
    while (clip && clip !== document.body && getComputedStyle(clip).overflowX === "visible") {
      clip = up(clip);
    }
    if (clip && clip !== document.body) {
      const overflow = getComputedStyle(clip).overflowX;
      const scrolls = overflow === "auto" || overflow === "scroll";
      if (!scrolls || named(clip) || clip.matches("nav.section-menu[aria-label] ul")) continue;
    }
    const name = `${el.tagName.toLowerCase()}#${el.id}.${String(el.className).split(" ").join(".")}`;
    out.push(`${name} (${Math.round(box.right)} px)`);
  }
  return {page: document.scrollingElement.scrollWidth - width, out: out.slice(0, 8)};
}"""


def sticking_out(page, paths):
    """What scrolls sideways on each of ``paths``, by path (nothing, when all reflow)."""
    found = {}
    for path in paths:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        found |= sticking_out_here(page, path)
    return found


def sticking_out_here(page, name):
    result = page.evaluate(STICKING_OUT)
    return {name: result} if result["page"] > 0 or result["out"] else {}


def report(found):
    return "\n".join(f"{path}: {result}" for path, result in found.items())


def changelists():
    """Every list the admin has: the vendors, sources, chips' and staleness queues, ..."""
    return sorted(
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    )


@WIDTHS
def test_every_admin_page_reflows_without_sideways_scrolling(open_page, width):
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    source = Source.objects.order_by("pk").first()
    comparison = Comparison.objects.first()
    page, watcher = sign_in(
        open_page, username="narrow", group="Publisher", viewport={"width": width, "height": 700}
    )
    get_user_model().objects.filter(username="narrow").update(is_superuser=True)  # every list
    paths = [
        "/admin/",
        *changelists(),
        f.admin_change_url(vendor),
        "/admin/vendors/vendor/add/",
        f"/admin/vendors/vendor/{vendor.pk}/history/",
        f"/admin/vendors/vendor/{vendor.pk}/import/",
        f.admin_change_url(source),
        f"/admin/claims/source/{source.pk}/history/",
        f.admin_change_url(comparison),
        f"/admin/comparisons/comparison/{comparison.pk}/history/",
    ]
    found = sticking_out(page, paths)

    # Two revisions compared, as an editor reaches them from the history.
    page.goto(f"/admin/vendors/vendor/{vendor.pk}/history/")
    page.get_by_role("button", name="Compare selected revisions").click()
    page.wait_for_url("**/history/compare/**")
    found |= sticking_out_here(page, "two revisions compared")
    assert len(paths) > 25  # the walk reached every list
    assert found == {}, report(found)
    assert watcher.bad_responses == []  # ... and each page opened

    # The history's table scrolls in its own named region, which the keyboard reaches.
    page.goto(f"/admin/vendors/vendor/{vendor.pk}/history/")
    region = page.get_by_role("region", name="Revisions (the table scrolls sideways on a narrow screen)")
    expect(region).to_be_visible()
    assert region.get_attribute("tabindex") == "0"


@WIDTHS
def test_the_sign_in_and_second_step_pages_reflow_without_sideways_scrolling(open_page, settings, width):
    from django_otp.oath import TOTP
    from django_otp.plugins.otp_totp.models import TOTPDevice

    settings.STAFF_SECOND_FACTOR = "required"
    viewport = {"width": width, "height": 700}
    page, _ = open_page(viewport=viewport)
    found = sticking_out(page, ["/admin/login/"])
    for username, enrolled in [("new", False), ("enrolled", True)]:
        user = f.make_staff_user(group="Editor", username=username)
        if enrolled:
            TOTPDevice.objects.create(user=user, name="Phone", confirmed=True)
        page, _ = open_page(viewport=viewport)
        page.goto("/admin/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", "pw")
        page.click("input[type=submit]")
        heading = "Second step: confirm it is you" if enrolled else "Set up your second step"
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.wait_for_load_state("networkidle")
        found |= sticking_out_here(page, heading)
        if not enrolled:  # the app confirmed, then the recovery codes
            device = TOTPDevice.objects.get(user=user, confirmed=False)
            code = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
            page.get_by_role("textbox", name="Code").fill(f"{code.token():06d}")
            page.get_by_role("button", name="Confirm the app").click()
            expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
            found |= sticking_out_here(page, "Your recovery codes")
    assert found == {}, report(found)


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
