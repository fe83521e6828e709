"""Focus not obscured (WCAG 2.2 SC 2.4.11): Tab through a whole vendor change page, and no
focused field is hidden under the sticky section menu or the sticky Save bar."""

import pytest

from tests import factories as f
from tests.e2e.conftest import sign_in
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The focused element's box against the sticky bars': how much of it is left to see.
OBSCURED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return null;
  let top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
  for (const bar of document.querySelectorAll(".section-menu, .save-bar")) {
    const r = bar.getBoundingClientRect();
    if (r.top <= 1) top = Math.max(top, r.bottom);  // stuck to the top of the window
    else if (r.bottom >= window.innerHeight - 1) bottom = Math.min(bottom, r.top);  // to its bottom
  }
  if (bottom - top > 0) return null;
  const what = `${el.tagName} ${el.name || el.id || el.className}`;
  const at = `${Math.round(box.top)}-${Math.round(box.bottom)}`;
  return `${what} at ${at}, seen ${Math.round(top)}-${Math.round(bottom)}`;
}"""


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}], ids=["1280", "390"]
)
def test_no_focused_field_of_a_change_page_is_hidden_under_its_sticky_bars(open_page, viewport):
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    page, _ = sign_in(open_page, username=f"tabber-{viewport['width']}", viewport=viewport)
    page.goto(f.admin_change_url(vendor))
    hidden, stops = [], 0
    while stops < 2000:
        page.keyboard.press("Tab")
        stops += 1
        if page.evaluate("document.activeElement.closest('.save-bar') !== null"):
            break  # the Save bar's buttons come last: the whole form has been walked
        if (what := page.evaluate(OBSCURED)) is not None:
            hidden.append(f"stop {stops}: {what}")
    assert stops > 50, "Tab never reached the form's fields"
    assert hidden == [], "\n".join(hidden)
