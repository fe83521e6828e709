"""axe-core (4.12.1, the one axe-playwright-python ships, as the public pages' test uses) on every
admin page type, as Editor and as Publisher, at 1280 and 390 px (issue 25).

The rules are WCAG 2.0, 2.1 and 2.2 A and AA (2.2's target-size among them) and axe's best
practices; a critical or serious violation fails. Besides each page as it opens, the states an
editor meets on the way: the source dialog while open, an autocomplete's open list, a refused save
with its error summary, the CSV import's preview, two revisions compared, and (Publisher) a revert.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from claims.models import Source
from comparisons.models import Comparison
from corrections.models import Correction
from tests.e2e.conftest import sign_in
from tests.e2e.test_accessibility import describe
from vendors.demo import load_demo
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
OPTIONS = {"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": WCAG_22_AA}}
BLOCKING = {"critical", "serious"}


def admin_pages():
    """One address of every admin page type, with the demo's rows, and a selector it has drawn."""
    vendor = Vendor.objects.get(slug="aws-trainium")
    comparison = Comparison.objects.order_by("pk").first()
    source = Source.objects.order_by("pk").first()
    assert Correction.objects.exists()
    return {
        "/admin/": "#content-main",
        "/admin/vendors/vendor/": "#result_list",
        f"/admin/vendors/vendor/{vendor.pk}/change/": ".select2",
        "/admin/vendors/vendor/add/": ".select2",
        "/admin/vendors/stalefact/": "#changelist",
        "/admin/vendors/staleevent/": "#changelist",
        "/admin/vendors/stalescore/": "#changelist",
        "/admin/claims/source/": "#result_list",
        f"/admin/claims/source/{source.pk}/change/": "#source_form",
        "/admin/comparisons/comparison/": "#result_list",
        f"/admin/comparisons/comparison/{comparison.pk}/change/": ".select2",
        "/admin/corrections/correction/": "#result_list",
        f"/admin/vendors/vendor/{vendor.pk}/history/": "#change-history",
        f"/admin/vendors/vendor/{vendor.pk}/import/": "input[type=file]",
    }


class Checker:
    def __init__(self, page, label):
        self.page, self.label, self.axe, self.found, self.checked = page, label, Axe(), [], []

    def check(self, what, *, within=None):
        context = {"include": within} if within else None
        results = self.axe.run(self.page, context=context, options=OPTIONS).response["violations"]
        self.found += describe(f"{self.label} {what}", [v for v in results if v["impact"] in BLOCKING])
        self.checked.append(what)


def import_preview_csv(vendor):
    fact = vendor.facts.select_related("attribute").order_by("position").first()
    return f"kind,label,value\nfact,{fact.attribute},{fact.value} (checked)\n".encode()


@pytest.mark.parametrize("group", ["Editor", "Publisher"])
@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_violation_on_any_admin_page(open_page, group, width):
    load_demo()
    page, watcher = sign_in(open_page, username=f"a11y-{group.lower()}", group=group,
                            viewport={"width": width, "height": 900})  # fmt: skip
    page.set_default_timeout(10_000)
    checker = Checker(page, f"{group} at {width} px:")
    pages = admin_pages()
    for path, ready in pages.items():
        response = page.goto(path)
        assert response.status == 200, path
        page.wait_for_selector(ready)
        checker.check(path)

    vendor = Vendor.objects.get(slug="aws-trainium")
    change = f"/admin/vendors/vendor/{vendor.pk}/change/"
    page.goto(change)
    expect(page.locator(".workflow")).to_be_visible()  # the workflow panel, checked with the page above
    page.get_by_role("button", name="Add a new source").first.click()
    expect(page.get_by_role("dialog", name="Add a new source")).to_be_visible()
    checker.check("the source dialog, open")
    page.keyboard.press("Escape")

    page.get_by_role("combobox", name="Lane").click()
    expect(page.locator(".select2-results__option").first).to_be_visible()
    # The open list covers the fields under it, as any list does: axe looks at the list itself.
    checker.check("the lane's autocomplete, open", within=[[".select2-container--open"]])
    page.keyboard.press("Escape")

    page.locator("#id_name").fill("")
    page.locator("input[name=_continue]").click()
    expect(page.locator(".error-summary")).to_be_focused()
    checker.check("a refused save")
    page.locator("#id_name").fill("AWS Trainium")
    page.locator("#id_alternative_blurb").fill("Teams already on AWS, checked by axe")
    page.locator("input[name=_continue]").click()
    expect(page.locator(".workflow")).to_contain_text("Unpublished changes")
    checker.check("the workflow panel listing unpublished changes")

    page.goto(f"/admin/vendors/vendor/{vendor.pk}/import/")
    page.get_by_label("CSV file").set_input_files(
        {"name": "facts.csv", "mimeType": "text/csv", "buffer": import_preview_csv(vendor)}
    )
    page.get_by_role("button", name="Preview the changes").click()
    expect(page.get_by_role("heading", name="Preview of facts.csv")).to_be_visible()
    checker.check("the CSV import's preview")

    page.goto(f"/admin/vendors/vendor/{vendor.pk}/history/")
    page.get_by_role("button", name="Compare selected revisions").click()
    page.wait_for_url("**/history/compare/**")
    checker.check("two revisions compared")
    if group == "Publisher":
        page.goto(f"/admin/vendors/vendor/{vendor.pk}/history/")
        page.get_by_role("link", name="Revert to this…").first.click()
        expect(page.get_by_role("button", name="Load this revision into the working copy")).to_be_visible()
        checker.check("a revert")

    assert len(checker.checked) == len(pages) + 6 + (group == "Publisher")
    assert checker.found == [], f"axe violations, {group} at {width} px:\n" + "\n".join(checker.found)
    assert watcher.console_errors == []
