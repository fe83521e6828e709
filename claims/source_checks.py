"""Keeping sources alive: fetch each source's page, record what came back, flag what cites it.

A check is one GET with a bounded timeout, at most ``MAX_REDIRECTS`` redirects and at most
``MAX_BYTES`` read, under a user agent that names the site and a contact address. Pages are
fetched in a small thread pool (``SOURCE_CHECK_CONCURRENCY``); what they returned is written
from the calling thread, so no database connection is shared between threads.

What makes the facts, events and scores citing a source stale (VerifiableQuerySet.stale()):
- it failed ``FAILURES_BEFORE_PROBLEM`` checks in a row (a status of 400 or more, a timeout, a
  DNS or TLS error, a redirect loop): “source returned 404 on 2 Dec”;
- its redirects end on another site (another registrable domain): “source moved to example.net
  on 2 Dec”.
The problem's day is kept while the problem lasts, so rows verified after it stay fresh; a
check that finds the page back where it was clears it.

A check that reads the page keeps its visible text (the last two, compressed) and looks for the
quote of every citation of the source in it (claims/quotes.py): a quote no longer found is a
problem moment of the citation, which makes its row stale (“the source no longer says: …”). A
page read only in part (cut at MAX_BYTES) proves nothing of a quote not in that part: not checked.

A changed page text is recorded (“page text changed since 28 Nov”) but makes nothing stale:
pages change their menus, dates, cookie notices and related links all the time, and a queue
refilled by every such change would teach editors to tick “verified” without reading.
"""

import ipaddress
import socket
import ssl
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpcore
import httpx
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from publicsuffixlist import PublicSuffixList

from .addresses import is_public
from .models import Source
from .quotes import check_quotes, is_cut, keep_text, read_page

# What follows a source whose problem moment (or that of a quote citing it) moved: the content
# apps' published pages citing it take the new moment (vendors registers
# vendors.services.refresh_pages_citing in its ready()).
# The kernel knows no content app, so they come to it.
_problem_moved_handlers: list[Callable[..., object]] = []


def on_problem_moved(handler: Callable[..., object]) -> None:
    """Call ``handler(sources=[pk, ...])`` after a check moves those sources' problem moments
    or those of their citations' quotes."""
    if handler not in _problem_moved_handlers:
        _problem_moved_handlers.append(handler)


MAX_REDIRECTS = 5
MAX_BYTES = 2_000_000
FAILURES_BEFORE_PROBLEM = 2

CHECK_FIELDS = [
    "checked_at",
    "check_status",
    "check_error",
    "final_url",
    "fingerprint",
    "text_changed_since",
    "failures",
    "problem",
    "problem_on",
    "problem_at",
    "page_text",
    "previous_page_text",
    "page_text_at",
]

_suffixes = PublicSuffixList()  # the bundled list: nothing is fetched


def user_agent():
    return f"chipsite-source-check/1.0 (checks the sources it cites; +{settings.SOURCE_CHECK_CONTACT_URL})"


@dataclass(frozen=True)
class Fetched:
    """What one fetch found: a status and the final URL, or an error in words; and the page's
    visible text when it is HTML or plain text, ``truncated`` when its body or text was cut short
    (MAX_BYTES, PAGE_TEXT_MAX): a quote not found in it is not checked, never missing."""

    status: int | None = None
    error: str = ""
    final_url: str = ""
    fingerprint: str = ""
    text: str = field(default="", repr=False)
    truncated: bool = False

    @property
    def failed(self):
        return bool(self.error) or self.status is None or self.status >= 400


@dataclass
class Outcome:
    source: Source
    fetched: Fetched
    new_problem: bool = False
    quotes_found: int = 0
    quotes_missing: int = 0
    quotes_newly_missing: int = 0


# --- Fetching ---------------------------------------------------------------------------


class PrivateAddress(httpx.RequestError):
    """A source (or a redirect) points into our own network: not fetched."""


def addresses_of(host):
    """The IP addresses ``host`` resolves to, in the resolver's order of preference."""
    return list(
        dict.fromkeys(info[4][0] for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP))
    )


def refused(address):
    """Whether a check may not connect to ``address``: loopback, private and link-local ones (a
    cloud's metadata address), and IPv6 forms carrying one (claims.addresses), are the server's
    own network, unless SOURCE_CHECK_ALLOW_PRIVATE says otherwise (tests against a local server)."""
    if settings.SOURCE_CHECK_ALLOW_PRIVATE:
        return False
    return not is_public(address)


def _resolve(request):
    """The addresses to connect to for ``request``, looked up once and each checked."""
    host = request.url.raw_host.decode("ascii")
    try:
        ipaddress.ip_address(host)
        addresses = [host]
    except ValueError:
        try:
            addresses = addresses_of(host)
        except (socket.gaierror, UnicodeError) as exc:
            raise httpx.ConnectError(f"DNS lookup failed for {host}", request=request) from exc
    if not addresses:
        raise httpx.ConnectError(f"DNS lookup found no address for {host}", request=request)
    if any(refused(address) for address in addresses):
        raise PrivateAddress("points to a private address", request=request)
    return addresses


class _PinnedBackend(httpcore.SyncBackend):
    """Connects to the addresses it was given, whatever host it is asked for: no second lookup."""

    def __init__(self, addresses):
        self.addresses = addresses

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        for address in self.addresses[:-1]:
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout):
                continue
        return super().connect_tcp(self.addresses[-1], port, timeout, local_address, socket_options)


class PinnedTransport(httpx.BaseTransport):
    """Each request, redirects included (httpx sends every hop through the transport): resolve
    the host once, refuse the server's own network, and connect to exactly the addresses that
    were checked. A second lookup at connect time could answer differently (DNS rebinding: a
    public address for the check, then 127.0.0.1 or 169.254.169.254 for the connection).

    The URL keeps its host name, so the ``Host`` header, TLS's SNI and certificate check are the
    host's. Each request gets a connection pool of its own that keeps nothing alive, so no
    connection made for one lookup serves another.
    """

    def __init__(self, *, verify=True):
        self.ssl_context = (
            verify if isinstance(verify, ssl.SSLContext) else httpx.create_ssl_context(verify=verify)
        )

    def handle_request(self, request):
        addresses = _resolve(request)
        transport = httpx.HTTPTransport(verify=self.ssl_context, trust_env=False)
        # httpx (pinned in requirements.txt) takes no network backend, its pool does.
        transport._pool = httpcore.ConnectionPool(
            ssl_context=self.ssl_context,
            max_keepalive_connections=0,
            network_backend=_PinnedBackend(addresses),
        )
        return transport.handle_request(request)


def _error_in_words(exc):
    """“timed out”, “DNS lookup failed”, “TLS error”, “too many redirects”, “points to a private
    address” or “connection failed”."""
    if isinstance(exc, PrivateAddress):
        return str(exc)
    if isinstance(exc, httpx.TooManyRedirects):
        return "too many redirects"
    if isinstance(exc, httpx.TimeoutException):
        return "timed out"
    cause = exc
    while cause is not None:
        if isinstance(cause, socket.gaierror):
            return "DNS lookup failed"
        if isinstance(cause, ssl.SSLError):
            return "TLS error"
        cause = cause.__cause__ or cause.__context__
    text = str(exc).lower()
    if "name or service not known" in text or "nodename nor servname" in text or "getaddrinfo" in text:
        return "DNS lookup failed"
    if "ssl" in text or "certificate" in text:
        return "TLS error"
    if isinstance(exc, httpx.ConnectError):
        return "connection failed"
    return "request failed"


def fetch(url, *, client):
    """GET ``url``, following redirects; read at most MAX_BYTES of the body. Never raises."""
    try:
        with client.stream("GET", url) as response:
            body, cut = bytearray(), False
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) >= MAX_BYTES:
                    cut = True
                    break
            status = response.status_code
            final_url = str(response.url)
            content_type = response.headers.get("content-type", "").lower()
            encoding = response.charset_encoding
    except httpx.HTTPError as exc:
        return Fetched(error=_error_in_words(exc))
    except (OSError, ValueError) as exc:  # an address httpx refuses before sending anything
        return Fetched(error=_error_in_words(exc))
    if status >= 400:
        return Fetched(status=status, final_url=final_url)
    text_hash, text = read_page(bytes(body), content_type=content_type, encoding=encoding)
    return Fetched(
        status=status, final_url=final_url, fingerprint=text_hash, text=text, truncated=cut or is_cut(text)
    )


def make_client(*, timeout=None, verify=True):
    """A client whose every connection goes to an address checked when it was looked up. No
    proxy from the environment: a proxy would look the host up again itself."""
    return httpx.Client(
        transport=PinnedTransport(verify=verify),
        follow_redirects=True,
        max_redirects=MAX_REDIRECTS,
        timeout=settings.SOURCE_CHECK_TIMEOUT if timeout is None else timeout,
        headers={"User-Agent": user_agent(), "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"},
    )


def fetch_all(urls, *, concurrency=None, timeout=None):
    """{url: Fetched} for ``urls``, at most ``concurrency`` at a time."""
    urls = list(dict.fromkeys(urls))
    if not urls:
        return {}
    workers = max(1, min(concurrency or settings.SOURCE_CHECK_CONCURRENCY, len(urls)))
    with make_client(timeout=timeout) as client, ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip(urls, pool.map(lambda url: fetch(url, client=client), urls), strict=True))


# --- What a result means ----------------------------------------------------------------


def site_of(url):
    """The registrable domain of ``url``'s host (“example.co.uk”), or the host itself (an IP, localhost)."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    return _suffixes.privatesuffix(host) or host


def _failure_in_words(fetched):
    return f"returned {fetched.status}" if fetched.error == "" else fetched.error


def apply_result(source, fetched, *, now=None):
    """Record ``fetched`` on ``source`` (unsaved); True when it gives the source a new problem."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    previous_check = timezone.localdate(source.checked_at) if source.checked_at else None
    source.checked_at = now
    source.check_status = fetched.status
    source.check_error = fetched.error
    source.final_url = fetched.final_url
    problem = ""
    if fetched.failed:
        source.failures += 1
        if source.failures >= FAILURES_BEFORE_PROBLEM:
            problem = _failure_in_words(fetched)
    else:
        source.failures = 0
        if fetched.fingerprint and source.fingerprint and fetched.fingerprint != source.fingerprint:
            source.text_changed_since = previous_check or today
        source.fingerprint = fetched.fingerprint or source.fingerprint
        if site_of(fetched.final_url) != site_of(source.url):
            problem = f"moved to {site_of(fetched.final_url)}"
        else:  # another site's page is not the source's words
            keep_text(source, fetched.text, now=now)
    if not problem:
        source.problem, source.problem_on, source.problem_at = "", None, None
        return False
    if source.problem_on is None:
        source.problem, source.problem_on, source.problem_at = problem, today, now
        return True
    if problem.startswith("moved") != source.problem.startswith("moved"):
        # A different kind of problem (a dead page that now moves, or the reverse) is news.
        source.problem, source.problem_on, source.problem_at = problem, today, now
        return True
    return False


def check_sources(*, sources, dry_run=False, concurrency=None, timeout=None, now=None):
    """Check each of ``sources`` (an iterable of Source) and save what was found, unless ``dry_run``.

    Returns one Outcome per source, in the order given.
    """
    sources = list(sources)
    found = fetch_all((s.url for s in sources), concurrency=concurrency, timeout=timeout)
    now = now or timezone.now()
    outcomes, moved = [], set()
    for source in sources:
        fetched = found[source.url]
        before = source.problem_at
        new_problem = apply_result(source, fetched, now=now)
        if not dry_run:
            source.save(update_fields=CHECK_FIELDS)
            if source.problem_at != before:
                moved.add(source.pk)
        outcomes.append(Outcome(source=source, fetched=fetched, new_problem=new_problem))
    read = {o.source.pk: o.fetched.text for o in outcomes if o.source.page_text_at == now}
    cut = {o.source.pk for o in outcomes if o.fetched.truncated}
    quotes = check_quotes(texts=read, cut=cut, now=now, save=not dry_run)
    for outcome in outcomes:
        outcome.quotes_found = quotes.found.get(outcome.source.pk, 0)
        outcome.quotes_missing = quotes.missing.get(outcome.source.pk, 0)
        outcome.quotes_newly_missing = quotes.newly_missing.get(outcome.source.pk, 0)
    if not dry_run:
        moved |= quotes.moved
    if moved:
        # What visitors read follows at once, without a publish, as a verification does.
        for handler in _problem_moved_handlers:
            handler(sources=sorted(moved))
    return outcomes


def sources_to_check(*, limit=None):
    """Every source, least recently checked first (never checked before all), at most ``limit``."""
    sources = Source.objects.order_by(F("checked_at").asc(nulls_first=True), "pk")
    return sources[:limit] if limit else sources


def summarise(outcomes):
    """What a run found, in numbers: the command's last line and the task's result."""
    failed = sum(outcome.fetched.failed for outcome in outcomes)
    return {
        "checked": len(outcomes),
        "answered": len(outcomes) - failed,
        "failed": failed,
        "new_problems": sum(outcome.new_problem for outcome in outcomes),
        "quotes_found": sum(outcome.quotes_found for outcome in outcomes),
        "quotes_missing": sum(outcome.quotes_missing for outcome in outcomes),
        # Quotes a check missed for the first time: each puts the row citing it in the queue.
        "quotes_newly_missing": sum(outcome.quotes_newly_missing for outcome in outcomes),
    }


def describe(outcome):
    """One line in words for an editor: what the check found."""
    source, fetched = outcome.source, outcome.fetched
    found = f"HTTP {fetched.status}" if fetched.error == "" else fetched.error
    if fetched.final_url and fetched.final_url != source.url:
        found += f", ended at {fetched.final_url}"
    notes = [text for text in (source.problem_text, source.text_changed_text) if text]
    if fetched.failed and not source.problem_on:
        notes.append(f"{source.failures} failed check{'s' if source.failures != 1 else ''} in a row")
    if outcome.quotes_found or outcome.quotes_missing:
        notes.append(f"quotes: {outcome.quotes_found} found, {outcome.quotes_missing} not found")
    return f"{found}" + (f" ({'; '.join(notes)})" if notes else "")
