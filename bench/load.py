"""The site under load: every page type at 10, 1,000 and 10,000 vendors, stored and on demand.

Run with ``make bench`` (or ``python bench/load.py --sizes 10,1000,10000``). Needs
PostgreSQL and Redis (the machine's defaults are used), ``wrk`` and gunicorn. It

1. makes a throwaway PostgreSQL database, loads the demo, and grows a synthetic catalogue
   (facts for every attribute with cited sources, events, scores, FAQs) to each size;
2. stores every page (``export_site DIR --all``, timed, a process per core) in a page store
   of its own (STORED_PAGES_ROOT), and serves the real site with gunicorn (2 sync workers)
   and the production settings (DEBUG off, whitenoise, Redis, SITE_URL its own address),
   beside a trivial view in the same process and a task worker (``run_worker``,
   TASKS_BACKEND=database) beside gunicorn;
3. drives the pages rendered on demand (query strings) with wrk, cold (page cache off: every
   request renders), miss and warm (page cache on), and the trivial view in the same run;
4. runs the stored-pages modes (bench/stored.py): each stored page type right after a
   publish, what each kind of publish renders again, publish to fresh on a second app server
   and in the store, and the file anchor (nginx serving the export); then the pages rendered
   on demand warm right after a publish (bench/warm_publish.py): which stayed hits;
5. writes requests per second, p50, p99, query count, bytes, the server's CPU time per
   request, the ratio to the trivial view, and the machine's load to docs/benchmarks.md.

Ratios to the trivial view are what to read: they cancel the machine's speed. No test
asserts a timing; CI runs this at the smallest size (``--smoke``) to keep it working.
"""

import argparse
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
EDITING_SECTION = "## Visitors and editors at once"  # bench/editing.py writes it
FRESH_PUBLISHES = 20  # publish-to-fresh samples at each size (3 with --smoke)

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
    # wrk is one client address asking thousands of times: the API's per-client limit would
    # answer 429, and this measures serving, not the limiter.
    API_RATE_LIMIT="1000000000",
)


def site_headers():
    """Every request the benchmark sends names SITE_URL's host (stored pages answer for it alone),
    whichever server's port it goes to."""
    site = os.environ.get("SITE_URL", "")
    return {"Host": site.split("://", 1)[1]} if "://" in site else {}


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


def collect_static():
    """The static files, collected into a folder of this run's own (STATIC_ROOT for every process)."""
    static_root = Path(tempfile.mkdtemp(prefix="chipsite-static-"))
    os.environ["STATIC_ROOT"] = str(static_root)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=os.environ,
        check=True,
    )
    return static_root


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
        self.port = port or int(os.environ.get("BENCH_SITE_PORT", 0)) or free_port()
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


def wrk(url, duration, *, unique=False, threads=1, connections=CONNECTIONS, extra_headers=None):
    script = []
    if unique:
        path = Path(tempfile.gettempdir()) / "chipsite-unique.lua"
        path.write_text(UNIQUE_ADDRESSES)
        script = ["-s", str(path)]
    sent = {**site_headers(), **(extra_headers or {})}
    headers = [arg for name, value in sent.items() for arg in ("-H", f"{name}: {value}")]
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", *headers, *script, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {**wrk_figures(out), "errors": re.search(NON_2XX, out)}


NON_2XX = r"Non-2xx or 3xx responses: (\d+)"


def wrk_figures(out):
    """Requests per second, requests, and the p50 and p99 latency in ms from wrk's ``--latency`` output."""
    latency = {}
    for percent in ("50", "99"):
        value, unit = _wrk_says(rf"\s{percent}%\s+([\d.]+)(us|ms|s)", out).groups()
        latency[percent] = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return {
        "rps": float(_wrk_says(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(_wrk_says(r"(\d+) requests in", out).group(1)),
        "p50": latency["50"],
        "p99": latency["99"],
    }


def _wrk_says(pattern, out):
    if (found := re.search(pattern, out)) is None:
        raise SystemExit(f"wrk's output has no {pattern!r}:\n{out}")
    return found


def wrk_with_cpu(name, cpu_of, url, duration, **options):
    """``wrk`` on ``url``, with the CPU per request that ``cpu_of()`` (seconds so far) counts;
    any answer but a 2xx or 3xx ends the run, naming ``name``."""
    cpu = cpu_of()
    result = wrk(url, duration, **options)
    if result["errors"]:
        raise SystemExit(f"{name}: {result['errors'].group(0)}")
    result["cpu_ms"] = 1000 * (cpu_of() - cpu) / max(1, result["requests"])
    return result


PRIMING_SECONDS = 1  # of wrk on a page before it is measured, so that every worker has served it


def drive(server, urls, duration, *, unique=False, threads=1, connections=CONNECTIONS):
    """wrk on each of ``urls``, measured once every worker has served the page (its first
    request imports and compiles what the page needs, a cost paid once per worker, not per
    request) and once its rows are kept (the first render keeps them)."""
    results = {}
    for name, path in urls.items():
        options = {
            "unique": unique and name != "trivial view",
            "threads": threads,
            "connections": connections,
        }
        host = [arg for name, value in site_headers().items() for arg in ("-H", f"{name}: {value}")]
        subprocess.run(["curl", "-s", "-o", "/dev/null", *host, server.url + path], check=True)  # booted
        wrk(server.url + path, PRIMING_SECONDS, **options)
        results[name] = wrk_with_cpu(name, server.cpu_seconds, server.url + path, duration, **options)
    return results


def measure(size, *, duration, static_root, fresh_count):
    """Every mode at one size: one page store, one worker, SITE_URL's gunicorn for each mode."""
    from on_demand import on_demand
    from stored import Worker, measure_stored, new_export_root, store_every_page
    from warm_publish import warm_after_publish

    export_root = new_export_root()
    stored = {"export": store_every_page(export_root)}
    load_before = os.getloadavg()[0]
    worker = Worker()
    try:
        counts, runs = on_demand(size, duration=duration, static_root=static_root)
        server = Server(cache=True, static_root=static_root)
        try:
            stored |= measure_stored(
                server, export_root, size=size, duration=duration, fresh_count=fresh_count
            )
            warm = warm_after_publish(server, duration=duration)
        finally:
            server.stop()
    finally:
        worker.stop()
    return {
        "counts": counts,
        "runs": runs,
        "stored": stored,
        "warm publish": warm,
        "load": (load_before, os.getloadavg()[0]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,1000,10000")
    parser.add_argument("--duration", type=int, default=5, help="seconds of wrk per page and mode")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    parser.add_argument("--smoke", action="store_true", help="smallest size, 1 s a page, nothing written")
    parser.add_argument(
        "--on-demand",
        action="store_true",
        help="the pages rendered on demand alone, written to docs/benchmarks-on-demand.md",
    )
    args = parser.parse_args()
    sizes = [10] if args.smoke else [int(s) for s in args.sizes.split(",")]
    duration = 1 if args.smoke else args.duration
    fresh_count = 3 if args.smoke else FRESH_PUBLISHES

    # Stored pages on, in a store of this run's own, for the address every request names; tasks
    # in the database, for the worker beside gunicorn. Set before Django is, for every process.
    store_root = Path(tempfile.mkdtemp(prefix="chipsite-stored-"))
    os.environ.setdefault("BENCH_SITE_PORT", str(free_port()))
    os.environ.update(
        STORED_PAGES="1",
        STORED_PAGES_ROOT=str(store_root),
        SITE_URL=f"http://127.0.0.1:{os.environ['BENCH_SITE_PORT']}",
        TASKS_BACKEND="database",
    )

    began, cpu = time.perf_counter(), time.process_time()
    static_root = collect_static()
    fresh_database()
    setup_django()
    from catalogue import grow  # the synthetic vendors, once Django is set up
    from load_report import report, write_report

    if args.on_demand:
        from on_demand import measure_on_demand

        return measure_on_demand(sizes, duration=duration, static_root=static_root)
    results = {}
    for size in sizes:
        grow(size)
        results[size] = measure(size, duration=duration, static_root=static_root, fresh_count=fresh_count)
        print(f"measured {size:,} vendors", flush=True)
        from stored_report import console_lines
        from warm_publish import console_lines as warm_lines

        for line in [*console_lines(results[size]["stored"]), *warm_lines(results[size]["warm publish"])]:
            print(line, flush=True)
        if not args.smoke:  # what is measured so far, should a larger size not finish
            write_report(args.output, report(results, duration=duration))
    from publishing import freshness_across_servers

    fresh = freshness_across_servers(static_root)
    print(f"a publish through one server is served fresh by the other: {'yes' if fresh else 'NO'}")
    text = report(results, duration=duration)
    text += (
        "\n## Freshness across app servers\n\nTwo gunicorn instances on different ports, one PostgreSQL, one "
        "Redis: a profile cached by the second (asked by its own host, so on demand, not from the store), "
        "then published through the first's admin, is served "
        f"fresh by the second on the very next request: **{'yes' if fresh else 'no'}**.\n"
    )
    text += (
        f"\nThe whole run took {time.perf_counter() - began:.0f} s of wall time and "
        f"{time.process_time() - cpu:.0f} s of this process's CPU time (building the catalogue).\n"
    )
    print(text)
    shutil.rmtree(store_root, ignore_errors=True)
    if not args.smoke:
        write_report(args.output, text)
    if not fresh:
        raise SystemExit("A publish through one app server was not served fresh by the other.")


if __name__ == "__main__":
    main()
