"""The whole editorial journey with the keyboard alone, in Chromium (issue 25, part 2).

No click and no mouse: an Editor signs in, opens the add page from the admin's index, types a
profile, picks its lane in the autocomplete, adds a new source in the dialog (focus moves into it
and stays there, Escape closes it and focus returns to the row's button), saves, meets a refused
save whose error summary takes focus and whose link takes them to the field, saves again, and
submits for review; a Publisher then publishes it. At every step the focused element shows a
focus outline of 2 px or more with a contrast of 3:1 or more against the page behind it.
"""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from claims.models import Source
from tests import factories as f
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The focused element's outline (or, for select2's search field, its box's), its width, and the
# contrast of its colour with the first opaque background behind the element.
FOCUS_RING = """() => {
  let el = document.activeElement;
  if (!el || el === document.body) return {what: "nothing focused", width: 0, contrast: 0};
  // A date field's calendar button is the browser's own, inside the field, with the browser's
  // own focus ring: the field itself then no longer matches :focus.
  if (el.type === "date" && !el.matches(":focus")) {
    return {what: "calendar button", width: 2, contrast: 3};
  }
  let style = getComputedStyle(el);
  if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) === 0) {
    const box = el.closest(".select2-selection");
    if (box) { el = box; style = getComputedStyle(box); }
  }
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  let back = el.parentElement, bg = [255, 255, 255];
  while (back) {
    const colour = rgb(getComputedStyle(back).backgroundColor);
    if (colour.length === 3 || (colour.length === 4 && colour[3] > 0.5)) { bg = colour.slice(0, 3); break; }
    back = back.parentElement;
  }
  const ring = rgb(style.outlineColor).slice(0, 3);
  const [a, b] = [lum(ring), lum(bg)].sort((x, y) => y - x);
  return {
    what: `${el.tagName.toLowerCase()}#${el.id} “${(el.innerText || el.value || "").slice(0, 40)}”`,
    width: style.outlineStyle === "none" ? 0 : parseFloat(style.outlineWidth),
    contrast: (a + 0.05) / (b + 0.05),
  };
}"""


def assert_focus_visible(page):
    # A date field's parts take focus a moment after the field itself.
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(f"() => ({FOCUS_RING})().width >= 2")
    ring = page.evaluate(FOCUS_RING)
    assert ring["width"] >= 2, f"no visible focus outline on {ring['what']}"
    assert ring["contrast"] >= 3, f"focus outline of {ring['what']} has contrast {ring['contrast']:.2f}"
    return ring


def tab_to(page, matches, *, limit=250, backwards=False):
    """Press Tab (Shift+Tab) until the focused element matches the JS predicate ``matches``
    (given the element), checking the focus outline at each stop."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        found = f"(() => {{ const el = document.activeElement; return !!el && !!({matches})(el); }})()"
        if page.evaluate(found):
            return assert_focus_visible(page)
    raise AssertionError(f"Tab never reached {matches}")


def named(text):
    return f"(el) => (el.innerText || el.value || '').trim() === {text!r}"


def sign_in_by_keyboard(open_page, *, group, username):
    user = f.make_staff_user(group=group, username=username)
    user.set_password("keyboard-only-pw")
    user.save()
    page, watcher = open_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(10_000)
    page.goto("/admin/login/")
    expect(page.locator("#id_username")).to_be_focused()
    page.keyboard.type(username)
    page.keyboard.press("Tab")
    page.keyboard.type("keyboard-only-pw")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Profiles, scores and sources")).to_be_visible()
    return page, watcher


def test_an_editor_and_a_publisher_take_a_new_profile_live_with_the_keyboard_alone(open_page):
    load_demo()
    page, watcher = sign_in_by_keyboard(open_page, group="Editor", username="kim")

    tab_to(page, "(el) => el.matches('a[href$=\"/admin/vendors/vendor/add/\"]')")
    page.keyboard.press("Enter")
    expect(page.locator("#id_name")).to_be_focused()  # Django's add page starts in its first field
    assert_focus_visible(page)
    page.keyboard.type("Keyboard Chip")
    tab_to(page, "(el) => el.id === 'id_lane' || el.getAttribute('aria-labelledby') === 'id_lane-label'")
    page.keyboard.press("Enter")  # opens the autocomplete; typing searches it
    search = page.locator(".select2-container--open .select2-search__field")
    expect(search).to_be_focused()
    page.keyboard.type("merchant")
    expect(page.locator(".select2-results__option--highlighted")).to_have_text("merchant GPU")
    page.keyboard.press("Enter")
    expect(page.locator("#id_lane option:checked")).to_have_text("merchant GPU")
    expect(page.get_by_role("combobox", name="Lane")).to_be_focused()

    # The first fact row (Company): its value, then a new source in the dialog.
    tab_to(page, "(el) => el.name === 'facts-0-value'")
    page.keyboard.type("Keyboard Chip Corporation")
    tab_to(page, named("Add a new source"))
    opener = page.evaluate_handle("document.activeElement")
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Add a new source")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("URL")).to_be_focused()
    inside = "document.getElementById('source-dialog').contains(document.activeElement)"
    for _ in range(9):  # more Tabs than the dialog has controls: focus goes round inside it
        page.keyboard.press("Tab")
        assert page.evaluate(inside), "Tab left the open dialog"
        assert_focus_visible(page)
    for _ in range(9):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside), "Shift+Tab left the open dialog"
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("(el) => el === document.activeElement", opener), "focus did not return to the row"
    assert_focus_visible(page)

    page.keyboard.press("Enter")
    expect(dialog.get_by_label("URL")).to_be_focused()
    page.keyboard.type("https://example.org/keyboard-chip/about")
    page.keyboard.press("Tab")
    page.keyboard.type("About Keyboard Chip")
    page.keyboard.press("Enter")  # submits the dialog's form
    expect(dialog).to_be_hidden()
    source = Source.objects.get(url="https://example.org/keyboard-chip/about")
    expect(page.locator("#id_facts-0-sources option:checked")).to_have_text(str(source))
    assert page.evaluate("(el) => el === document.activeElement", opener)

    # Saved without the company: refused, and the summary of errors takes focus.
    tab_to(page, "(el) => el.name === '_continue'")
    page.keyboard.press("Enter")
    summary = page.locator(".error-summary")
    expect(summary).to_be_focused()
    assert_focus_visible(page)
    expect(summary).to_contain_text("Company: This field is required.")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Company: This field is required.")).to_be_focused()
    assert_focus_visible(page)
    page.keyboard.press("Enter")
    expect(page.locator("#id_company")).to_be_focused()
    expect(page.locator("#id_name")).to_have_value("Keyboard Chip")  # what was typed is kept
    expect(page.locator("#id_facts-0-value")).to_have_value("Keyboard Chip Corporation")
    page.keyboard.type("Keyboard Chip Corporation")
    tab_to(page, "(el) => el.name === '_continue'")
    page.keyboard.press("Enter")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    vendor = Vendor.objects.get(name="Keyboard Chip")
    assert list(vendor.facts.get(attribute__name="Company").sources.all()) == [source]

    tab_to(page, named("Submit for review"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Publishing: Waiting for review")).to_be_visible()

    publisher, publisher_watch = sign_in_by_keyboard(open_page, group="Publisher", username="pat")
    tab_to(publisher, "(el) => el.closest('.review-queue') && el.innerText.trim() === 'Keyboard Chip'")
    publisher.keyboard.press("Enter")
    publisher.wait_for_url(f"**/admin/vendors/vendor/{vendor.pk}/change/")
    expect(publisher.get_by_role("heading", name="Publishing: Waiting for review")).to_be_visible()
    tab_to(publisher, named("Publish"))
    publisher.keyboard.press("Enter")
    expect(publisher.locator(".messagelist").get_by_text("Published: visitors see it now.")).to_be_visible()
    expect(publisher.get_by_role("heading", name="Publishing: Live", exact=True)).to_be_visible()
    for w in (watcher, publisher_watch):
        # An autocomplete's search still on its way when the page moves on is cancelled by the
        # browser (ERR_ABORTED): nobody waits for it. Anything else failing is a failure.
        assert w.console_errors == []
        assert w.failed_except_aborted("/") == []
