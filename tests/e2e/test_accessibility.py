"""axe-core (4.12.1, shipped inside axe-playwright-python) on every page type, at 1280 and 390 px.

Every rule axe runs by default, plus WCAG 2.2's target-size (which Lighthouse's accessibility
score runs too), every impact: the pages must have no violation at all. axe is
put into the page with ``page.evaluate`` (what ``Axe.run`` does): Playwright's evaluate goes
through the DevTools protocol, which the strict CSP (``script-src 'self'``) does not govern,
while ``page.add_script_tag`` would be refused. So the pages are checked under the CSP they
really ship, without ``bypass_csp``.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.shots import PAGE_TYPES
from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def describe(path, violations):
    lines = []
    for violation in violations:
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:3]]
        more = len(violation["nodes"]) - len(targets)
        lines.append(
            f"{path}: {violation['id']} ({violation['impact']}), {len(violation['nodes'])} element(s): "
            + "; ".join(targets)
            + (f"; and {more} more" if more > 0 else "")
        )
    return lines


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_violation_on_any_page_type(open_page, width):
    load_demo()
    page, watcher = open_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(10_000)
    axe = Axe()
    options = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
    found = []
    for path, (status, ready) in PAGE_TYPES.items():
        response = page.goto(path)
        assert response.status == status, path
        page.wait_for_selector(ready)
        results = axe.run(page, options=options)
        found += describe(path, results.response["violations"])
    assert found == [], f"axe violations at {width} px:\n" + "\n".join(found)
    # The one error a page may log is the 404 page's own status.
    assert [error for error in watcher.console_errors if "status of 404" not in error] == []
