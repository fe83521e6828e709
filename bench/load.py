"""The site under load: every page type at 10, 1,000 and 10,000 vendors, cold and warm.

Run with ``make bench`` (or ``python bench/load.py --sizes 10,1000,10000``). Needs
PostgreSQL and Redis (the machine's defaults are used), ``wrk`` and gunicorn. It

1. makes a throwaway PostgreSQL database, loads the demo, and grows a synthetic catalogue
   (facts for every attribute with cited sources, events, scores, FAQs) to each size;
2. serves the real site with gunicorn (2 sync workers) and the production settings
   (DEBUG off, whitenoise, Redis), beside a trivial view in the same process;
3. drives every page type with wrk, cold (page cache off: every request renders) and
   warm (page cache on), and the trivial view in the same server run;
4. writes requests per second, p50, p99, query count, bytes, the server's CPU time per
   request, the ratio to the trivial view, and the machine's load to docs/benchmarks.md;
5. measures the file anchor: nginx (bench/nginx.py, the deployment's config) serving the
   Trainium profile from a file of the export, beside the trivial view in the same run.

Ratios to the trivial view are what to read: they cancel the machine's speed. No test
asserts a timing; CI runs this at the smallest size (``--smoke``) to keep it working.
"""

import argparse
import datetime as dt
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE = os.environ.get("BENCH_DATABASE", "chipsite_bench")
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
WORKERS = 2
CONNECTIONS = 4

os.environ.update(
    DJANGO_SETTINGS_MODULE="chipsite.settings",
    DATABASE_URL=f"{PG}/{DATABASE}",
    SECRET_KEY="bench-only-secret-key-not-for-production-0123456789",
    ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
    REDIS_URL=REDIS_URL,
    SECURE_COOKIES="0",  # the benchmark speaks plain HTTP on loopback
    SECURE_SSL_REDIRECT="0",
    BENCHMARK="1",
    # The editors the benchmarks sign in measure pages and saves, not sign-in: no second factor.
    STAFF_SECOND_FACTOR="optional",
)


def fresh_database():
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DATABASE}"')


def setup_django():
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.core.cache import cache

    cache.clear()  # nothing from an earlier run may be served in this one
    from editorial.demo import load_demo

    load_demo()


# --- measuring -------------------------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(master):
    """User and system time of a master process and its workers so far (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [master]
    children = Path(f"/proc/{master}/task/{master}/children")
    if children.exists():
        pids += [int(pid) for pid in children.read_text().split()]
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


class Server:
    """gunicorn with the production settings; ``cache`` turns the page cache on or off."""

    def __init__(self, *, cache, static_root, port=None):
        self.port = port or free_port()
        env = {
            **os.environ,
            "DEBUG": "0",
            "PAGE_CACHE": "1" if cache else "0",
            "STATIC_ROOT": str(static_root),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "chipsite.wsgi",
                "--workers",
                str(WORKERS),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
            ],  # fmt: skip
            cwd=ROOT,
            env=env,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)

    def cpu_seconds(self):
        return cpu_seconds(self.process.pid)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


# A new query string on every request: the page cache misses (each address is new), while the
# shared reference data (axes, alternatives, comparisons) stays cached, as after a publish.
UNIQUE_ADDRESSES = """
counter = 0
request = function()
  counter = counter + 1
  local sep = string.find(wrk.path, "?", 1, true) and "&" or "?"
  return wrk.format(nil, wrk.path .. sep .. "bench=" .. counter .. "-" .. math.random(1000000000))
end
"""


def wrk(url, duration, *, unique=False):
    script = []
    if unique:
        path = Path(tempfile.gettempdir()) / "chipsite-unique.lua"
        path.write_text(UNIQUE_ADDRESSES)
        script = ["-s", str(path)]
    out = subprocess.run(
        ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency", *script, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    latency = {}
    for percent in ("50", "99"):
        value, unit = re.search(rf"\s{percent}%\s+([\d.]+)(us|ms|s)", out).groups()
        latency[percent] = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "requests": total, "p50": latency["50"], "p99": latency["99"], "errors": errors}


def drive(server, urls, duration, *, unique=False):
    results = {}
    for name, path in urls.items():
        subprocess.run(["curl", "-s", "-o", "/dev/null", server.url + path], check=True)  # prime
        cpu = server.cpu_seconds()
        result = wrk(server.url + path, duration, unique=unique and name != "trivial view")
        if result["errors"]:
            raise SystemExit(f"{name}: {result['errors'].group(0)}")
        result["cpu_ms"] = 1000 * (server.cpu_seconds() - cpu) / max(1, result["requests"])
        results[name] = result
    return results


# The file anchor: what a page costs when nginx sends it from the export, beside the trivial
# view in the same run. Until `manage.py export_site` exists, the export holds the one page the
# anchor needs, written where the export's layout puts it, as the running gunicorn served it.
ANCHOR_SLUG = "aws-trainium"
ANCHOR_TARGET = 8  # nginx serving the export at least 8 times the trivial view's requests/s


def write_profile_export(server, export_root, slug=ANCHOR_SLUG):
    """``/vendors/<slug>/`` as the server answers it, saved as the export's
    ``vendors/<slug>/index.html``; returns the bytes."""
    import httpx

    # The first request of a new server waits for a worker to start: a long timeout.
    response = httpx.get(f"{server.url}/vendors/{slug}/", headers={"Accept-Encoding": "identity"}, timeout=60)
    response.raise_for_status()
    path = Path(export_root) / "vendors" / slug / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(response.content)
    return response.content


def file_anchor(*, duration, static_root):
    """The trivial view on gunicorn and the profile from the export on nginx, one run of each
    server (nginx with as many workers as gunicorn, upstream that gunicorn); None without nginx."""
    import httpx
    from nginx import NGINX, Nginx, available

    if not available():
        if os.environ.get("REQUIRE_NGINX") == "1":
            raise SystemExit(f"No nginx at {NGINX}, and REQUIRE_NGINX=1 says the file anchor must run.")
        print(f"no nginx at {NGINX} (apt-get install nginx): the file anchor is not measured", flush=True)
        return None
    export_root = Path(tempfile.mkdtemp(prefix="chipsite-export-"))
    server = Server(cache=True, static_root=static_root)
    try:
        page = write_profile_export(server, export_root)
        with Nginx(export_root=export_root, upstream=f"127.0.0.1:{server.port}", workers=WORKERS) as nginx:
            path = f"/vendors/{ANCHOR_SLUG}/"
            served = httpx.get(nginx.url + path, headers={"Accept-Encoding": "identity"})
            if served.content != page or served.headers.get("content-type") != "text/html; charset=utf-8":
                raise SystemExit(f"nginx did not serve {path} from the export as gunicorn wrote it")
            results = drive(server, {"trivial view": "/bench/trivial/"}, duration)
            cpu = cpu_seconds(nginx.process.pid)
            result = wrk(nginx.url + path, duration)
            if result["errors"]:
                raise SystemExit(f"file anchor: {result['errors'].group(0)}")
            result["cpu_ms"] = 1000 * (cpu_seconds(nginx.process.pid) - cpu) / max(1, result["requests"])
            results["profile from the export (nginx)"] = result
    finally:
        server.stop()
        shutil.rmtree(export_root, ignore_errors=True)
    return {"bytes": {"trivial view": 2, "profile from the export (nginx)": len(page)}, "runs": results}


def measure(size, *, duration, static_root):
    from catalogue import pages, queries_and_bytes

    urls = pages(size)
    counts = queries_and_bytes(urls)
    load_before = os.getloadavg()[0]
    runs = {}
    for mode, cache, unique in (("cold", False, False), ("miss", True, True), ("warm", True, False)):
        server = Server(cache=cache, static_root=static_root)
        try:
            runs[mode] = drive(server, urls, duration, unique=unique)
        finally:
            server.stop()
    anchor = file_anchor(duration=duration, static_root=static_root)
    return {"counts": counts, "runs": runs, "anchor": anchor, "load": (load_before, os.getloadavg()[0])}


def freshness_across_servers(static_root):
    """A publish through one app server is served by another on the very next request."""
    import urllib.parse
    import urllib.request
    from http.cookiejar import CookieJar

    from django.contrib.auth import get_user_model

    from editorial import services
    from vendors.models import Vendor

    user = get_user_model().objects.filter(username="bench-publisher").first()
    if user is None:
        user = get_user_model().objects.create_superuser("bench-publisher", "b@example.com", "bench-pw")
    vendor = Vendor.objects.get(slug="aws-trainium")
    a, b = Server(cache=True, static_root=static_root), Server(cache=True, static_root=static_root)
    try:
        page = b.url + "/vendors/aws-trainium/"
        before = urllib.request.urlopen(page).read().decode()  # noqa: S310 (loopback)
        urllib.request.urlopen(page).read()  # noqa: S310  now cached on b's side
        marker = f"Freshness check {time.time():.0f}"
        vendor.summary = marker
        vendor.save()
        services.refresh_state(obj=vendor)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        login = opener.open(a.url + "/admin/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login).group(1)
        data = {
            "csrfmiddlewaretoken": token,
            "username": "bench-publisher",
            "password": "bench-pw",
            "next": "/admin/",
        }
        opener.open(a.url + "/admin/login/", urllib.parse.urlencode(data).encode())
        change = opener.open(f"{a.url}/admin/vendors/vendor/{vendor.pk}/change/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', change).group(1)
        opener.open(
            f"{a.url}/admin/vendors/vendor/{vendor.pk}/workflow/publish/",
            urllib.parse.urlencode({"csrfmiddlewaretoken": token, "note": ""}).encode(),
        )
        after = urllib.request.urlopen(page).read().decode()  # noqa: S310
        return marker not in before and marker in after
    finally:
        a.stop()
        b.stop()


# --- the report ------------------------------------------------------------------------------


def anchor_lines(anchor):
    """The file anchor's table for one size, or a line saying it was not measured."""
    lines = ["### The file anchor: the profile from the export", ""]
    if anchor is None:
        return [*lines, "Not measured: no nginx at /usr/sbin/nginx.", ""]
    trivial = anchor["runs"]["trivial view"]
    lines += [
        f"nginx ({WORKERS} workers, `infra/nginx/chipsite.conf.template`) sending",
        f"`/vendors/{ANCHOR_SLUG}/` from a file of the export, the same bytes gunicorn served, beside the",
        f"trivial view on gunicorn in the same run. Target: at least {ANCHOR_TARGET}x the trivial view.",
        "",
        "| answer | bytes | req/s | p50 ms | p99 ms | ratio | CPU ms | target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, result in anchor["runs"].items():
        ratio = result["rps"] / trivial["rps"]
        size_bytes = anchor["bytes"][name]
        target = (
            ""
            if name == "trivial view"
            else f"≥ {ANCHOR_TARGET}: {'met' if ratio >= ANCHOR_TARGET else 'not met'}"
        )
        lines.append(
            f"| {name} | {size_bytes:,} | {result['rps']:.0f} | {result['p50']:.2f} | {result['p99']:.2f} | "
            f"{ratio:.2f} | {result['cpu_ms']:.2f} | {target} |"
        )
    return [*lines, ""]


def report(results, *, duration):
    from django.db import connection

    lines = [
        "# Benchmarks",
        "",
        f"Made by `make bench` (`bench/load.py`) on {dt.date.today():%Y-%m-%d}: gunicorn with {WORKERS} sync",
        f"workers and the production settings (DEBUG off, PostgreSQL {connection.pg_version // 10000},",
        f"Redis), driven by `wrk -t1 -c{CONNECTIONS} -d{duration}s` from the same "
        f"{os.cpu_count()}-core machine.",
        "**Cold**: page and data cache off, every request renders and reads everything. **Miss**:",
        "cache on, but every request asks for a new address, so the page renders while the shared",
        "reference data (axes, alternatives, comparisons) stays cached, as after a publish.",
        "**Warm**: page cache on. The ratio is the",
        "page's requests per second over the trivial view's in the same server run: read ratios, not",
        "seconds. CPU is the server's user and system time per request (gunicorn master and workers).",
        "Queries are counted with the page cache off; bytes are the uncompressed HTML.",
        "",
    ]
    for size, result in results.items():
        load = result["load"]
        lines += [
            f"## {size:,} published vendors",
            "",
            f"Machine load (1-minute average) {load[0]:.2f} before and {load[1]:.2f} after this size's runs.",
            "",
            "| page | queries | bytes | cold req/s | cold p50 ms | cold p99 ms | cold ratio | cold CPU ms |"
            " miss req/s | miss p50 ms | miss ratio | warm req/s | warm p50 ms | warm p99 ms | warm ratio |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        cold, miss, warm = (result["runs"][mode] for mode in ("cold", "miss", "warm"))
        for name, (queries, size_bytes) in result["counts"].items():
            c, m, w = cold[name], miss[name], warm[name]
            lines.append(
                f"| {name} | {queries} | {size_bytes:,} | {c['rps']:.0f} | {c['p50']:.1f} | {c['p99']:.1f} | "
                f"{c['rps'] / cold['trivial view']['rps']:.3f} | {c['cpu_ms']:.1f} | {m['rps']:.0f} | "
                f"{m['p50']:.1f} | {m['rps'] / miss['trivial view']['rps']:.3f} | {w['rps']:.0f} | "
                f"{w['p50']:.1f} | {w['p99']:.1f} | {w['rps'] / warm['trivial view']['rps']:.3f} |"
            )
        lines.append("")
        lines += anchor_lines(result["anchor"])
    sizes = sorted(results)
    pairs = [(sizes[0], sizes[-1])] if len(sizes) > 1 else []
    if len(sizes) > 2:
        pairs.append((sizes[-2], sizes[-1]))
    for small, large in pairs:
        lines += [f"## Growth of p50 from {small:,} to {large:,} vendors", ""]
        if small < 50:
            lines += [
                f"List pages hold 50 vendors; at {small:,} they hold {small:,}, so their growth here is",
                "partly the page's own size. The next table compares full pages.",
                "",
            ]
        lines += ["| page | cold | miss | warm |", "|---|---:|---:|---:|"]
        for name in results[small]["counts"]:
            if name not in results[large]["runs"]["cold"]:
                continue  # the deep rankings page has another number at each size
            cells = []
            for mode in ("cold", "miss", "warm"):
                a = results[small]["runs"][mode][name]["p50"]
                b = results[large]["runs"][mode][name]["p50"]
                cells.append(f"{100 * (b - a) / a:+.0f} %")
            lines.append(f"| {name} | {' | '.join(cells)} |")
        lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,1000,10000")
    parser.add_argument("--duration", type=int, default=5, help="seconds of wrk per page and mode")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    parser.add_argument("--smoke", action="store_true", help="smallest size, 1 s a page, nothing written")
    args = parser.parse_args()
    sizes = [10] if args.smoke else [int(s) for s in args.sizes.split(",")]
    duration = 1 if args.smoke else args.duration

    began, cpu = time.perf_counter(), time.process_time()
    static_root = Path(tempfile.mkdtemp(prefix="chipsite-static-"))
    os.environ["STATIC_ROOT"] = str(static_root)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=os.environ,
        check=True,
    )
    fresh_database()
    setup_django()
    from catalogue import grow  # the synthetic vendors, once Django is set up

    results = {}
    for size in sizes:
        grow(size)
        results[size] = measure(size, duration=duration, static_root=static_root)
        print(f"measured {size:,} vendors", flush=True)
        anchor = results[size]["anchor"]
        if anchor is not None:
            nginx_rps = anchor["runs"]["profile from the export (nginx)"]["rps"]
            trivial_rps = anchor["runs"]["trivial view"]["rps"]
            print(
                f"file anchor: nginx serves the profile from the export at {nginx_rps:.0f} req/s, "
                f"{nginx_rps / trivial_rps:.2f}x the trivial view's {trivial_rps:.0f} "
                f"(target at least {ANCHOR_TARGET}x)",
                flush=True,
            )
    fresh = freshness_across_servers(static_root)
    print(f"a publish through one server is served fresh by the other: {'yes' if fresh else 'NO'}")
    text = report(results, duration=duration)
    text += (
        "\n## Freshness across app servers\n\nTwo gunicorn instances on different ports, one PostgreSQL, one "
        "Redis: a profile cached by the second, then published through the first's admin, is served "
        f"fresh by the second on the very next request: **{'yes' if fresh else 'no'}**.\n"
    )
    text += (
        f"\nThe whole run took {time.perf_counter() - began:.0f} s of wall time and "
        f"{time.process_time() - cpu:.0f} s of this process's CPU time (building the catalogue).\n"
    )
    print(text)
    if not args.smoke:
        Path(args.output).write_text(text)
    if not fresh:
        raise SystemExit("A publish through one app server was not served fresh by the other.")


if __name__ == "__main__":
    main()
