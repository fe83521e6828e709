"""Keeping sources alive: checks against a local HTTP server started in the test (no network)."""

import datetime as dt
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.utils import timezone

from tests import factories as f
from vendors import services, source_checks
from vendors.models import Event, Fact, Score, Source, short_day
from vendors.source_checks import MAX_REDIRECTS, check_sources

pytestmark = pytest.mark.django_db

PAGE = "<html><head><title>Spec</title><style>p{}</style></head><body><p>96 GB  HBM3</p></body></html>"


class Site:
    """A local web site whose pages a test sets: ``site.pages[path] = (status, body, headers)``."""

    def __init__(self):
        self.pages = {}
        self.requests = []  # (path, user agent)
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                with site.lock:
                    site.requests.append((self.path, self.headers.get("User-Agent", "")))
                    site.in_flight += 1
                    site.most_in_flight = max(site.most_in_flight, site.in_flight)
                try:
                    status, body, headers = site.pages.get(self.path, (404, "Not found", {}))
                    if headers.get("sleep"):
                        time.sleep(headers["sleep"])
                    self.send_response(status)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    for name, value in headers.items():
                        if name != "sleep":
                            self.send_header(name, value)
                    data = body.encode()
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    with site.lock:
                        site.in_flight -= 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path, host="127.0.0.1"):
        return f"http://{host}:{self.port}{path}"


@pytest.fixture
def site(settings):
    """The local server; fetching from loopback is allowed for it (never in production)."""
    settings.SOURCE_CHECK_ALLOW_PRIVATE = True
    site = Site()
    site.thread.start()
    yield site
    site.server.shutdown()
    site.server.server_close()


@pytest.fixture
def vendor():
    return f.make_vendor()


def check(source, **options):
    (outcome,) = check_sources(sources=[source], **options)
    source.refresh_from_db()
    return outcome


def today_words():
    return short_day(timezone.localdate())


class TestAlive:
    def test_a_live_page_records_status_final_url_time_and_fingerprint(self, site):
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"))

        check(source)

        assert source.check_status == 200 and source.check_error == ""
        assert source.final_url == site.url("/spec")
        assert timezone.now() - source.checked_at < dt.timedelta(minutes=1)
        assert len(source.fingerprint) == 64
        assert (source.failures, source.problem, source.problem_on) == (0, "", None)

    def test_the_user_agent_names_the_site_and_a_contact_address(self, site, settings):
        settings.SOURCE_CHECK_CONTACT_URL = "https://chips.example/contact/"
        site.pages["/spec"] = (200, PAGE, {})

        check(f.make_source(url=site.url("/spec")))

        (_, agent), *_ = site.requests
        assert "chipsite" in agent and "https://chips.example/contact/" in agent

    def test_a_redirect_within_the_site_is_followed_and_is_not_a_move(self, site):
        site.pages["/old"] = (301, "", {"Location": "/new"})
        site.pages["/new"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/old"))

        check(source)

        assert source.check_status == 200 and source.final_url == site.url("/new")
        assert source.problem == ""

    def test_pages_are_fetched_a_bounded_number_at_a_time(self, site):
        sources = []
        for n in range(6):
            site.pages[f"/slow/{n}"] = (200, PAGE, {"sleep": 0.2})
            sources.append(f.make_source(url=site.url(f"/slow/{n}")))

        check_sources(sources=sources, concurrency=2)

        assert len(site.requests) == 6
        assert site.most_in_flight <= 2


class TestFailures:
    def test_one_404_is_counted_but_stales_nothing(self, site, vendor):
        source = f.make_source(url=site.url("/gone"))
        fact = f.make_fact(vendor=vendor, sources=[source], verified_on=timezone.localdate())

        check(source)

        assert (source.check_status, source.failures, source.problem_on) == (404, 1, None)
        assert fact not in Fact.objects.stale()

    def test_two_404s_in_a_row_make_every_citing_row_stale_with_the_reason(self, site, vendor):
        source = f.make_source(url=site.url("/gone"))
        today = timezone.localdate()
        yesterday = today - dt.timedelta(days=1)
        fact = f.make_fact(vendor=vendor, sources=[source], verified_on=yesterday)
        event = f.make_event(vendor=vendor, sources=[source], verified_on=yesterday)
        score = f.make_score(vendor=vendor, sources=[source], verified_on=yesterday)
        fresh = f.make_fact(vendor=vendor, verified_on=yesterday)

        check(source)
        outcome = check(source)

        assert outcome.new_problem
        assert source.failures == 2 and source.problem_on == today
        assert source.problem_text == f"source returned 404 on {today_words()}"
        assert list(Fact.objects.stale()) == [fact]
        assert list(Event.objects.stale()) == [event] and list(Score.objects.stale()) == [score]
        assert fresh not in Fact.objects.stale()

    def test_a_row_verified_after_the_problem_leaves_the_queue(self, site, vendor):
        source = f.make_source(url=site.url("/gone"))
        today = timezone.localdate()
        fact = f.make_fact(vendor=vendor, sources=[source], verified_on=today - dt.timedelta(days=3))
        check(source, now=timezone.now() - dt.timedelta(days=2))
        check(source, now=timezone.now() - dt.timedelta(days=1))
        assert fact in Fact.objects.stale()

        services.mark_verified(user=None, facts=Fact.objects.filter(pk=fact.pk))
        check(source)  # still gone today: the problem keeps its first day

        assert source.problem_on == today - dt.timedelta(days=1)
        assert fact not in Fact.objects.stale()  # verified after the problem was found

    def test_a_page_that_comes_back_clears_the_problem(self, site, vendor):
        source = f.make_source(url=site.url("/flaky"))
        fact = f.make_fact(
            vendor=vendor, sources=[source], verified_on=timezone.localdate() - dt.timedelta(days=1)
        )
        check(source)
        check(source)
        assert fact in Fact.objects.stale()

        site.pages["/flaky"] = (200, PAGE, {})
        check(source)

        assert (source.failures, source.problem, source.problem_on) == (0, "", None)
        assert fact not in Fact.objects.stale()

    def test_a_timeout_is_recorded_in_words(self, site):
        site.pages["/slow"] = (200, PAGE, {"sleep": 1.5})
        source = f.make_source(url=site.url("/slow"))

        check(source, timeout=0.3)
        check(source, timeout=0.3)

        assert source.check_status is None and source.check_error == "timed out"
        assert source.problem_text == f"source timed out on {today_words()}"

    def test_a_refused_connection_is_a_failure(self, site):
        source = f.make_source(url="http://127.0.0.1:9/nothing-listens-here")

        check(source)

        assert source.check_error == "connection failed" and source.failures == 1

    def test_a_source_on_a_private_address_is_not_fetched(self, site, settings):
        settings.SOURCE_CHECK_ALLOW_PRIVATE = False
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"))

        check(source)

        assert source.check_error == "points to a private address" and source.failures == 1
        assert site.requests == []

    def test_a_redirect_into_a_private_address_is_not_followed(self, site, settings, monkeypatch):
        settings.SOURCE_CHECK_ALLOW_PRIVATE = False
        real_addresses_of = source_checks.addresses_of

        def addresses_of(host):  # the guard takes the first hop for a public address
            return {"93.184.215.14"} if host == "127.0.0.1" else real_addresses_of(host)

        monkeypatch.setattr(source_checks, "addresses_of", addresses_of)
        site.pages["/spec"] = (302, "", {"Location": site.url("/inside", host="localhost")})
        source = f.make_source(url=site.url("/spec"))

        check(source)

        assert source.check_error == "points to a private address"
        assert [path for path, _ in site.requests] == ["/spec"]

    def test_a_redirect_loop_stops_after_a_bounded_number_of_redirects(self, site):
        site.pages["/loop"] = (302, "", {"Location": "/loop"})
        source = f.make_source(url=site.url("/loop"))

        check(source)

        assert source.check_error == "too many redirects" and source.failures == 1
        assert len(site.requests) <= MAX_REDIRECTS + 1


class TestMoved:
    def test_a_redirect_to_another_site_stales_what_cites_it_at_once(self, site, vendor):
        site.pages["/spec"] = (301, "", {"Location": site.url("/elsewhere", host="localhost")})
        site.pages["/elsewhere"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"))
        fact = f.make_fact(
            vendor=vendor, sources=[source], verified_on=timezone.localdate() - dt.timedelta(days=1)
        )

        check(source)

        assert source.check_status == 200
        assert source.final_url == site.url("/elsewhere", host="localhost")
        assert source.problem_text == f"source moved to localhost on {today_words()}"
        assert fact in Fact.objects.stale()


class TestFingerprint:
    def test_changed_text_is_shown_but_stales_nothing(self, site, vendor):
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"), accessed_on=dt.date(2020, 1, 1))
        fact = f.make_fact(
            vendor=vendor, sources=[source], verified_on=timezone.localdate() - dt.timedelta(days=5)
        )
        first_day = timezone.now() - dt.timedelta(days=3)
        check(source, now=first_day)
        before = source.fingerprint

        site.pages["/spec"] = (200, PAGE.replace("96 GB", "144 GB"), {})
        check(source)

        assert source.fingerprint != before
        assert source.text_changed_since == timezone.localdate(first_day)
        assert (
            source.text_changed_text == f"page text changed since {short_day(timezone.localdate(first_day))}"
        )
        assert fact not in Fact.objects.stale()

    def test_white_space_scripts_and_styles_do_not_change_the_fingerprint(self, site):
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"))
        check(source)
        before = source.fingerprint

        reshaped = PAGE.replace("<p>96 GB  HBM3</p>", "<p>\n 96 GB HBM3 </p><script>var t = 1;</script>")
        site.pages["/spec"] = (200, reshaped.replace("p{}", "p{color:red}"), {})
        check(source)

        assert source.fingerprint == before and source.text_changed_since is None


class TestCommand:
    def test_checks_every_source_and_says_what_it_found(self, site):
        site.pages["/spec"] = (200, PAGE, {})
        alive = f.make_source(url=site.url("/spec"))
        dead = f.make_source(url=site.url("/gone"))
        out = StringIO()

        call_command("check_sources", stdout=out)

        text = out.getvalue()
        assert f"{alive.url}: HTTP 200" in text and f"{dead.url}: HTTP 404" in text
        assert "Checked 2 source(s): 1 answered, 1 failed" in text
        assert Source.objects.filter(checked_at__isnull=False).count() == 2

    def test_dry_run_records_nothing(self, site):
        source = f.make_source(url=site.url("/gone"))

        call_command("check_sources", "--dry-run", stdout=StringIO())

        source.refresh_from_db()
        assert (source.checked_at, source.failures) == (None, 0)

    def test_limit_checks_the_least_recently_checked_first(self, site):
        checked = f.make_source(url=site.url("/a"), checked_at=timezone.now())
        never = f.make_source(url=site.url("/b"))

        call_command("check_sources", "--limit", "1", stdout=StringIO())

        assert [path for path, _ in site.requests] == ["/b"]
        never.refresh_from_db()
        checked.refresh_from_db()
        assert never.checked_at is not None and checked.failures == 0

    def test_a_limit_of_zero_is_refused(self):
        with pytest.raises(CommandError, match="--limit must be more than 0"):
            call_command("check_sources", "--limit", "0", stdout=StringIO())


class TestSourceAdmin:
    def test_the_button_checks_one_source_and_the_page_says_what_it_found(self, site, admin_client):
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"))
        other = f.make_source(url=site.url("/other"))
        change = f"/admin/vendors/source/{source.pk}/change/"
        page = admin_client.get(change).content.decode()
        assert "Never checked." in page
        assert (
            f'action="/admin/vendors/source/{source.pk}/check/"' in page and "Check this source now" in page
        )

        response = admin_client.post(f"/admin/vendors/source/{source.pk}/check/", follow=True)

        text = " ".join(response.content.decode().split())
        assert f"Checked “{source.title}”: HTTP 200." in text
        assert ": HTTP 200" in text and site.url("/spec") in text  # the Last check section
        assert [path for path, _ in site.requests] == ["/spec"]
        other.refresh_from_db()
        assert other.checked_at is None

    def test_a_failing_source_shows_its_problem(self, site, admin_client):
        source = f.make_source(url=site.url("/gone"))
        for _ in range(2):
            response = admin_client.post(f"/admin/vendors/source/{source.pk}/check/", follow=True)

        text = " ".join(response.content.decode().split())
        assert f"HTTP 404 (source returned 404 on {today_words()})" in text
        listed = admin_client.get("/admin/vendors/source/", {"check": "problem"}).content.decode()
        assert source.title in listed

    def test_a_get_or_an_editor_without_the_change_permission_fetches_nothing(self, site, client):
        source = f.make_source(url=site.url("/spec"))
        viewer = f.make_staff_user(group="Editor")
        viewer.groups.clear()
        viewer.user_permissions.add(Permission.objects.get(codename="view_source"))
        client.force_login(viewer)

        assert (
            "Check this source now"
            not in client.get(f"/admin/vendors/source/{source.pk}/change/").content.decode()
        )
        assert client.post(f"/admin/vendors/source/{source.pk}/check/").status_code == 403
        assert client.get(f"/admin/vendors/source/{source.pk}/check/").status_code == 403
        assert site.requests == []

    def test_the_archived_copy_is_edited_with_the_source(self, admin_client):
        source = f.make_source()
        archive = f"https://web.archive.org/web/2026/{source.url}"
        data = {"title": source.title, "publisher": source.publisher, "url": source.url}
        data |= {"archive_url": archive, "accessed_on": "2026-11-01", "notes": ""}

        response = admin_client.post(f"/admin/vendors/source/{source.pk}/change/", data)

        assert response.status_code == 302
        source.refresh_from_db()
        assert source.archive_url == archive

    def test_an_archived_copy_that_is_not_http_is_refused(self, admin_client):
        source = f.make_source()
        data = {
            "title": source.title,
            "publisher": "",
            "url": source.url,
            "archive_url": "javascript:alert(1)",
        }

        response = admin_client.post(f"/admin/vendors/source/{source.pk}/change/", data | {"notes": ""})

        assert response.status_code == 200 and "archive_url" in response.context["adminform"].form.errors
        source.refresh_from_db()
        assert source.archive_url == ""


class TestArchivedCopyForReaders:
    ARCHIVE = "https://web.archive.org/web/20261101000000/https://example.com/spec"

    def test_the_profile_lists_the_archived_copy_beside_the_original(self, client):
        vendor = f.make_vendor()
        archived = f.make_source(title="Spec sheet", archive_url=self.ARCHIVE)
        plain = f.make_source(title="Blog post")
        f.make_fact(vendor=vendor, sources=[archived, plain])
        f.publish(vendor)

        html = client.get(vendor.get_absolute_url()).content.decode()

        item = html[html.index(f'href="{archived.url}"') :].split("</li>", 1)[0]
        assert f'<a href="{self.ARCHIVE}" rel="noopener nofollow"' in item and ">Archived copy</a>" in item
        other = html[html.index(f'href="{plain.url}"') :].split("</li>", 1)[0]
        assert "Archived copy" not in other

    def test_the_comparison_lists_it_too(self, client):
        vendor = f.make_vendor()
        f.make_fact(vendor=vendor, sources=[f.make_source(archive_url=self.ARCHIVE)])
        f.publish(vendor)
        comparison = f.make_comparison(vendors=[vendor])
        comparison.sources.set([f.make_source(archive_url=self.ARCHIVE + "/2")])
        f.publish(comparison)

        html = client.get(comparison.get_absolute_url()).content.decode()

        assert f'<a href="{self.ARCHIVE}/2" rel="noopener nofollow"' in html

    def test_a_version_published_before_archived_copies_existed_still_reads(self, client):
        vendor = f.make_vendor()
        f.make_fact(vendor=vendor, sources=[f.make_source()])
        version = f.publish(vendor)
        for source in version.document["sources"].values():
            del source["archive_url"]
        version.save(update_fields=["document"])

        response = client.get(vendor.get_absolute_url())

        assert response.status_code == 200 and "Archived copy" not in response.content.decode()
