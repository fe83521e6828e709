"""The stored-pages modes of bench/load.py: each needs the page store (STORED_PAGES_ROOT), the
task worker (TASKS_BACKEND=database, ``manage.py run_worker``) and a gunicorn answering for
SITE_URL's host, which bench/load.py starts; this module measures, load.py reports.

- **After a publish**: for each stored page type, a fact of AWS Trainium is published, the
  workers run what it enqueued and the sweep builds what it left due, and wrk then drives the
  page (requests/s over the trivial view's in the same server run); the first answer must say
  ``X-Stored-Page: hit``.
- **Re-rendered per publish**: for five kinds of publish, how many stored pages got a new
  ``rendered_at`` and how many new bytes (a new ETag), out of how many stored pages.
- **Publish to fresh**: from a publish's commit until a second gunicorn (another port, the
  same database, Redis and store) answers the new bytes, and until the store's file holds them.
- **Export**: ``manage.py export_site DIR --all``, and the render task's time after one publish.
- **The file anchor**: nginx (bench/nginx.py) serving the Trainium profile from that export.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import publishing
from load import ROOT, WORKERS, Server, cpu_seconds, drive, free_port, site_headers, wrk_with_cpu

ANCHOR_SLUG = "aws-trainium"
ANCHOR_TARGET = 8  # nginx serving the export at least 8 times the trivial view's requests/s
ANCHOR_LOAD = {"threads": 2, "connections": 32}  # wrk's for both sides of the file anchor
ANCHOR_FILE = "profile from the export (nginx)"
ANCHOR_GZIP = "the same, as a browser asks (its gzip beside it)"
HIT_TARGET = 0.9  # a stored page after a publish at least 0.9 times the trivial view's requests/s
FRESH_TARGET = 2.0  # seconds, p99 from a publish's commit to the new bytes, at 10,000 vendors
EXPORT_TARGET = 600  # seconds for export_site --all at 10,000 vendors on 2 cores
INCREMENTAL_TARGET = 5.0  # seconds of render_showing after one publish


class Worker:
    """The Procfile's two ``manage.py run_worker`` beside gunicorn, with the same environment:
    one for what a publish enqueues, one for the schedule's runs (the whole-site file)."""

    def __init__(self):
        self.processes = [
            subprocess.Popen(
                [
                    sys.executable,
                    "manage.py",
                    "run_worker",
                    "--queue-name",
                    queue,
                    "--no-startup-delay",
                    "-v0",
                ],
                cwd=ROOT,
                env={**os.environ, "DEBUG": "0"},
            )
            for queue in ("default", "periodic")
        ]

    def stop(self):
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def manage(*args):
    """A management command as its own process; (seconds, its last line of output)."""
    began = time.monotonic()
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "0"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return time.monotonic() - began, (out.strip().splitlines() or [""])[-1]


def store_every_page(export_root):
    """After growing the catalogue: the full export (every page rendered, in a process per
    core, the grown lists and the pages never stored among them), timed."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from infra.models import PeriodicRun

    # The render tasks the demo's publishes queued: the full render below does all they would.
    DBTaskResult.objects.filter(status="READY").delete()
    # No network here: the daily check of every source is not due during the run.
    PeriodicRun.objects.update_or_create(name="check_sources", defaults={"last_enqueued_at": timezone.now()})
    load_before = os.getloadavg()[0]
    export_seconds, written = manage("export_site", str(export_root), "--all")
    return {"export": (export_seconds, written), "load": (load_before, os.getloadavg()[0])}


def stored_page_types():
    """One address of every stored page type, all showing AWS Trainium."""
    from django.urls import reverse

    from vendors.models import VendorVersion

    live = VendorVersion.objects.live().get(slug=ANCHOR_SLUG)
    return {
        "profile": reverse("vendors:detail", args=[ANCHOR_SLUG]),
        "version page": reverse("vendors:version", args=[ANCHOR_SLUG, live.number]),
        "change log": reverse("vendors:changes", args=[ANCHOR_SLUG]),
        "lane page": reverse("vendors:lane", args=[live.item.lane.slug]),
        "rankings home page": reverse("vendors:rankings"),
        "comparison": reverse("comparisons:detail", args=["google-tpu-vs-aws-trainium-vs-nvidia-gpu"]),
        "feed": reverse("feed"),
        "sitemap index": reverse("sitemap"),
        "sitemap, a page of profiles": reverse("sitemap_section", kwargs={"section": "profiles", "page": 1}),
        "chips": reverse("chips:list"),
        "download (CSV)": reverse("opendata:vendor", args=[ANCHOR_SLUG, "csv"]),
        "API detail": reverse("api:vendor", args=[ANCHOR_SLUG]),
    }


BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends over HTTPS


def get(server, path, headers=None):
    import httpx

    asked = {**site_headers(), "Accept-Encoding": "identity", **(headers or {})}
    return httpx.get(server.url + path, headers=asked, timeout=60)


ROUNDS = 3  # interleaved rounds per stored page: one run's ratio moves by about 0.1 run to run


def median_round(ratios):
    """The round whose ratio is the median of ``ratios`` (an odd number of rounds)."""
    return sorted(range(len(ratios)), key=ratios.__getitem__)[len(ratios) // 2]


def after_publish(server, *, duration):
    """Each stored page type right after a publish of Trainium, beside the trivial view. For each
    page, ROUNDS rounds of the trivial view, the page and the page as a browser asks, then the
    trivial view once more: each round's ratio is to the mean of the trivial view's runs right
    before and right after it, and the page is judged by its median round. A single 5-second run
    moves by about a tenth of the ratio between one run and the next on this machine, so one run
    would judge the noise, not the page."""
    publishing.settle()
    results = drive(server, {"trivial view": "/bench/trivial/"}, duration)
    answers = {"trivial view": "-"}
    sizes = {"trivial view": 2}
    settled = {"trivial view": None}
    browsers, rounds = {}, {}
    for n, name in enumerate(stored_page_types()):
        publishing.fact_change(ANCHOR_SLUG, f"After publish {time.time():.0f}-{n}")
        settled[name] = publishing.settle()
        path = stored_page_types()[name]  # the version page's number has moved
        first = get(server, path)
        first.raise_for_status()
        trivials = [drive(server, {"trivial view": "/bench/trivial/"}, duration)["trivial view"]]
        pages, asked = [], []
        for _ in range(ROUNDS):
            pages.append(wrk_with_cpu(name, server.cpu_seconds, server.url + path, duration))
            # As a browser asks (it sends Accept-Encoding): the stored page, brotli'd once per process.
            asked.append(
                wrk_with_cpu(
                    f"{name}, as a browser asks",
                    server.cpu_seconds,
                    server.url + path,
                    duration,
                    extra_headers=BROWSER,
                )
            )
            trivials.append(drive(server, {"trivial view": "/bench/trivial/"}, duration)["trivial view"])
        around = [
            (before["rps"] + after["rps"]) / 2 for before, after in zip(trivials, trivials[1:], strict=False)
        ]
        ratios = [page["rps"] / trivial for page, trivial in zip(pages, around, strict=True)]
        browser_ratios = [page["rps"] / trivial for page, trivial in zip(asked, around, strict=True)]
        pick, browser_pick = median_round(ratios), median_round(browser_ratios)
        results[name] = {**pages[pick], "beside": around[pick]}
        browser = {**asked[browser_pick], "beside": around[browser_pick]}
        sent = get(server, path, BROWSER)  # httpx decodes .content: the bytes sent are its length
        browser["bytes"] = int(sent.headers["Content-Length"])
        browser["coding"] = sent.headers.get("Content-Encoding", "identity")
        browsers[name] = browser
        rounds[name] = {"page": ratios, "browser": browser_ratios}
        again = get(server, path)
        answers[name] = ", ".join(r.headers.get("X-Stored-Page", "none") for r in (first, again))
        sizes[name] = len(first.content)
    return {
        "runs": results,
        "answers": answers,
        "bytes": sizes,
        "settled": settled,
        "browser": browsers,
        "rounds": rounds,
    }


# The kinds of publish that render every list page or every profile: thousands of pages, tens
# of minutes at 10,000 vendors, so they run at the smaller sizes only (what they render grows
# with the site, and 1,000 shows how).
WHOLE_LIST_KINDS = (
    "a score of one vendor (its total moves)",
    "a new vendor published",
    "an axis's description (the pages that read the axes)",
)
WHOLE_LIST_KINDS_UP_TO = 1000  # vendors


def rerenders(size):
    """What each kind of publish renders again: pages with a new rendered_at, with new bytes,
    marked due for the worker's sweep, and the render task's own time. Above
    WHOLE_LIST_KINDS_UP_TO vendors, the fact and the verification alone."""
    from django.utils import timezone

    from vendors.models import Score

    # A vendor with scores, and not the one the other modes publish.
    slug = (
        Score.objects.exclude(vendor__slug=ANCHOR_SLUG)
        .order_by("vendor__slug")
        .values_list("vendor__slug")[0][0]
    )
    kinds = {
        "a fact of one vendor": lambda: publishing.fact_change(slug, f"Rerender {time.time():.0f}"),
        "a score of one vendor (its total moves)": lambda: publishing.score_change(slug),
        "Mark verified today (one vendor)": lambda: publishing.verification(slug),
        "a new vendor published": lambda: publishing.new_vendor(int(time.time())),
        "an axis's description (the pages that read the axes)": lambda: publishing.axis_edit(
            int(time.time())
        ),
    }
    if size > WHOLE_LIST_KINDS_UP_TO:
        kinds = {name: publish for name, publish in kinds.items() if name not in WHOLE_LIST_KINDS}
    found = {}
    for name, publish in kinds.items():
        publishing.settle()  # the sweep's renders of an earlier publish are not this one's
        before, since = publishing.snapshot(), timezone.now()
        publish()
        seconds = publishing.drain()
        after = publishing.snapshot()
        now = timezone.now()
        found[name] = {
            "stored": len(after),
            "rendered": sum(1 for path, row in after.items() if row[1] != before.get(path, (None,) * 3)[1]),
            "new bytes": sum(1 for path, row in after.items() if row[0] != before.get(path, (None,) * 3)[0]),
            "due": sum(1 for row in after.values() if row[2] is not None and row[2] <= now),
            "seconds": seconds,
            "tasks": publishing.render_tasks(since),
        }
    return found


def publish_to_fresh(server, *, count):
    """From each publish's commit until a second app server answers the new bytes, and until the
    store's file holds them (both polled every 10 ms)."""
    from django.conf import settings

    second = Server(cache=True, static_root=os.environ["STATIC_ROOT"], port=free_port())
    path = f"/vendors/{ANCHOR_SLUG}/"
    store_file = Path(settings.STORED_PAGES_ROOT) / "vendors" / ANCHOR_SLUG / "index.html"
    served, stored = [], []
    try:
        get(second, path).raise_for_status()  # the second server has the page in its own copies
        for n in range(count):
            publishing.drain()
            marker = f"Fresh {time.time():.0f} {n}"
            committed = publishing.fact_change(ANCHOR_SLUG, marker)
            times: dict[str, float] = {}
            while len(times) < 2:
                now = time.monotonic()
                if now - committed > 60:
                    raise SystemExit(f"publish to fresh: {marker!r} not served within 60 s")
                if "served" not in times and marker in get(second, path).text:
                    times["served"] = time.monotonic() - committed
                if "stored" not in times and marker.encode() in read(store_file):
                    times["stored"] = time.monotonic() - committed
                time.sleep(0.01)
            served.append(times["served"])
            stored.append(times["stored"])
    finally:
        second.stop()
    return {"served": served, "stored": stored}


def read(path):
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def file_anchor(server, export_root, *, duration):
    """The trivial view on gunicorn and the Trainium profile from the export on nginx, beside
    it in the same run; None without nginx."""
    import httpx
    from nginx import NGINX, Nginx, available

    if not available():
        if os.environ.get("REQUIRE_NGINX") == "1":
            raise SystemExit(f"No nginx at {NGINX}, and REQUIRE_NGINX=1 says the file anchor must run.")
        print(f"no nginx at {NGINX} (apt-get install nginx): the file anchor is not measured", flush=True)
        return None
    path = f"/vendors/{ANCHOR_SLUG}/"
    page = get(server, path)
    if page.headers.get("X-Stored-Page") != "hit":
        raise SystemExit(
            f"gunicorn did not answer {path} from the store: {page.headers.get('X-Stored-Page')!r}"
        )
    publishing.settle()  # the periodic worker's first runs (the sweeps) are not beside wrk
    with Nginx(export_root=export_root, upstream=f"127.0.0.1:{server.port}", workers=WORKERS) as nginx:
        served = httpx.get(nginx.url + path, headers={"Accept-Encoding": "identity"})
        if served.content != page.content or served.headers.get("content-type") != "text/html; charset=utf-8":
            raise SystemExit(f"nginx did not serve {path} from the export as gunicorn answers it")
        # Both at a load that keeps each busy: 4 connections keep gunicorn's 2 sync workers
        # busy, but leave nginx waiting on the network between answers of 65 KB.
        results = drive(server, {"trivial view": "/bench/trivial/"}, duration, **ANCHOR_LOAD)

        def nginx_cpu():
            return cpu_seconds(nginx.process.pid)

        results[ANCHOR_FILE] = wrk_with_cpu(
            "file anchor", nginx_cpu, nginx.url + path, duration, **ANCHOR_LOAD
        )
        # As a browser asks: the page's gzip, rendered beside it in the export (gzip_static).
        gzipped = httpx.get(nginx.url + path, headers=BROWSER)
        if gzipped.headers.get("content-encoding") != "gzip" or gzipped.content != page.content:
            raise SystemExit(f"nginx did not send {path}'s gzip as a browser asks for it")
        results[ANCHOR_GZIP] = wrk_with_cpu(
            "file anchor, as a browser asks",
            nginx_cpu,
            nginx.url + path,
            duration,
            **ANCHOR_LOAD,
            extra_headers=BROWSER,
        )
    sizes = {
        "trivial view": 2,
        ANCHOR_FILE: len(page.content),
        ANCHOR_GZIP: int(gzipped.headers["content-length"]),
    }
    return {"bytes": sizes, "runs": results}


def measure_stored(server, export_root, *, size, duration, fresh_count):
    """Every stored-pages mode on ``server`` (gunicorn for SITE_URL, the worker beside it)."""
    load_before = os.getloadavg()[0]
    found = {"anchor": file_anchor(server, export_root, duration=duration)}
    shutil.rmtree(export_root, ignore_errors=True)
    found["after publish"] = after_publish(server, duration=duration)
    found["rerenders"] = rerenders(size)
    found["fresh"] = publish_to_fresh(server, count=fresh_count)
    found["load"] = (load_before, os.getloadavg()[0])
    return found


def new_export_root():
    return Path(tempfile.mkdtemp(prefix="chipsite-export-"))
