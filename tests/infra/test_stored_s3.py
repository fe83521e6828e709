"""Stored pages in an S3 bucket (STORED_PAGES_BUCKET, django-storages' S3Storage), against
moto's S3 server run as a process of its own on loopback: the requests boto3 sends are the
ones it would send to AWS, over HTTP."""

import gzip
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import boto3
import pytest
from django.core.cache import cache
from django.core.management import call_command

from infra.stored import meta_name, store
from tests.factories import make_fact, make_vendor, publish
from vendors.models import Fact

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REGION = "us-east-1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def s3_endpoint(tmp_path_factory):
    """moto's S3 server, started once for this file and stopped after it."""
    port = _free_port()
    log = tmp_path_factory.mktemp("moto") / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                pytest.fail(f"moto's server exited ({server.returncode}): {log.read_text()}")
            try:
                with urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=1):
                    break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline:
                    pytest.fail(f"moto's server did not answer within 30 s: {log.read_text()}")
                time.sleep(0.05)
        yield endpoint
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture
def bucket(s3_endpoint, settings, monkeypatch):
    """A bucket of this test's own as the page store, for the test client's address. The
    credentials come from the environment, as boto3 finds them on a server."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_CONFIG_FILE", os.devnull)  # no developer's profile or region
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", os.devnull)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    name = f"pages-{uuid.uuid4().hex[:12]}"
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name=REGION)
    client.create_bucket(Bucket=name)
    settings.STORED_PAGES_ENABLED = True
    settings.SITE_URL = "http://testserver"
    settings.STORAGES = {
        **settings.STORAGES,
        "pages": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": name,
                "endpoint_url": s3_endpoint,
                "region_name": REGION,
                "location": "",
                "file_overwrite": True,
                "querystring_auth": False,
                "default_acl": None,
            },
        },
    }
    store.copies.clear()
    cache.clear()
    yield Bucket(client, name)
    store.copies.clear()
    cache.clear()


class Bucket:
    def __init__(self, client, name):
        self.client, self.name = client, name

    def get(self, key):
        return self.client.get_object(Bucket=self.name, Key=key)

    def object_keys(self):
        listed = self.client.list_objects_v2(Bucket=self.name)
        return {item["Key"] for item in listed.get("Contents", [])}


def published_vendor():
    vendor = make_vendor(published=False)
    fact = make_fact(vendor=vendor, value="Ships in 2027")
    publish(vendor)
    return vendor, fact


def test_publishing_a_vendor_puts_its_profile_in_the_bucket_as_the_visitor_is_served_it(bucket, visitor):
    vendor, _ = published_vendor()
    stored = bucket.get(f"vendors/{vendor.slug}/index.html")
    response = visitor.get(f"/vendors/{vendor.slug}/")
    assert response.status_code == 200
    assert response["X-Stored-Page"] == "hit"
    body = stored["Body"].read()
    assert body == response.content
    assert "Ships in 2027" in body.decode()
    assert stored["ContentType"] == response["Content-Type"]  # a static website answers with it
    assert meta_name(f"/vendors/{vendor.slug}/") in bucket.object_keys()  # what the servers read


def test_a_later_publish_replaces_the_profile_in_the_bucket_and_its_etag(bucket, visitor):
    vendor, fact = published_vendor()
    key, path = f"vendors/{vendor.slug}/index.html", f"/vendors/{vendor.slug}/"
    before, stored_before = visitor.get(path), bucket.get(key)
    Fact.objects.filter(pk=fact.pk).update(value="Ships in 2028")
    publish(vendor)
    stored = bucket.get(key)
    body = stored["Body"].read()
    assert body != stored_before["Body"].read()
    assert "Ships in 2028" in body.decode()  # the profile, and its change log: 2027 -> 2028
    assert stored["ETag"] != stored_before["ETag"]
    after = visitor.get(path)
    assert after["X-Stored-Page"] == "hit"
    assert after.content == body
    assert after["ETag"] != before["ETag"]


def test_a_new_app_server_answers_from_the_bucket_without_a_query(bucket, visitor, django_assert_num_queries):
    vendor, _ = published_vendor()
    body = bucket.get(f"vendors/{vendor.slug}/index.html")["Body"].read()
    cache.clear()  # nothing in the cache, no copy in this process: only the bucket has it
    store.copies.clear()
    with django_assert_num_queries(0):
        response = visitor.get(f"/vendors/{vendor.slug}/")
    assert response.status_code == 200
    assert response["X-Stored-Page"] == "hit"
    assert response.content == body


def test_export_site_writes_the_bytes_in_the_bucket_into_a_folder(bucket, visitor, tmp_path):
    vendor, _ = published_vendor()
    out = tmp_path / "export"
    call_command("export_site", str(out))
    key = f"vendors/{vendor.slug}/index.html"
    exported = (out / key).read_bytes()
    assert exported == bucket.get(key)["Body"].read()
    assert exported == visitor.get(f"/vendors/{vendor.slug}/").content
    assert not (out / ".meta").exists()
    # A bucket keeps no gzip beside a page (a CDN compresses for itself); the folder, for nginx, does.
    assert key in bucket.object_keys() and f"{key}.gz" not in bucket.object_keys()
    assert gzip.decompress((out / f"{key}.gz").read_bytes()) == exported


def test_a_bucket_named_in_the_environment_is_the_page_store():
    """settings.py read in a fresh process, as a server starts with these variables."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DEBUG": "1",
        "SECRET_KEY": "test-only-secret-key",
        "STORED_PAGES_BUCKET": "chipsite-pages",
        "STORED_PAGES_S3_ENDPOINT_URL": "http://127.0.0.1:9000",
        "STORED_PAGES_S3_REGION": "eu-west-1",
        "STORED_PAGES_S3_PREFIX": "/site/",
    }
    script = "import json; from chipsite import settings; print(json.dumps(settings.STORAGES['pages']))"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": "chipsite-pages",
            "endpoint_url": "http://127.0.0.1:9000",
            "region_name": "eu-west-1",
            "location": "site",
            "file_overwrite": True,
            "querystring_auth": False,
            "default_acl": None,
        },
    }
