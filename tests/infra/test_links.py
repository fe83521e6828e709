"""Every page's header and footer links ({% link %}, reversed once a process): they follow the
prefix the site is served under (a WSGI server's SCRIPT_NAME), as Django's {% url %} does."""

import pytest
from django.urls import clear_script_prefix, set_script_prefix

pytestmark = pytest.mark.django_db

NAV = ('href="{}/vendors/">Vendors</a>', 'href="{}/chips/">Chips</a>', 'action="{}/search/"')


def nav_links(page, prefix):
    return [link.format(prefix) in page for link in NAV]


def test_the_header_links_follow_the_prefix_the_site_is_served_under_and_back(client):
    plain = client.get("/search/", {"q": "chip"}).content.decode()
    # Django's test client sets no prefix from SCRIPT_NAME, as its WSGI handler does per request.
    set_script_prefix("/chipsite/")
    try:
        mounted = client.get("/search/", {"q": "chip"}).content.decode()
    finally:
        clear_script_prefix()
    again = client.get("/search/", {"q": "tpu"}).content.decode()
    assert (nav_links(plain, ""), nav_links(mounted, "/chipsite"), nav_links(again, "")) == (
        [True] * 3,
        [True] * 3,
        [True] * 3,
    )
