"""Uploaded logos in production: served by the app with DEBUG off, and removed once nothing
shows them (never while a page, a published version or a kept revision still does)."""

import datetime as dt
import io

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.utils import timezone

from tests import factories as f
from tests.vendors.test_admin import image_bytes, same_vendor, upload
from vendors.media import GRACE, delete_unreferenced_logos
from vendors.models import Vendor

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(media_root):
    def store(name, content=b"\x89PNG fake"):
        return default_storage.save(name, ContentFile(content))

    return store


def later():
    """A moment past the grace period of every file written so far."""
    return timezone.now() + GRACE + dt.timedelta(minutes=1)


def test_a_logo_is_served_by_the_app_with_debug_off(client, settings, stored):
    settings.DEBUG = False
    name = stored("logos/abc123.png", b"png bytes")
    response = client.get(f"/media/{name}")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"png bytes"
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize(
    "path",
    ["/media/notes.txt", "/media/logos/missing.png", "/media/logos/../notes.txt", "/media/logos//x.png"],
)
def test_only_existing_logos_are_served(client, stored, path):
    stored("notes.txt", b"private")
    assert client.get(path).status_code == 404


def test_a_logo_replaced_before_publishing_goes_once_its_revisions_do(admin_client, media_root):
    vendor = f.make_vendor()
    admin_client.post(
        f.admin_change_url(vendor), {**same_vendor(vendor), "logo": upload("a.png", image_bytes())}
    )
    first = Vendor.objects.get().logo.name
    vendor.refresh_from_db()
    admin_client.post(
        f.admin_change_url(vendor), {**same_vendor(vendor), "logo": upload("b.png", image_bytes())}
    )
    second = Vendor.objects.get().logo.name

    assert delete_unreferenced_logos(now=later()) == []  # the first revision still names it
    call_command("prune_revisions", days=0, keep=1, stdout=io.StringIO())
    assert delete_unreferenced_logos(now=later()) == [first]
    assert not default_storage.exists(first) and default_storage.exists(second)


def test_a_published_logo_stays_after_it_is_replaced_and_its_revisions_pruned(admin_client, media_root):
    vendor = f.make_vendor()
    admin_client.post(
        f.admin_change_url(vendor), {**same_vendor(vendor), "logo": upload("a.png", image_bytes())}
    )
    vendor.refresh_from_db()
    published = vendor.logo.name
    f.publish(vendor)
    admin_client.post(f.admin_change_url(vendor), {**same_vendor(vendor), "logo-clear": "on"})
    assert Vendor.objects.get().logo.name == ""

    call_command("prune_revisions", days=0, keep=1, stdout=io.StringIO())
    assert delete_unreferenced_logos(now=later()) == []  # the published version shows it
    assert default_storage.exists(published)


def test_a_logo_from_a_form_never_saved_goes_after_the_grace_period(stored):
    orphan = stored("logos/never-saved.png")
    assert delete_unreferenced_logos() == []  # a save may still be in progress
    assert delete_unreferenced_logos(now=later(), dry_run=True) == [orphan]
    assert default_storage.exists(orphan)
    assert delete_unreferenced_logos(now=later()) == [orphan]
    assert not default_storage.exists(orphan)
