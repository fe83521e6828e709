"""Focus not obscured (WCAG 2.2 SC 2.4.11): Tab through a whole vendor change page, and no
focused field is hidden under the sticky section menu or the sticky Save bar."""

import pytest

from comparisons.models import Comparison
from tests import factories as f
from tests.e2e.conftest import sign_in
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The focused element's box against whatever is sticky or fixed on the page (the section menu,
# the Save bar, or any other bar): how much of it is left to see. The bars are found once a
# page (window.__bars), not at every stop.
OBSCURED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return null;
  window.__bars = window.__bars || Array.from(document.querySelectorAll("body *")).filter(
    (bar) => ["sticky", "fixed"].includes(getComputedStyle(bar).position));
  let top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
  for (const bar of window.__bars) {
    if (bar.contains(el) || getComputedStyle(bar).visibility === "hidden") continue;
    const r = bar.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= box.left || r.left >= box.right) continue;
    if (r.top <= 1 && r.bottom < window.innerHeight / 2) top = Math.max(top, r.bottom);  // stuck at the top
    else if (r.bottom >= window.innerHeight - 1 && r.top > window.innerHeight / 2) {
      bottom = Math.min(bottom, r.top);  // stuck at the bottom
    }
  }
  if (bottom - top > 0) return null;
  const what = `${el.tagName} ${el.name || el.id || el.className}`;
  const at = `${Math.round(box.top)}-${Math.round(box.bottom)}`;
  return `${what} at ${at}, seen ${Math.round(top)}-${Math.round(bottom)}`;
}"""

VIEWPORTS = pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 900}, {"width": 390, "height": 844}, {"width": 320, "height": 568}],
    ids=["1280", "390", "320"],
)


def hidden_while_tabbing(page):
    """Tab from the top of the page to its Save bar, which comes last: each stop whose focused
    field is hidden under a sticky bar, and how many stops it took (None: the Save bar was
    never reached)."""
    hidden = []
    for stop in range(1, 2000):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.save-bar, .submit-row') !== null"):
            return hidden, stop  # the Save bar's buttons come last: the whole form has been walked
        if (what := page.evaluate(OBSCURED)) is not None:
            hidden.append(f"stop {stop}: {what}")
    return hidden, None


@VIEWPORTS
def test_no_focused_field_of_a_vendor_change_page_is_hidden_under_its_sticky_bars(open_page, viewport):
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    page, _ = sign_in(open_page, username=f"tabber-{viewport['width']}", viewport=viewport)
    page.goto(f.admin_change_url(vendor))
    hidden, stops = hidden_while_tabbing(page)
    assert stops is not None and stops > 50, "Tab never walked the form's fields to its Save bar"
    assert hidden == [], "\n".join(hidden)


@VIEWPORTS
def test_no_focused_field_of_a_comparison_change_page_is_hidden_under_its_sticky_bars(open_page, viewport):
    load_demo()
    comparison = Comparison.objects.order_by("pk").first()
    page, _ = sign_in(open_page, username=f"tabber-{viewport['width']}", viewport=viewport)
    page.goto(f.admin_change_url(comparison))
    hidden, stops = hidden_while_tabbing(page)
    assert stops is not None and stops > 20, "Tab never walked the form's fields to its Save bar"
    assert hidden == [], "\n".join(hidden)
