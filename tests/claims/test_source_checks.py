"""Keeping sources alive: checks against a local HTTP server started in the test (no network)."""

import datetime as dt
import socket
import ssl
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.utils import timezone

from claims import source_checks
from claims.models import Source, short_day
from claims.source_checks import MAX_REDIRECTS, check_sources
from tests import factories as f
from vendors import services
from vendors.models import Event, Fact, Score

pytestmark = pytest.mark.django_db

PAGE = "<html><head><title>Spec</title><style>p{}</style></head><body><p>96 GB  HBM3</p></body></html>"


class Site:
    """A local web site whose pages a test sets: ``site.pages[path] = (status, body, headers)``.
    With ``tls`` (a server SSLContext) it answers HTTPS and notes the names asked for by SNI."""

    def __init__(self, tls=None):
        self.pages = {}
        self.requests = []  # (path, user agent)
        self.hosts = []  # the Host header of each request
        self.server_names = []  # SNI, over TLS
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                with site.lock:
                    site.requests.append((self.path, self.headers.get("User-Agent", "")))
                    site.hosts.append(self.headers.get("Host"))
                    site.in_flight += 1
                    site.most_in_flight = max(site.most_in_flight, site.in_flight)
                try:
                    status, body, headers = site.pages.get(self.path, (404, "Not found", {}))
                    if headers.get("sleep"):
                        time.sleep(headers["sleep"])
                finally:
                    # Before answering: once the answer is sent the client may ask again at
                    # once, before this thread would get to count the request as done.
                    with site.lock:
                        site.in_flight -= 1
                try:
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

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # a refused handshake, say
        if tls is not None:
            tls.sni_callback = lambda sock, name, context: self.server_names.append(name)
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path, host="127.0.0.1"):
        scheme = "https" if isinstance(self.server.socket, ssl.SSLSocket) else "http"
        return f"{scheme}://{host}:{self.port}{path}"


def serve(site):
    site.thread.start()
    yield site
    site.server.shutdown()
    site.server.server_close()


@pytest.fixture
def site(settings):
    """The local server; fetching from loopback is allowed for it (never in production)."""
    settings.SOURCE_CHECK_ALLOW_PRIVATE = True
    yield from serve(Site())


class Resolver:
    """Stands in for DNS (socket.getaddrinfo): ``answers[host]`` is what each lookup of ``host``
    gets in turn, the last one from then on, as a rebinding attacker's DNS server would answer.
    Other hosts are looked up for real. ``lookups`` lists the hosts asked for."""

    def __init__(self, monkeypatch, **answers):
        self.answers = {host.replace("_", "."): list(addresses) for host, addresses in answers.items()}
        self.lookups = []
        real = socket.getaddrinfo

        def getaddrinfo(host, port, *args, **kwargs):
            if host not in self.answers:
                return real(host, port, *args, **kwargs)
            self.lookups.append(host)
            queue = self.answers[host]
            address = queue.pop(0) if len(queue) > 1 else queue[0]
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port or 0))]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def only_the_test_server_is_public(settings, monkeypatch):
    """Production's refusal of the server's own network, with the test's server (127.0.0.1)
    standing in for a public site: any other address counts as private."""
    settings.SOURCE_CHECK_ALLOW_PRIVATE = False
    monkeypatch.setattr(source_checks, "refused", lambda address: address != "127.0.0.1")


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

    def test_a_redirect_into_a_private_address_is_not_followed(
        self, site, only_the_test_server_is_public, monkeypatch
    ):
        Resolver(monkeypatch, inside_invalid=["10.0.0.5"])
        site.pages["/spec"] = (302, "", {"Location": site.url("/inside", host="inside.invalid")})
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


# IPv6 addresses that carry a private IPv4 one, and the IPv4 address each carries.
CARRYING_A_PRIVATE_IPV4 = {
    "::127.0.0.1": "IPv4-compatible, loopback",
    "::10.0.0.1": "IPv4-compatible",
    "::ffff:127.0.0.1": "IPv4-mapped, loopback",
    "::ffff:169.254.169.254": "IPv4-mapped, a cloud's metadata address",
    "64:ff9b::a00:1": "NAT64, 10.0.0.1",
    "64:ff9b:1::a00:1": "local NAT64, 10.0.0.1",
    "2002:a00:1::": "6to4, 10.0.0.1",
    "2001:0:4136:e378:8000:63bf:f5ff:fffe": "Teredo, client 10.0.0.1",
    "2001:0:a00:1:8000:63bf:f7f7:f7f7": "Teredo, server 10.0.0.1",
}


class TestIPv6CarryingIPv4:
    """An IPv6 address that embeds an IPv4 one is judged by the IPv4 address it carries."""

    @pytest.fixture
    def production(self, site, settings):
        settings.SOURCE_CHECK_ALLOW_PRIVATE = False
        site.pages["/spec"] = (200, PAGE, {})
        return site

    @pytest.mark.parametrize("address", CARRYING_A_PRIVATE_IPV4)
    def test_a_source_on_such_an_address_is_not_fetched(self, production, address):
        source = f.make_source(url=production.url("/spec", host=f"[{address}]"))

        check(source)

        assert source.check_error == "points to a private address" and source.failures == 1
        assert production.requests == []

    @pytest.mark.parametrize("address", CARRYING_A_PRIVATE_IPV4)
    def test_a_host_resolving_to_such_an_address_is_not_fetched(self, production, monkeypatch, address):
        Resolver(monkeypatch, inside_invalid=[address])
        source = f.make_source(url=production.url("/spec", host="inside.invalid"))

        check(source)

        assert source.check_error == "points to a private address" and source.failures == 1
        assert production.requests == []

    @pytest.mark.parametrize(
        "address",
        [
            "64:ff9b::808:808",  # NAT64, 8.8.8.8
            "2002:808:808::",  # 6to4, 8.8.8.8
            "::ffff:8.8.8.8",  # IPv4-mapped
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7",  # Teredo, server 65.54.227.120, client 8.8.8.8
        ],
    )
    def test_a_public_ipv4_inside_is_allowed(self, settings, address):
        settings.SOURCE_CHECK_ALLOW_PRIVATE = False

        assert not source_checks.refused(address)


class TestPinnedAddresses:
    """DNS rebinding: the host is looked up once per request and the connection goes to the
    address that was checked, never to what a second lookup would answer."""

    def test_the_connection_goes_to_the_address_that_was_checked(
        self, site, only_the_test_server_is_public, monkeypatch
    ):
        # First a "public" address for the check, then the server's own network for any later lookup.
        dns = Resolver(monkeypatch, rebind_invalid=["127.0.0.1", "127.0.0.2"])
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec", host="rebind.invalid"))

        check(source)

        assert (source.check_status, source.check_error) == (200, "")
        assert dns.lookups == ["rebind.invalid"]
        assert site.hosts == [f"rebind.invalid:{site.port}"]  # the Host header names the host

    def test_each_redirect_is_looked_up_once_and_pinned_too(
        self, site, only_the_test_server_is_public, monkeypatch
    ):
        dns = Resolver(
            monkeypatch, first_invalid=["127.0.0.1", "127.0.0.2"], second_invalid=["127.0.0.1", "10.0.0.5"]
        )
        site.pages["/spec"] = (301, "", {"Location": site.url("/moved", host="second.invalid")})
        site.pages["/moved"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec", host="first.invalid"))

        check(source)

        assert (source.check_status, source.check_error) == (200, "")
        assert dns.lookups == ["first.invalid", "second.invalid"]
        assert site.hosts == [f"first.invalid:{site.port}", f"second.invalid:{site.port}"]

    def test_a_host_that_does_not_resolve_is_a_dns_failure(self, site, monkeypatch):
        def no_such_host(*args, **kwargs):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

        monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
        source = f.make_source(url=site.url("/spec", host="nowhere.invalid"))

        check(source)

        assert source.check_error == "DNS lookup failed" and site.requests == []

    @pytest.fixture
    def certificate(self, tmp_path):
        """A self-signed certificate for chips.invalid: (certificate file, key file)."""
        cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
        try:
            subprocess.run(
                ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
                + ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=chips.invalid"]
                + ["-addext", "subjectAltName=DNS:chips.invalid"],
                check=True,
                capture_output=True,
                timeout=60,
            )
        except FileNotFoundError:
            pytest.skip("openssl is not installed")
        return cert, key

    @pytest.fixture
    def tls_site(self, certificate, settings):
        settings.SOURCE_CHECK_ALLOW_PRIVATE = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*map(str, certificate))
        yield from serve(Site(tls=context))

    def test_tls_names_and_verifies_the_host_while_connecting_to_the_pinned_address(
        self, tls_site, certificate, monkeypatch
    ):
        dns = Resolver(monkeypatch, chips_invalid=["127.0.0.1", "127.0.0.2"])
        tls_site.pages["/spec"] = (200, PAGE, {})
        trusting = ssl.create_default_context(cafile=str(certificate[0]))

        with source_checks.make_client(verify=trusting) as client:
            fetched = source_checks.fetch(tls_site.url("/spec", host="chips.invalid"), client=client)

        assert (fetched.status, fetched.error) == (200, "")
        assert dns.lookups == ["chips.invalid"]
        assert tls_site.server_names == ["chips.invalid"]
        assert tls_site.hosts == [f"chips.invalid:{tls_site.port}"]

    def test_a_certificate_for_another_name_is_a_tls_error(self, tls_site, certificate, monkeypatch):
        Resolver(monkeypatch, other_invalid=["127.0.0.1"])
        tls_site.pages["/spec"] = (200, PAGE, {})
        trusting = ssl.create_default_context(cafile=str(certificate[0]))

        with source_checks.make_client(verify=trusting) as client:
            fetched = source_checks.fetch(tls_site.url("/spec", host="other.invalid"), client=client)

        assert fetched.error == "TLS error" and tls_site.requests == []


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


class TestTask:
    """The worker's periodic check (vendors/tasks.py) is the command's run without options."""

    def test_the_task_checks_every_source_and_returns_what_it_found(self, site):
        from vendors.tasks import check_all_sources

        site.pages["/spec"] = (200, PAGE, {})
        f.make_source(url=site.url("/spec"))
        f.make_source(url=site.url("/gone"))

        result = check_all_sources.enqueue()  # the immediate backend, as in every test

        assert result.return_value == {
            "checked": 2,
            "answered": 1,
            "failed": 1,
            "new_problems": 0,
            "quotes_found": 0,
            "quotes_missing": 0,
            "quotes_newly_missing": 0,
        }
        assert Source.objects.filter(checked_at__isnull=False).count() == 2

    def test_it_is_on_the_schedule_every_source_check_every_hours(self):
        from infra import periodic
        from vendors.tasks import check_all_sources

        (schedule,) = [s for s in periodic.registered() if s.name == "check_sources"]

        assert schedule.task == check_all_sources
        assert schedule.interval == dt.timedelta(hours=24)


class TestSourceAdmin:
    def test_the_button_checks_one_source_and_the_page_says_what_it_found(self, site, admin_client):
        site.pages["/spec"] = (200, PAGE, {})
        source = f.make_source(url=site.url("/spec"))
        other = f.make_source(url=site.url("/other"))
        change = f"/admin/claims/source/{source.pk}/change/"
        page = admin_client.get(change).content.decode()
        assert "Never checked." in page
        assert f'action="/admin/claims/source/{source.pk}/check/"' in page and "Check this source now" in page

        response = admin_client.post(f"/admin/claims/source/{source.pk}/check/", follow=True)

        text = " ".join(response.content.decode().split())
        assert f"Checked “{source.title}”: HTTP 200." in text
        assert ": HTTP 200" in text and site.url("/spec") in text  # the Last check section
        assert [path for path, _ in site.requests] == ["/spec"]
        other.refresh_from_db()
        assert other.checked_at is None

    def test_a_failing_source_shows_its_problem(self, site, admin_client):
        source = f.make_source(url=site.url("/gone"))
        for _ in range(2):
            response = admin_client.post(f"/admin/claims/source/{source.pk}/check/", follow=True)

        text = " ".join(response.content.decode().split())
        assert f"HTTP 404 (source returned 404 on {today_words()})" in text
        listed = admin_client.get("/admin/claims/source/", {"check": "problem"}).content.decode()
        assert source.title in listed

    def test_a_get_or_an_editor_without_the_change_permission_fetches_nothing(self, site, client):
        source = f.make_source(url=site.url("/spec"))
        viewer = f.make_staff_user(group="Editor")
        viewer.groups.clear()
        viewer.user_permissions.add(Permission.objects.get(codename="view_source"))
        client.force_login(viewer)

        assert (
            "Check this source now"
            not in client.get(f"/admin/claims/source/{source.pk}/change/").content.decode()
        )
        assert client.post(f"/admin/claims/source/{source.pk}/check/").status_code == 403
        assert client.get(f"/admin/claims/source/{source.pk}/check/").status_code == 403
        assert site.requests == []

    def test_the_archived_copy_is_edited_with_the_source(self, admin_client):
        source = f.make_source()
        archive = f"https://web.archive.org/web/2026/{source.url}"
        data = {"title": source.title, "publisher": source.publisher, "url": source.url}
        data |= {"archive_url": archive, "accessed_on": "2026-11-01", "notes": ""}

        response = admin_client.post(f"/admin/claims/source/{source.pk}/change/", data)

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

        response = admin_client.post(f"/admin/claims/source/{source.pk}/change/", data | {"notes": ""})

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
