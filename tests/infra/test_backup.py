"""backup and restore: the demo with a logo round-trips into an empty database and media store
with every row, citation, revision and image equal and every public page byte-identical."""

import hashlib
import io
import tarfile

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from reversion.models import Version

from comparisons.models import ComparisonVersion
from infra.backup import EXCLUDED, media_files
from tests.factories import publish
from tests.vendors.test_admin import image_bytes, same_vendor, upload
from vendors.demo import load_demo
from vendors.models import FactCitation, Vendor, VendorVersion

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site(admin_client, media_root):
    """The demo, with a logo uploaded through the admin and published."""
    load_demo()
    vendor = Vendor.objects.get(slug="aws-trainium")
    admin_client.post(
        f"/admin/vendors/vendor/{vendor.pk}/change/",
        {**same_vendor(vendor), "logo": upload("t.png", image_bytes())},
    )
    vendor.refresh_from_db()
    assert vendor.logo.name.startswith("logos/")
    publish(vendor, note="New logo.")
    return vendor


def public_urls():
    urls = ["/", "/vendors/", "/lanes/", "/compare/"]
    for version in VendorVersion.objects.live():
        urls += [version.get_absolute_url(), f"{version.get_absolute_url()}changes/"]
    urls += [version.get_absolute_url() for version in ComparisonVersion.objects.live()]
    urls += [
        f"/lanes/{slug}/" for slug in apps.get_model("vendors", "Lane").objects.values_list("slug", flat=True)
    ]
    return urls


def by_natural_keys(model, row):
    """A row with its content-type references as (app, model): a restore rebuilds content types,
    and the numbers they get are the database's business."""
    for field in model._meta.concrete_fields:
        if field.is_relation and field.related_model is ContentType and row.get(field.attname):
            row[field.attname] = ContentType.objects.get_for_id(row[field.attname]).natural_key()
    return row


def snapshot(client):
    """Every row of every model the backup holds, every stored file, every public page."""
    rows = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if model._meta.proxy or label.split(".")[0] in EXCLUDED or label in EXCLUDED:
            continue
        if label in {"auth.permission", "contenttypes.contenttype"} or model._meta.app_label in {
            "sessions",
            "axes",
        }:
            continue
        rows[label] = [by_natural_keys(model, row) for row in model._default_manager.order_by("pk").values()]
    files = {}
    for name in media_files():
        with default_storage.open(name, "rb") as handle:
            files[name] = hashlib.sha256(handle.read()).hexdigest()
    pages = {}
    for url in public_urls():
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = response.content
    return rows, files, pages


def wipe(media_root):
    call_command("flush", interactive=False, verbosity=0)
    for name in media_files():
        default_storage.delete(name)


def test_a_backup_restores_into_an_empty_site_identical(site, client, media_root, tmp_path):
    before = snapshot(client)
    archive = tmp_path / "site.tar.gz"
    call_command("backup", str(archive), stdout=io.StringIO())
    digest, name = (tmp_path / "site.tar.gz.sha256").read_text().split()
    assert name == "site.tar.gz" and digest == hashlib.sha256(archive.read_bytes()).hexdigest()

    wipe(media_root)
    assert not Vendor.objects.exists() and media_files() == []
    call_command("restore", str(archive), stdout=io.StringIO())

    after = snapshot(client)
    assert after[0] == before[0]  # every row: vendors, facts, citations, versions, revisions
    assert after[1] == before[1] and len(after[1]) == 1  # the logo, byte for byte
    assert after[2] == before[2]  # every public page, byte for byte
    assert FactCitation.objects.exists() and Version.objects.exists()


def test_restore_refuses_a_site_that_is_not_empty_unless_forced(site, tmp_path):
    archive = tmp_path / "site.tar.gz"
    call_command("backup", str(archive), stdout=io.StringIO())
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(archive), stdout=io.StringIO())
    Vendor.objects.filter(slug="groq").update(name="Changed here")
    call_command("restore", str(archive), force=True, stdout=io.StringIO())
    assert Vendor.objects.get(slug="groq").name == "Groq"


def test_restore_refuses_a_damaged_archive_and_changes_nothing(site, tmp_path):
    archive = tmp_path / "site.tar.gz"
    call_command("backup", str(archive), stdout=io.StringIO())
    damaged = tmp_path / "damaged.tar.gz"
    with tarfile.open(archive) as source, tarfile.open(damaged, "w:gz") as target:
        for member in source.getmembers():
            content = source.extractfile(member).read()
            if member.name == "data.json":
                content = content.replace(b"Groq", b"Grok")
            member.size = len(content)
            target.addfile(member, io.BytesIO(content))
    count = Vendor.objects.count()
    with pytest.raises(CommandError, match="damaged: the checksum of data.json"):
        call_command("restore", str(damaged), force=True, stdout=io.StringIO())
    assert Vendor.objects.count() == count and Vendor.objects.filter(slug="groq").exists()
