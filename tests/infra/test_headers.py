"""What every answer carries for a browser: pages, static files, logos and the read API.

Aimed at Mozilla's HTTP Observatory: a CSP, nosniff, a referrer policy, a resource policy and
HSTS over HTTPS, on files served as they are as well as on pages.
"""

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

pytestmark = pytest.mark.django_db

STATIC_CSS = "/static/css/site.css"


@pytest.fixture(autouse=True)
def static_from_the_finders(settings):
    """whitenoise finds files as on a laptop (no collectstatic); pytest-django turns DEBUG off,
    which would leave it only STATIC_ROOT. Read when a client builds its middleware."""
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True


def test_a_page_may_not_be_loaded_into_another_sites_page(client):
    response = client.get("/vendors/")
    assert response.status_code == 200
    assert response["Cross-Origin-Resource-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_a_static_file_carries_its_own_policy_nosniff_and_the_resource_policy(client):
    response = client.get(STATIC_CSS)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")
    assert response["X-Content-Type-Options"] == "nosniff"
    policy = response["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "sandbox" in policy and "frame-ancestors 'none'" in policy
    assert response["Cross-Origin-Resource-Policy"] == "same-origin"
    assert response["Referrer-Policy"] == "same-origin"


def test_a_static_file_over_https_carries_hsts(client, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    response = client.get(STATIC_CSS, secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


def test_a_logo_carries_a_policy_nosniff_and_may_be_shown_by_other_sites(client, media_root):
    name = default_storage.save("logos/abc123.png", ContentFile(b"\x89PNG fake"))
    response = client.get(f"/media/{name}")
    assert response.status_code == 200
    assert response["X-Content-Type-Options"] == "nosniff"
    policy = response["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "sandbox" in policy
    # The API gives other sites logo addresses to show as images.
    assert response["Cross-Origin-Resource-Policy"] == "cross-origin"


def test_the_read_api_may_be_read_by_any_origin(client):
    response = client.get("/api/v1/vendors/", headers={"Origin": "https://elsewhere.example"})
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Cross-Origin-Resource-Policy"] == "cross-origin"
