"""JSON-LD is data, not script: Chromium reads it under the strict CSP and reports no violation."""

import json

import pytest

from vendors.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Installed by the browser before any page script; it records what the CSP refused.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""

PAGES = {
    "/": "ItemList",
    "/vendors/aws-trainium/": "WebPage",  # about the Product, reviewed by the site
    "/compare/google-tpu-vs-aws-trainium-vs-nvidia-gpu/": "ItemList",
    "/vendors/": "BreadcrumbList",
    "/lanes/": "BreadcrumbList",
    "/compare/": "BreadcrumbList",
}


def test_every_page_type_serves_json_ld_that_the_csp_lets_through(open_page):
    load_demo()
    page, watcher = open_page()
    page.add_init_script(RECORD_VIOLATIONS)

    for path, first_type in PAGES.items():
        response = page.goto(path)
        assert "script-src 'self'" in response.headers["content-security-policy"]
        blocks = page.locator('script[type="application/ld+json"]').all_text_contents()
        assert len(blocks) == 1, path
        types = [item["@type"] for item in json.loads(blocks[0])]
        assert types[0] == first_type and "BreadcrumbList" in types, path
        assert page.evaluate("window.__cspViolations") == [], path
    # A page's icon may still be loading when the next goto leaves it: the browser cancels it.
    watcher.assert_clean(aborted_under=("/static/",))
