"""An editor finds a fact whose source died in the staleness queue, opens it, and verifies it."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests import factories as f
from tests.e2e.conftest import sign_in as sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}


def sign_in(open_page):
    return sign_in_as(open_page, username="queue-editor", viewport=DESKTOP)


# Whether the cell's row is inside the window and not under the sticky menu or Save bar. It asks
# what the browser draws at the middle of the row's first field: the anchored title cell itself
# has no width on a wide screen (its title is drawn across the top of the row).
ROW_UNCOVERED_IN_VIEW = (
    "(el) => { const row = el.closest('tr');"
    " const field = [...row.cells].find((td) => td !== el && td.getBoundingClientRect().width > 0);"
    " const r = field.getBoundingClientRect(); const y = r.y + Math.min(r.height / 2, 20);"
    " return row.getBoundingClientRect().y >= 0 && y < window.innerHeight"
    " && row.contains(document.elementFromPoint(r.x + r.width / 2, y)); }"
)


def test_a_fact_whose_source_died_is_found_opened_on_its_row_and_verified(open_page):
    vendor = f.make_vendor(name="AWS Trainium")
    last_week = timezone.localdate() - dt.timedelta(days=7)
    dead = f.make_source(title="Trn3 spec sheet", problem="returned 404", problem_on=timezone.localdate())
    for n in range(12):  # rows enough that the fact sits far down the page
        f.make_fact(vendor=vendor, value=f"Fresh claim {n}", verified_on=last_week)
    fact = f.make_fact(vendor=vendor, value="144 GB HBM3e", verified_on=last_week, sources=[dead])
    page, watcher = sign_in(open_page)

    page.goto("/admin/")
    page.get_by_role("link", name="1 stale row").click()
    row = page.locator("#result_list tbody tr", has_text="144 GB HBM3e")
    expect(row).to_contain_text(dead.problem_text)

    row.get_by_role("link", name="Edit").click()
    page.wait_for_url(f"**/admin/vendors/vendor/{vendor.pk}/change/#fact-{fact.pk}")
    anchor = page.locator(f"#fact-{fact.pk}")
    expect(anchor).to_contain_text("144 GB HBM3e")
    # Once the page's scripts have drawn its widgets, the row is still in view.
    page.wait_for_function(ROW_UNCOVERED_IN_VIEW, arg=anchor.element_handle())

    page.go_back()
    page.locator("#result_list tbody tr", has_text="144 GB HBM3e").get_by_role(
        "button", name="Mark verified today"
    ).click()
    expect(page.locator(".messagelist")).to_contain_text("Marked 1 fact verified today on 1 vendor.")
    expect(page.locator("#result_list")).to_have_count(0)
    fact.refresh_from_db()
    assert fact.verified_on == timezone.localdate()
    watcher.assert_clean()
