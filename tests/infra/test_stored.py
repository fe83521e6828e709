"""Stored pages (infra/stored/): rendered when what they show changes, served as bytes,
also while the database is away, and written out as the export."""

import datetime as dt
import re
import time
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import OperationalError, connections
from django.test import Client
from django.test.signals import template_rendered
from django.utils import timezone

from infra.models import StoredPage
from infra.stored import store
from infra.stored.keys import own_key
from vendors.models import Fact, Vendor

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def templates_rendered():
    names = []

    def note(sender, template, **kwargs):
        names.append(template.name)

    template_rendered.connect(note)
    try:
        yield names
    finally:
        template_rendered.disconnect(note)


@pytest.fixture
def demo(stored_pages):
    """A small site of four scored vendors in two lanes with cited facts, and a comparison;
    every page stored as the worker's sweep (or ``load_demo``) stores them."""
    from django.utils import timezone

    from infra.stored import render_expired
    from tests.factories import (
        make_attribute,
        make_axis,
        make_comparison,
        make_fact,
        make_lane,
        make_score,
        make_source,
        make_vendor,
        publish,
    )

    lanes = {
        "hyperscaler": make_lane(name="hyperscaler custom silicon", slug="hyperscaler-custom-silicon"),
        "inference": make_lane(name="inference specialist", slug="inference-specialist"),
    }
    memory, axis = (
        make_attribute(name="Memory", slug="memory"),
        make_axis(name="Performance", slug="performance"),
    )
    vendors = {}
    for slug, name, lane in (
        ("aws-trainium", "AWS Trainium", "hyperscaler"),
        ("google-tpu", "Google TPU", "hyperscaler"),
        ("groq", "Groq", "inference"),
        ("cerebras", "Cerebras", "inference"),
    ):
        vendor = vendors[slug] = make_vendor(slug=slug, name=name, lane=lanes[lane], published=False)
        source = make_source(title=f"{name} data sheet")
        make_fact(
            vendor=vendor,
            attribute=memory,
            value=f"{name} memory",
            sources=[source],
            verified_on=timezone.localdate(),
        )
        make_score(vendor=vendor, axis=axis, value=3, sources=[source])
        publish(vendor)
    make_comparison(
        title="Cerebras vs Groq", slug="cerebras-vs-groq", vendors=[vendors["cerebras"], vendors["groq"]]
    )
    render_expired.call()
    return stored_pages


def publish_groq_fact():
    from editorial import services

    groq = Vendor.objects.get(slug="groq")
    fact = groq.facts.order_by("pk").first()
    Fact.objects.filter(pk=fact.pk).update(value=fact.value + " (checked)")
    services.publish(obj=groq, user=None, note="A fact reworded.")
    return groq


def test_after_a_publish_the_first_visitor_gets_stored_bytes_and_no_template_is_rendered(demo, visitor):
    groq = publish_groq_fact()
    lane = f"/lanes/{groq.lane.slug}/"
    for path in ("/vendors/groq/", lane, "/"):
        with templates_rendered() as names:
            response = visitor.get(path)
        assert response.status_code == 200
        assert response["X-Stored-Page"] == "hit", path
        assert names == [], path
    assert "(checked)" in visitor.get("/vendors/groq/").content.decode()


def test_a_fact_change_renders_the_vendors_own_pages_and_never_the_whole_site(demo):
    before = dict(StoredPage.objects.values_list("path", "rendered_at"))
    groq = publish_groq_fact()
    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = sorted(path for path in before if after.get(path) != before[path])
    own = [
        "/api/v1/vendors/groq/",
        "/api/v1/vendors/groq/versions/",
        "/data/vendors/groq.csv",
        "/data/vendors/groq.json",
        "/vendors/groq/",
        "/vendors/groq/changes/",
        "/vendors/groq/feed/",
    ]
    assert set(own) <= set(again)
    assert f"/lanes/{groq.lane.slug}/feed/" in again and "/feeds/changes/" in again
    assert not any(path.startswith("/vendors/") and "/groq/" not in path for path in again)
    # Beyond its own pages: its comparison, the feeds, what is built from every live version (the
    # downloads' index, the chips' downloads, the whole-site file: with no worker, the publish's
    # render builds them), and the sitemap's pages that date it (profile, change log, lane, lists).
    others = [
        path
        for path in again
        if "groq" not in path and not path.startswith(("/feeds/", f"/lanes/{groq.lane.slug}/feed/"))
    ]
    assert others == [
        "/data/",
        "/data/chips.csv",
        "/data/chips.json",
        "/data/chipsite.json",
        "/data/prices.csv",
        "/data/prices.json",
        "/data/results.csv",
        "/data/results.json",
        "/sitemap-changes-1.xml",
        "/sitemap-lanes-1.xml",
        "/sitemap-lists-1.xml",
        "/sitemap-profiles-1.xml",
    ]  # and nothing else: not the whole site


def test_a_fact_change_renders_again_only_the_page_of_the_sitemap_that_dates_the_vendor(
    stored_pages, visitor, monkeypatch
):
    from discovery import sitemaps
    from infra.stored import render_expired
    from tests.factories import make_fact, make_vendor, publish

    monkeypatch.setattr(sitemaps.PagedSitemap, "limit", 1)  # a vendor a page: cerebras 1, groq 2
    for slug in ("cerebras", "groq"):
        make_fact(vendor=make_vendor(slug=slug, name=slug.title(), published=False), value="A value")
        publish(Vendor.objects.get(slug=slug))
    render_expired.call()
    assert "/vendors/groq/" in visitor.get("/sitemap-profiles-2.xml").content.decode()
    before = dict(StoredPage.objects.values_list("path", "rendered_at"))

    groq = publish_groq_fact()

    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = {path for path in before if after[path] != before[path]}
    assert {"/sitemap-profiles-2.xml", "/sitemap-changes-2.xml"} <= again
    assert not again & {"/sitemap-profiles-1.xml", "/sitemap-changes-1.xml"}  # they name cerebras
    day = timezone.localdate(groq.versions.live().get().published_at).isoformat()
    assert f"<lastmod>{day}</lastmod>" in visitor.get("/sitemap-profiles-2.xml").content.decode()


def test_a_new_verified_date_renders_one_page_of_the_sitemap_and_a_new_vendor_every_later_one(
    stored_pages, visitor, monkeypatch
):
    from discovery import sitemaps
    from infra.stored import render_expired
    from tests.factories import make_fact, make_superuser, make_vendor, publish
    from vendors.services import mark_verified

    monkeypatch.setattr(sitemaps.PagedSitemap, "limit", 1)  # a vendor a page: cerebras 1, groq 2
    for slug in ("cerebras", "groq"):
        make_fact(
            vendor=make_vendor(slug=slug, name=slug.title(), published=False), verified_on=dt.date(2026, 1, 5)
        )
        publish(Vendor.objects.get(slug=slug))
    render_expired.call()
    before = dict(StoredPage.objects.values_list("path", "rendered_at"))

    mark_verified(user=make_superuser(), vendors=Vendor.objects.filter(slug="groq"))

    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = {path for path in before if after[path] != before[path]}
    assert {"/vendors/", "/sitemap-profiles-2.xml", "/sitemap-changes-2.xml"} <= again  # the date moved
    # Cerebras's pages of the sitemap list the same vendors at the same addresses as before.
    assert not again & {"/sitemap-profiles-1.xml", "/sitemap-changes-1.xml"}

    make_fact(vendor=make_vendor(slug="a-first", name="A First", published=False))
    publish(Vendor.objects.get(slug="a-first"))  # live, and first by address: every page moves

    assert "/vendors/cerebras/" in visitor.get("/sitemap-profiles-2.xml").content.decode()
    assert "/vendors/groq/changes/" in visitor.get("/sitemap-changes-3.xml").content.decode()


def test_a_change_to_groq_leaves_trainiums_profile_unrendered_and_its_etag_as_it_was(demo, visitor):
    before = visitor.get("/vendors/aws-trainium/")
    rendered_at = StoredPage.objects.get(path="/vendors/aws-trainium/").rendered_at
    publish_groq_fact()
    after = visitor.get("/vendors/aws-trainium/")
    assert after["ETag"] == before["ETag"]
    assert StoredPage.objects.get(path="/vendors/aws-trainium/").rendered_at == rendered_at
    assert StoredPage.objects.get(path="/vendors/groq/").rendered_at > rendered_at


def test_a_verification_renders_the_lists_but_no_other_profile_whose_alternatives_show_no_date(demo):
    from editorial import services
    from tests.factories import make_superuser
    from vendors.services import mark_verified

    Fact.objects.filter(vendor__slug="groq").update(verified_on="2026-01-05")
    services.publish(obj=Vendor.objects.get(slug="groq"), user=None, note="An old check.")
    before = dict(StoredPage.objects.values_list("path", "rendered_at"))
    mark_verified(user=make_superuser(), vendors=Vendor.objects.filter(slug="groq"))
    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = {path for path in before if after.get(path) != before[path]}
    assert {"/vendors/groq/", "/", "/lanes/inference-specialist/"} <= again  # its page, its dates
    # Every other profile lists Groq among its alternatives, by name: no date is on its card.
    assert not {"/vendors/aws-trainium/", "/vendors/google-tpu/", "/vendors/cerebras/"} & again


def test_a_new_name_renders_every_profile_that_lists_it_among_its_alternatives(demo, visitor):
    from editorial import services

    groq = Vendor.objects.get(slug="groq")
    Vendor.objects.filter(pk=groq.pk).update(name="Groq Inc")
    services.publish(obj=Vendor.objects.get(pk=groq.pk), user=None, note="Renamed.")
    for slug in ("aws-trainium", "cerebras"):
        page = visitor.get(f"/vendors/{slug}/").content.decode()
        section = page[page.index('id="alternatives"') :]
        assert ">Groq Inc</a>" in section, slug


def test_a_stored_page_carries_its_keys_for_a_cdn_and_may_be_served_stale_on_error(demo, visitor):
    response = visitor.get("/vendors/aws-trainium/")
    trainium = Vendor.objects.get(slug="aws-trainium")
    assert f"vendor-{trainium.pk}" in response["Surrogate-Key"].split()
    assert f"vendor-{trainium.pk}" in response["Cache-Tag"].split(",")
    assert "stale-if-error=86400" in response["Cache-Control"]
    assert visitor.get("/vendors/aws-trainium/", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_a_stored_page_is_compressed_once_per_process_and_anew_once_it_is_rendered_again(
    demo, visitor, monkeypatch
):
    import gzip

    import brotli

    from infra import compression

    monkeypatch.setattr(compression.PublicGZipMiddleware, "encoded", compression.Encoded(limit=1024 * 1024))
    made = []
    real_brotli, real_gzip = brotli.compress, compression.compress_string
    monkeypatch.setattr(brotli, "compress", lambda *a, **k: made.append("brotli") or real_brotli(*a, **k))
    monkeypatch.setattr(
        compression, "compress_string", lambda *a, **k: made.append("gzip") or real_gzip(*a, **k)
    )
    plain = visitor.get("/vendors/groq/").content
    for coding, decompress in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        first, second = (visitor.get("/vendors/groq/", headers={"accept-encoding": coding}) for _ in range(2))
        for response in (first, second):
            assert response["X-Stored-Page"] == "hit"
            assert response["Content-Encoding"] == coding
            assert response["ETag"].startswith('W/"')
            assert decompress(response.content) == plain
    assert made == ["brotli", "gzip"]

    publish_groq_fact()
    again = visitor.get("/vendors/groq/", headers={"accept-encoding": "br"})
    assert "(checked)" in brotli.decompress(again.content).decode()
    assert made == ["brotli", "gzip", "brotli"]


def test_a_stored_page_has_beside_it_the_gzip_the_server_sends_and_a_publish_replaces_both(
    demo, visitor, stored_pages
):
    import gzip

    page, beside = stored_pages / "vendors/groq/index.html", stored_pages / "vendors/groq/index.html.gz"
    assert gzip.decompress(beside.read_bytes()) == page.read_bytes()
    publish_groq_fact()
    assert "(checked)" in page.read_text()
    assert gzip.decompress(beside.read_bytes()) == page.read_bytes()
    # What nginx's gzip_static sends a browser is what Django sends it: the same bytes.
    sent = visitor.get("/vendors/groq/", headers={"accept-encoding": "gzip"})
    assert sent["Content-Encoding"] == "gzip"
    assert sent.content == beside.read_bytes()


def test_a_page_too_small_to_compress_takes_away_the_gzip_its_larger_page_had(tmp_path):
    import gzip

    from infra.stored import AtomicFileSystemStorage, save_page

    folder = AtomicFileSystemStorage(location=tmp_path)
    large, small = b"<p>230 MB of SRAM on the chip</p>\n" * 40, b"<p>gone</p>"
    save_page(folder, "vendors/x/index.html", large)
    assert gzip.decompress((tmp_path / "vendors/x/index.html.gz").read_bytes()) == large
    save_page(folder, "vendors/x/index.html", small)
    assert (tmp_path / "vendors/x/index.html").read_bytes() == small
    assert not (tmp_path / "vendors/x/index.html.gz").exists()


def test_a_render_that_changes_nothing_writes_neither_the_page_nor_its_gzip_again(
    demo, visitor, stored_pages
):
    import gzip

    from infra.stored import render_showing

    groq = Vendor.objects.get(slug="groq")
    page, beside = stored_pages / "vendors/groq/index.html", stored_pages / "vendors/groq/index.html.gz"
    files = {path: path.stat().st_ino for path in (page, beside)}
    render_showing.call([f"vendor-{groq.pk}"], [])
    assert {path: path.stat().st_ino for path in files} == files
    served = visitor.get("/vendors/groq/", headers={"accept-encoding": "identity"})
    assert served["X-Stored-Page"] == "hit" and served.content == page.read_bytes()
    # A page whose file is not what the render made, or whose gzip is gone, is written again.
    page.write_bytes(b"<p>not the page the server renders</p>" * 20)
    beside.unlink()
    render_showing.call([f"vendor-{groq.pk}"], [])
    assert page.read_bytes() == served.content
    assert gzip.decompress(beside.read_bytes()) == served.content


def test_the_export_takes_a_pages_gzip_only_if_it_holds_that_page(demo, stored_pages, tmp_path):
    import gzip

    out = tmp_path / "export"
    profile = "vendors/aws-trainium/index.html"
    # As if a render had replaced the store's gzip between the export's reading the page and it.
    (stored_pages / f"{profile}.gz").write_bytes(gzip.compress(b"<p>another page</p>" * 20))
    call_command("export_site", str(out))
    assert gzip.decompress((out / f"{profile}.gz").read_bytes()) == (out / profile).read_bytes()


def test_the_export_links_the_stores_files_and_keeps_its_bytes_when_the_store_renders_again(
    demo, stored_pages, tmp_path
):
    out = tmp_path / "export"
    call_command("export_site", str(out))
    profile = "vendors/groq/index.html"
    exported, beside = (out / profile).read_bytes(), (out / f"{profile}.gz").read_bytes()
    # One file system: the export's page and gzip are the store's, linked, not written again.
    assert (out / profile).stat().st_ino == (stored_pages / profile).stat().st_ino
    assert (out / f"{profile}.gz").stat().st_ino == (stored_pages / f"{profile}.gz").stat().st_ino
    publish_groq_fact()
    assert "(checked)" in (stored_pages / profile).read_text()
    assert (out / profile).read_bytes() == exported
    assert (out / f"{profile}.gz").read_bytes() == beside


def test_compressed_stored_pages_beyond_their_limit_drop_the_least_recently_used():
    from infra.compression import Encoded

    kept = Encoded(limit=10)
    for etag in ("a", "b"):
        kept.get((etag, "br"), lambda: b"12345")
    kept.get(("a", "br"), lambda: b"never")  # "a" used again: "b" is now the oldest
    kept.get(("c", "br"), lambda: b"12345")
    assert list(kept.bodies) == [("a", "br"), ("c", "br")]
    assert kept.size == 10
    assert kept.get(("a", "br"), lambda: b"never") == b"12345"


@contextmanager
def database_away():
    """Every query fails as it does when the database file is gone or the server is down."""

    def refuse(*args, **kwargs):
        raise OperationalError("could not connect to server: Connection refused")

    with mock.patch.object(connections["default"], "cursor", side_effect=refuse):
        yield


@pytest.fixture
def visitor_as_server_answers():
    """A visitor who sees what the server sends, a 503 included (not the view's exception)."""
    from django.test import Client

    return Client(raise_request_exception=False)


def test_with_the_database_away_every_published_profile_answers_from_the_store(
    demo, visitor_as_server_answers
):
    visitor = visitor_as_server_answers
    slugs = list(Vendor.objects.values_list("slug", flat=True))
    names = dict(Vendor.objects.values_list("slug", "name"))
    store.copies.clear()  # a server just started: nobody has asked for anything yet
    from django.core.cache import cache

    cache.clear()
    with database_away():
        for slug in slugs:
            response = visitor.get(f"/vendors/{slug}/")
            assert response.status_code == 200, slug
            assert names[slug] in response.content.decode()
        assert visitor.get("/search/?q=trainium").status_code == 503  # dynamic pages cannot answer


def test_a_page_whose_time_has_passed_is_served_stale_when_the_database_is_away(
    demo, visitor_as_server_answers, settings
):
    visitor = visitor_as_server_answers
    settings.RELEASE = "another-release"  # every stored page was made by an older release
    store.copies.clear()
    with database_away():
        response = visitor.get("/vendors/groq/")
    assert response.status_code == 200
    assert response["X-Stored-Page"] == "stale"
    assert "stale-if-error" in response["Cache-Control"]


def test_a_render_that_fails_keeps_the_previous_bytes_and_says_why_in_the_admin(
    demo, visitor, caplog, admin_client
):
    from infra import stored

    before = visitor.get("/vendors/groq/")
    with mock.patch("vendors.views.VendorDetailView.get_context_data", side_effect=RuntimeError("boom")):
        report = stored.render(["/vendors/groq/"])
    assert report.failed == ["/vendors/groq/"]
    page = StoredPage.objects.get(path="/vendors/groq/")
    assert "boom" in page.error
    assert [r.getMessage() for r in caplog.records if r.name == "infra.stored"] == [
        "Stored page /vendors/groq/ not rendered (answered 500: RuntimeError: boom); "
        "the previous one is kept."
    ]
    store.copies.clear()
    assert visitor.get("/vendors/groq/").content == before.content
    listed = admin_client.get("/admin/infra/storedpage/?render=failed").content.decode()
    assert "/vendors/groq/" in listed and "RuntimeError: boom" in listed


def test_export_site_writes_the_served_bytes_and_every_link_of_its_home_page_resolves(
    demo, visitor, tmp_path
):
    out = tmp_path / "export"
    call_command("export_site", str(out))
    profile = out / "vendors" / "aws-trainium" / "index.html"
    assert profile.read_bytes() == visitor.get("/vendors/aws-trainium/").content
    home = (out / "index.html").read_text()
    links = set(re.findall(r'(?:href|src)="(/[^"#?]*)', home))
    assert links
    missing = [link for link in sorted(links) if not _exported(out, link)]
    assert missing == []


@pytest.mark.skipif(connections["default"].vendor == "sqlite", reason="SQLite renders in one process")
def test_a_full_render_in_two_processes_stores_every_page_one_process_would_and_the_same_bytes(
    demo, monkeypatch
):
    from infra import stored
    from infra.stored import rendering

    paths = stored.every_path()
    monkeypatch.setattr(rendering, "RENDERS_PER_PROCESS_AT_LEAST", 1)  # the small site in processes
    monkeypatch.setattr(rendering, "RENDER_CHUNK", 5)
    bytes_before = {path: store.read(path)[1] for path in paths}
    StoredPage.objects.all().delete()
    store.copies.clear()
    in_this_process = []
    real = rendering._render
    monkeypatch.setattr(rendering, "_render", lambda chunk: in_this_process.append(chunk) or real(chunk))

    report = stored.render(paths, jobs=2)

    # The forked processes rendered every address; what they noted stayed theirs.
    assert in_this_process == []
    assert sorted(report.rendered) == sorted(paths) and report.failed == []
    assert set(StoredPage.objects.values_list("path", flat=True)) == set(paths)
    assert {path: store.read(path)[1] for path in paths} == bytes_before


@pytest.mark.skipif(connections["default"].vendor == "sqlite", reason="SQLite renders in one process")
def test_render_processes_have_ended_by_themselves_before_the_pool_is_torn_down(demo, monkeypatch):
    """The task worker notes SIGTERM and carries on (django-tasks' db_worker), and its forks
    inherit that: a pool torn down by signalling its processes can wait on them for good. Each
    has ended on its own, its work done, before the pool's teardown signals anything."""
    from multiprocessing.pool import Pool

    from infra import stored
    from infra.stored import rendering

    monkeypatch.setattr(rendering, "RENDERS_PER_PROCESS_AT_LEAST", 1)
    monkeypatch.setattr(rendering, "RENDER_CHUNK", 5)
    alive_at_teardown = []
    teardown = Pool.terminate

    def noting(pool):
        alive_at_teardown.extend(process.pid for process in pool._pool if process.exitcode is None)
        return teardown(pool)

    monkeypatch.setattr(Pool, "terminate", noting)
    report = stored.render(stored.every_path(), jobs=2)

    assert report.failed == [] and report.rendered + report.unchanged
    assert alive_at_teardown == []


def _write_elsewhere(path: str, body: bytes) -> None:
    """Another process's render storing ``path`` anew (its row in the database left out)."""
    from django.http import HttpResponse

    from infra.models import StoredPage
    from infra.stored.keys import Shown

    StoredPage.record_many = classmethod(lambda cls, entries: None)
    store.write(path, HttpResponse(body), Shown(keys={"vendor-elsewhere"}))


def test_with_redis_a_page_another_process_writes_is_served_anew_at_once_and_other_copies_stay(
    demo, redis_cache, visitor
):
    """Each app server keeps its own copies of stored pages. A render in another process names
    each page on Redis's channel as soon as its file is in place, not when its batch ends: this
    process answers the new bytes while its copies of every other page stay."""
    import multiprocessing

    layer = redis_cache.local
    visitor.get("/vendors/groq/")  # starts this process's listener
    for _ in range(100):
        if layer.subscribed:
            break
        time.sleep(0.02)
    assert layer.subscribed
    for path in ("/vendors/groq/", "/vendors/aws-trainium/"):
        assert visitor.get(path)["X-Stored-Page"] == "hit"
    assert {"/vendors/groq/", "/vendors/aws-trainium/"} <= set(store.copies)
    generation = layer.generation

    connections.close_all()  # the other process opens nothing of this one's
    writer = multiprocessing.get_context("fork").Process(
        target=_write_elsewhere, args=("/vendors/groq/", b"<p>Groq, written elsewhere</p>")
    )
    writer.start()
    writer.join(timeout=30)
    assert writer.exitcode == 0

    for _ in range(100):
        if "/vendors/groq/" not in store.copies:
            break
        time.sleep(0.02)
    answer = visitor.get("/vendors/groq/")
    assert answer.content == b"<p>Groq, written elsewhere</p>"
    assert answer["X-Stored-Page"] == "hit"
    assert "/vendors/aws-trainium/" in store.copies  # this process's other copies are kept
    assert layer.generation == generation  # and nothing else it keeps was dropped


def _exported(root: Path, link: str) -> bool:
    target = root / link.lstrip("/")
    if link.endswith("/"):
        return any((target / name).is_file() for name in ("index.html", "index.xml", "index.json"))
    return target.is_file()


def test_a_render_that_began_before_another_wrote_the_page_leaves_the_newer_page_standing(stored_pages):
    from django.http import HttpResponse

    from infra.stored.keys import Shown

    slow = Shown(keys={"vendor-1"})  # began first: read the document before the publish
    time.sleep(0.01)
    newer = store.write("/vendors/x/", HttpResponse(b"<p>after the publish</p>"), Shown(keys={"vendor-1"}))

    kept = store.write("/vendors/x/", HttpResponse(b"<p>before the publish</p>"), slow)

    assert kept.etag == newer.etag
    assert store.read("/vendors/x/")[1] == b"<p>after the publish</p>"
    assert StoredPage.objects.get(path="/vendors/x/").etag == newer.etag


def test_a_render_batch_indexes_its_pages_as_it_ends_and_leaves_a_page_a_newer_render_indexed(
    stored_pages,
):
    """A render batch writes each page's file at once, and indexes its pages in one go as it
    ends. A page another render wrote and indexed after this batch wrote it keeps that row."""
    from django.http import HttpResponse

    from infra.stored.keys import Shown

    with store.batched():
        store.write("/vendors/x/", HttpResponse(b"<p>x, by the batch</p>"), Shown(keys={"vendor-1"}))
        store.write("/vendors/y/", HttpResponse(b"<p>y, by the batch</p>"), Shown(keys={"vendor-2"}))
        assert store.read("/vendors/x/")[1] == b"<p>x, by the batch</p>"  # its file is in place
        assert not StoredPage.objects.exists()  # its row waits for the batch's end
        time.sleep(0.01)
        newer = store.write(
            "/vendors/y/", HttpResponse(b"<p>y, anew</p>"), Shown(keys={"vendor-2", "lane-3"})
        )
        # ... as another process's render, outside this batch, would have indexed it:
        StoredPage.record_many([newer])

    rows = {row.path: row for row in StoredPage.objects.prefetch_related("keys")}
    assert set(rows) == {"/vendors/x/", "/vendors/y/"}
    assert rows["/vendors/y/"].etag == newer.etag
    assert sorted(key.key for key in rows["/vendors/y/"].keys.all()) == ["lane-3", "vendor-2"]
    assert sorted(key.key for key in rows["/vendors/x/"].keys.all()) == ["vendor-1"]


def test_a_page_written_halfway_leaves_the_previous_file_whole_and_no_temporary_file(stored_pages):
    from django.core.files.base import ContentFile

    from infra.stored import AtomicFileSystemStorage

    storage = AtomicFileSystemStorage(location=stored_pages)
    storage.save("vendors/x/index.html", ContentFile(b"<p>the old page</p>"))

    class DiesHalfway(ContentFile):
        def chunks(self, chunk_size=None):
            yield b"<p>the new pa"
            raise KeyboardInterrupt("the worker is killed")

    with pytest.raises(KeyboardInterrupt):
        storage.save("vendors/x/index.html", DiesHalfway(b""))
    assert (stored_pages / "vendors/x/index.html").read_bytes() == b"<p>the old page</p>"
    assert [path.name for path in (stored_pages / "vendors/x").iterdir()] == ["index.html"]


def test_running_the_same_render_task_twice_renders_the_same_bytes_and_publishes_nothing(demo):
    from infra.stored import DEFERRED, render_showing, showing
    from vendors.models import VendorVersion

    groq = Vendor.objects.get(slug="groq")
    versions = VendorVersion.objects.count()
    # Without a worker the task also builds the pages built from everything (the chips downloads).
    paths = sorted({*showing([f"vendor-{groq.pk}"]), *showing([DEFERRED])})
    first = render_showing.call([f"vendor-{groq.pk}"], [])
    etags = dict(StoredPage.objects.filter(path__in=paths).values_list("path", "etag"))
    second = render_showing.call([f"vendor-{groq.pk}"], [])
    assert first["failed"] == second["failed"] == 0
    assert second["unchanged"] == len(paths) and second["rendered"] == 0
    assert dict(StoredPage.objects.filter(path__in=paths).values_list("path", "etag")) == etags
    assert VendorVersion.objects.count() == versions


def test_a_scheduled_version_reaches_its_stored_pages_when_its_time_comes(demo, visitor):
    import datetime as dt

    from django.utils import timezone

    from editorial import services
    from infra.stored import render_expired

    groq = Vendor.objects.get(slug="groq")
    groq.summary = "Scheduled summary of Groq."
    groq.save()
    at = timezone.now() + dt.timedelta(hours=1)
    services.publish(obj=groq, user=None, at=at)
    assert "Scheduled summary" not in visitor.get("/vendors/groq/").content.decode()
    page = StoredPage.objects.get(path="/vendors/groq/")
    assert page.until is not None and page.until <= at
    with mock.patch("django.utils.timezone.now", return_value=at + dt.timedelta(seconds=1)):
        render_expired.call()  # the worker's sweep, once the time has come
        store.copies.clear()
        response = visitor.get("/vendors/groq/")
    assert response["X-Stored-Page"] == "hit"
    assert "Scheduled summary of Groq." in response.content.decode()


def test_a_publish_purges_the_cdn_by_the_keys_of_the_pages_it_rendered_again(demo, settings):
    import threading

    from tests.infra.test_purge import StandIn  # the stand-in CDN the purge tests use

    server = StandIn()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    settings.CDN_PURGER, settings.CDN_PURGE_URL, settings.CDN_PURGE_TOKEN = "http", f"{server.url}/purge", ""
    try:
        publish_groq_fact()
    finally:
        server.shutdown()
        server.server_close()
    purged = {key for request in server.received for key in request.headers["xkey"].split()}
    assert own_key("/vendors/groq/") in purged
    assert own_key("/vendors/aws-trainium/") not in purged
    assert own_key("/vendors/groq/") in Client().get("/vendors/groq/")["Surrogate-Key"].split()


def test_a_source_check_finding_reaches_the_stored_pages_citing_the_source(demo, visitor):
    import datetime as dt

    from django.utils import timezone

    from vendors.services import refresh_pages_citing

    groq = Vendor.objects.get(slug="groq")
    source = groq.facts.filter(sources__isnull=False).order_by("pk").first().sources.first()
    before = visitor.get("/vendors/groq/")
    type(source).objects.filter(pk=source.pk).update(problem_at=timezone.now() + dt.timedelta(seconds=1))
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + dt.timedelta(seconds=2)):
        refresh_pages_citing(sources=[source.pk])
    after = visitor.get("/vendors/groq/")
    assert after["X-Stored-Page"] == "hit"
    assert after["ETag"] != before["ETag"]
    assert (
        StoredPage.objects.get(path="/vendors/groq/").rendered_at
        > StoredPage.objects.get(path="/vendors/aws-trainium/").rendered_at
    )


def test_a_stored_page_is_answered_without_a_database_query(demo, visitor, django_assert_num_queries):
    visitor.get("/vendors/groq/")  # this process's copy
    with django_assert_num_queries(0):
        response = visitor.get("/vendors/groq/")
    assert response["X-Stored-Page"] == "hit"


STORED_PAGE_TYPES = (
    "/vendors/groq/",
    "/lanes/inference-specialist/",
    "/",
    "/compare/cerebras-vs-groq/",
    "/feeds/changes/",
    "/sitemap.xml",
    "/api/v1/vendors/groq/",
)


def test_without_a_session_cookie_a_stored_page_is_the_same_answer_given_before_any_session_is_read(
    demo,
):
    """The stored answer to a request with no session cookie comes before the session, CSRF and
    sign-in layers: the same bytes and headers as the innermost middleware gives a visitor whose
    session cookie names no one, and no session read."""
    from django.contrib.sessions.middleware import SessionMiddleware

    without, with_session = Client(), Client()
    with_session.cookies["sessionid"] = "no-such-session"
    for path in STORED_PAGE_TYPES:
        with_session.get(path)  # this process's copy, and a hit from here on
        expected = with_session.get(path)
        assert expected["X-Stored-Page"] == "hit", path
        with mock.patch.object(SessionMiddleware, "process_request", autospec=True) as sessions:
            answer = without.get(path)
        assert sessions.call_count == 0, path
        assert (answer.status_code, answer.content) == (200, expected.content), path
        assert {k: v for k, v in answer.items()} == {k: v for k, v in expected.items()}, path
        revalidated = without.get(path, HTTP_IF_NONE_MATCH=answer["ETag"])
        assert revalidated.status_code == 304, path
        assert revalidated.items() == with_session.get(path, HTTP_IF_NONE_MATCH=answer["ETag"]).items(), path


def test_a_signed_in_editor_gets_the_preview_at_a_stored_address_and_visitors_the_stored_page(
    demo, django_user_model
):
    from django.contrib.auth.models import Permission

    from editorial import services

    groq = Vendor.objects.get(slug="groq")
    fact = groq.facts.order_by("pk").first()
    fact.value = "Groq memory, edited but not published"
    fact.save()
    assert services.refresh_state(obj=groq) is True  # the working copy differs from the live version
    editor = django_user_model.objects.create_user("ed", password="pw", is_staff=True)
    editor.user_permissions.add(Permission.objects.get(codename="change_vendor"))
    signed_in = Client()
    signed_in.force_login(editor)
    preview = signed_in.get("/vendors/groq/")
    assert "edited but not published" in preview.content.decode()
    assert "no-store" in preview["Cache-Control"]
    assert "X-Stored-Page" not in preview
    for visitor in (Client(), Client(HTTP_COOKIE="sessionid=no-such-session")):
        page = visitor.get("/vendors/groq/")
        assert page["X-Stored-Page"] == "hit"
        assert "edited but not published" not in page.content.decode()


def test_a_stored_api_answer_still_counts_against_the_rate_limit_and_carries_cors(demo, settings):
    settings.API_RATE_LIMIT = 2
    settings.API_RATE_WINDOW = 3600
    visitor = Client(REMOTE_ADDR="203.0.113.7")
    answers = [visitor.get("/api/v1/vendors/groq/") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert [a.get("X-Stored-Page") for a in answers[:2]] == ["hit", "hit"]
    assert answers[0]["Access-Control-Allow-Origin"] == "*"


def _save_axis_in_the_admin(client, axis, **changes):
    from django.forms.models import model_to_dict

    data = {**model_to_dict(axis, fields=["name", "slug", "description", "position", "is_active"]), **changes}
    if not data["is_active"]:
        del data["is_active"]  # an unticked box is not sent
    response = client.post(f"/admin/vendors/axis/{axis.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_an_axis_description_edited_in_the_admin_renders_again_only_the_pages_that_print_it(
    demo, admin_client, visitor
):
    from infra.models import StoredPageKey
    from infra.stored import DEFERRED
    from vendors.models import Axis

    before = dict(StoredPage.objects.values_list("path", "rendered_at"))
    axis = Axis.objects.get(slug="performance")
    _save_axis_in_the_admin(admin_client, axis, description="Tokens per second per dollar.")

    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = {path for path in before if after[path] != before[path]}
    # Without a worker, every change builds again, in its own render, the pages built from
    # everything (the chips downloads here): with one, they wait for its sweep.
    built_from_everything = set(
        StoredPageKey.objects.filter(key=DEFERRED).values_list("page__path", flat=True)
    )
    assert {"/data/", "/data/chipsite.json", "/data/chips.csv", "/data/chips.json"} <= built_from_everything
    # The API's axes print descriptions; profiles, the rankings and the rest print names only.
    assert again - built_from_everything == {"/api/v1/axes/"}
    answer = visitor.get("/api/v1/axes/")
    assert answer["X-Stored-Page"] == "hit"
    assert "Tokens per second per dollar." in answer.content.decode()


def test_an_axis_renamed_in_the_admin_renders_again_every_page_that_reads_the_axes(
    demo, admin_client, visitor
):
    from infra.models import StoredPageKey
    from vendors.models import Axis

    before = dict(StoredPage.objects.values_list("path", "rendered_at"))
    reading = set(StoredPageKey.objects.filter(key="axes").values_list("page__path", flat=True))
    assert {"/vendors/groq/", "/", "/api/v1/axes/"} <= reading  # its scores, the rankings, the API
    _save_axis_in_the_admin(admin_client, Axis.objects.get(slug="performance"), name="Throughput")

    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = {path for path in before if after[path] != before[path]}
    assert reading <= again
    # Change logs, feeds, citations, the chips and the sitemap name no axis: as they were.
    for path in ("/vendors/groq/changes/", "/vendors/groq/feed/", "/vendors/groq/v/1/cite.bib", "/chips/"):
        assert path in before and path not in again, path
    assert "/sitemap.xml" not in again
    assert "Throughput" in visitor.get("/vendors/groq/").content.decode()


def test_the_site_text_edited_in_the_admin_renders_again_the_profiles_and_home_page_alone(
    demo, admin_client, visitor
):
    from vendors.models import SiteSettings

    SiteSettings.objects.create(pk=1, cta_heading="Compare them all")
    before = dict(StoredPage.objects.values_list("path", "rendered_at"))
    response = admin_client.post(
        "/admin/vendors/sitesettings/1/change/",
        {"rankings_intro": "Every score cites its sources.", "cta_heading": "Compare them all",
         "cta_link_label": "See the rankings"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]

    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    again = {path for path in before if after[path] != before[path]}
    assert {"/", "/vendors/groq/", "/vendors/aws-trainium/"} <= again
    # (The whole-site file and the downloads' index that dates it follow every change.)
    assert not any(path.startswith(("/api/", "/data/vendors/", "/feeds/", "/sitemap")) for path in again)
    answer = visitor.get("/")
    assert answer["X-Stored-Page"] == "hit"
    assert "Every score cites its sources." in answer.content.decode()


def test_an_axis_turned_off_in_the_admin_renders_every_stored_page_again(demo, admin_client):
    from vendors.models import Axis

    before = dict(StoredPage.objects.values_list("path", "rendered_at"))
    _save_axis_in_the_admin(admin_client, Axis.objects.get(slug="performance"), is_active=False)
    after = dict(StoredPage.objects.values_list("path", "rendered_at"))
    assert len(after) == len(before)
    assert all(after[path] > before[path] for path in before)  # every total and list moved


@pytest.mark.django_db(transaction=False)
def test_the_checks_refuse_a_site_url_the_site_does_not_answer_to(settings):
    from infra.stored.checks import site_url_is_allowed

    settings.STORED_PAGES_ENABLED, settings.DEBUG = True, False
    settings.ALLOWED_HOSTS = ["chipsite.example.com"]
    settings.SITE_URL = "https://chipsite.example.com"
    assert site_url_is_allowed() == []
    settings.SITE_URL = "https://elsewhere.example"
    assert [error.id for error in site_url_is_allowed()] == ["stored.E002"]


def test_nginx_serving_the_store_sends_a_publish_as_the_server_does(stored_pages, visitor):
    """The acceptance path of docs/operators.md: nginx's root is the store; a publish rewrites the
    files it serves, and what it sends is what Django sends."""
    import os

    import httpx

    from bench import nginx as bench_nginx
    from editorial import services
    from tests.factories import make_fact, make_vendor

    if not bench_nginx.available():
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail("No nginx, and REQUIRE_NGINX=1 says the nginx tests must run.")
        pytest.skip(f"No nginx at {bench_nginx.NGINX} (apt-get install nginx)")
    vendor = make_vendor(slug="groq", name="Groq")
    fact = make_fact(vendor=vendor, value="230 MB SRAM")
    services.publish(obj=vendor, user=None)
    with (
        bench_nginx.Nginx(export_root=stored_pages, upstream="127.0.0.1:9") as running,
        httpx.Client(base_url=running.url, headers={"Accept-Encoding": "identity"}) as client,
    ):
        first = client.get("/vendors/groq/")
        assert first.status_code == 200 and "230 MB SRAM" in first.text
        fact.value = "500 MB SRAM"
        fact.save()
        services.publish(obj=vendor, user=None)
        second = client.get("/vendors/groq/")
        # A browser gets the gzip rendered beside the page, as it lies there (its length is the
        # file's; nginx's own gzip would send it in chunks), not the page before the publish.
        browser = client.get("/vendors/groq/", headers={"Accept-Encoding": "gzip"})
    assert "500 MB SRAM" in second.text
    assert second.content == visitor.get("/vendors/groq/").content
    assert browser.headers["content-encoding"] == "gzip"
    beside = stored_pages / "vendors/groq/index.html.gz"
    assert browser.headers["content-length"] == str(beside.stat().st_size)
    assert browser.content == second.content


def test_an_unpublished_vendor_leaves_no_stored_page_behind(stored_pages, visitor):
    from editorial import services
    from infra.stored import render_missing
    from tests.factories import make_fact, make_vendor

    vendor = make_vendor(slug="groq", name="Groq")
    make_fact(vendor=vendor, value="230 MB SRAM")
    services.publish(obj=vendor, user=None)
    render_missing.call()
    own = [path for path in StoredPage.objects.values_list("path", flat=True) if "groq" in path]
    assert {"/vendors/groq/v/1/cite.bib", "/api/v1/vendors/groq/", "/data/vendors/groq.csv"} <= set(own)
    services.unpublish(obj=vendor, user=None)
    store.copies.clear()
    assert [path for path in own if visitor.get(path).status_code != 404] == []
    assert not StoredPage.objects.filter(path__in=own).exists()
    assert "groq" not in visitor.get("/sitemap-profiles-1.xml").content.decode()
    assert [p for p in stored_pages.rglob("*") if p.is_file() and "groq" in str(p)] == []


def test_a_new_version_leaves_older_versions_as_they_were_but_for_the_banner_naming_it(stored_pages, visitor):
    from editorial import services
    from tests.factories import make_fact, make_vendor

    vendor = make_vendor(slug="groq", name="Groq")  # version 1
    fact = make_fact(vendor=vendor, value="230 MB SRAM")
    services.publish(obj=vendor, user=None)  # version 2
    visitor.get("/vendors/groq/v/1/")
    first = StoredPage.objects.get(path="/vendors/groq/v/1/").rendered_at
    fact.value = "500 MB SRAM"
    fact.save()
    services.publish(obj=vendor, user=None)  # version 3
    assert StoredPage.objects.get(path="/vendors/groq/v/1/").rendered_at != first
    older = visitor.get("/vendors/groq/v/1/").content.decode()
    assert "Version 1 of 3" in older and "(version 3)" in older and "SRAM" not in older
    assert "500 MB SRAM" not in visitor.get("/vendors/groq/v/2/").content.decode()
    assert "500 MB SRAM" in visitor.get("/vendors/groq/v/3/").content.decode()


def test_a_worker_renders_a_change_in_as_many_processes_as_it_is_given_and_a_web_process_in_one(
    settings, monkeypatch
):
    from infra.stored import rendering

    asked = []

    def render(paths, *, jobs=1):
        asked.append(jobs)
        return rendering.Report()

    monkeypatch.setattr(rendering, "render", render)
    settings.STORED_PAGES_RENDER_JOBS = 3

    rendering.render_showing.call([], ["/"])  # tasks run in this process (no worker)
    settings.TASKS = {"default": {**settings.TASKS["default"], "BACKEND": "django_tasks_db.DatabaseBackend"}}
    rendering.render_showing.call([], ["/"])
    rendering.render_due.call()

    assert asked == [1, 3, 3]


def test_with_a_worker_a_publish_leaves_the_chips_download_to_the_sweep_which_builds_it_anew(
    stored_pages, visitor, settings
):
    """The chips' downloads are built from every live chip: with a worker, a publish marks them
    due and visitors get the previous file until the worker's sweep builds the new one."""
    from infra.stored import render_due, render_showing
    from tests.factories import make_spec, make_vendor, publish

    vendor = make_vendor(name="AWS Trainium", slug="aws-trainium", published=False)
    make_spec(vendor=vendor, chip="Trainium3", quantity="144", unit="GiB")
    publish(vendor)
    assert "Trainium3" in visitor.get("/data/chips.csv").content.decode("utf-8-sig")
    settings.TASKS = {"default": {**settings.TASKS["default"], "BACKEND": "django_tasks_db.DatabaseBackend"}}

    make_spec(vendor=vendor, chip="Trainium4", quantity="288", unit="GiB")
    publish(vendor, note="Trainium4")  # queued for the worker; its task runs here:
    render_showing.call([f"vendor-{vendor.pk}"], [])

    before = visitor.get("/data/chips.csv")
    assert "Trainium4" not in before.content.decode("utf-8-sig")
    assert StoredPage.objects.get(path="/data/chips.csv").until <= timezone.now()  # due for the sweep
    render_due.call()
    assert "Trainium4" in visitor.get("/data/chips.csv").content.decode("utf-8-sig")


def test_changes_gathered_render_each_affected_page_once_after_the_work_commits(demo, visitor):
    from django.db import transaction

    from editorial import services
    from infra import stored
    from infra.stored import rendering

    rendered = []
    real_render_one = rendering.render_one

    def render_one(path):
        rendered.append(path)
        return real_render_one(path)

    patched = mock.patch.object(rendering, "render_one", render_one)
    with patched, stored.changes_gathered(), transaction.atomic():
        for slug in ("groq", "cerebras"):
            vendor = Vendor.objects.get(slug=slug)
            fact = vendor.facts.order_by("pk").first()
            Fact.objects.filter(pk=fact.pk).update(value=fact.value + " (checked)")
            services.publish(obj=vendor, user=None, note="A fact reworded.")
            assert rendered == []  # nothing rendered before the whole of the work commits

    assert {"/vendors/groq/", "/vendors/cerebras/", "/feeds/changes/"} <= set(rendered)
    assert sorted(rendered) == sorted(set(rendered)), "a page rendered twice"
    for path in ("/vendors/groq/", "/vendors/cerebras/", "/feeds/changes/"):
        response = visitor.get(path)
        assert response["X-Stored-Page"] == "hit"
    assert "Groq memory (checked)" in visitor.get("/vendors/groq/").content.decode()
    assert "Cerebras memory (checked)" in visitor.get("/vendors/cerebras/").content.decode()
