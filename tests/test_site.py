"""What every public page owes a visitor: its own title and description, one h1, a strict CSP."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.views.defaults import server_error

from tests.factories import inline_scripts
from vendors.demo import load_demo

pytestmark = pytest.mark.django_db

CHANGE_LOG_URL = "/vendors/aws-trainium/changes/"  # public since published versions
PUBLIC_URLS = [
    "/",
    "/vendors/",
    "/vendors/aws-trainium/",
    "/vendors/google-tpu/",
    "/lanes/",
    "/lanes/inference-specialist/",
    CHANGE_LOG_URL,
]


@pytest.fixture
def pages(client):
    load_demo()
    return {url: client.get(url) for url in PUBLIC_URLS}


def test_every_page_has_its_own_title_description_canonical_and_one_h1(pages):
    titles, descriptions = set(), set()
    for url, response in pages.items():
        assert response.status_code == 200, url
        html = response.content.decode()
        title = re.search(r"<title>(.+?)</title>", html).group(1)
        description = re.search(r'<meta name="description" content="([^"]+)">', html).group(1)
        assert f'<link rel="canonical" href="http://testserver{url}">' in html
        assert f'<meta property="og:title" content="{title}">' in html
        assert '<meta property="og:description"' in html
        assert len(re.findall(r"<h1[\s>]", html)) == 1, url
        for landmark in ("<header", "<nav", "<main", "<footer"):
            assert landmark in html, (url, landmark)
        titles.add(title)
        descriptions.add(description)
    assert len(titles) == len(pages)
    assert len(descriptions) == len(pages)


def assert_headings_never_skip_a_level(url, response):
    levels = [int(n) for n in re.findall(r"<h([1-6])[\s>]", response.content.decode())]
    assert levels and levels[0] == 1, (url, levels)
    for before, after in zip(levels, levels[1:], strict=False):
        assert after <= before + 1, (url, levels)


def test_headings_never_skip_a_level(pages):
    for url, response in pages.items():
        assert_headings_never_skip_a_level(url, response)


def test_strict_content_security_policy_and_nothing_from_other_hosts(pages):
    for url, response in pages.items():
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy
        html = response.content.decode()
        assert inline_scripts(html) == [], url
        assert "style=" not in html and "<style" not in html, url
        # Links out to cited sources are fine; nothing may be loaded from another host.
        for tag in re.findall(r"<(?:link|script|img|source|iframe)\b[^>]*>", html):
            if 'rel="canonical"' not in tag:
                assert not re.search(r'(?:src|href)="(?:https?:)?//', tag), (url, tag)


def test_templates_carry_no_inline_script_or_style():
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = path.read_text()
        assert "style=" not in text and "<style" not in text, path
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), path


def test_404_page_is_in_the_site_design(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "<h1>Page not found</h1>" in html
    assert "/static/css/site.css" in html
    assert 'href="/vendors/"' in html


def test_500_page_is_in_the_site_design():
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong" in html
    assert "/static/css/site.css" in html
