"""axe-core (4.12.1, shipped inside axe-playwright-python) on every page type, at 1280 and 390 px.

Every rule axe runs by default, every impact: the pages must have no violation at all. axe is
put into the page with ``page.evaluate`` (what ``Axe.run`` does): Playwright's evaluate runs in
the page's isolated world and is not subject to the strict CSP (``script-src 'self'``), which
would refuse ``page.add_script_tag``. So the pages are checked under the CSP they really ship,
without ``bypass_csp``.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe

from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE = "/compare/vendors/amd-instinct/aws-trainium/cerebras/google-tpu/nvidia/"

# address -> (expected status, a selector that shows the page has finished drawing)
PAGES = {
    "/": (200, "table.rankings"),
    "/?w-performance=3&w-momentum-2026=0": (200, "td.yours"),
    "/vendors/": (200, ".cards"),
    "/vendors/?lane=merchant-gpu&lane=hyperscaler-custom-silicon&min_total=15": (200, "main h1"),
    "/vendors/aws-trainium/": (200, "table.scores"),
    "/vendors/aws-trainium/changes/": (200, "main h1"),
    "/vendors/aws-trainium/v/1/": (200, "table.scores"),
    "/lanes/": (200, "main h1"),
    "/lanes/merchant-gpu/": (200, "main h1"),
    "/compare/": (200, "main h1"),
    "/compare/google-tpu-vs-aws-trainium-vs-nvidia-gpu/": (200, "table.compare"),
    FIVE: (200, "table.compare"),
    "/search/?q=HBM3e": (200, "main h1"),
    "/data/": (200, "table.downloads"),
    "/api/v1/docs/": (200, ".opblock"),  # drawn by Swagger UI's script
    "/no-such-page/": (404, "main h1"),
}


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
    found = []
    for path, (status, ready) in PAGES.items():
        response = page.goto(path)
        assert response.status == status, path
        page.wait_for_selector(ready)
        results = axe.run(page)
        found += describe(path, results.response["violations"])
    assert found == [], f"axe violations at {width} px:\n" + "\n".join(found)
    # The one error a page may log is the 404 page's own status.
    assert [error for error in watcher.console_errors if "status of 404" not in error] == []
