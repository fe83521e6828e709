"""bench/load.py's report: the tables of docs/benchmarks.md for the pages rendered on demand,
the growth between sizes, and the stored pages' sections (bench/stored_report.py)."""

import datetime as dt
import os
from pathlib import Path

from load import CONNECTIONS, EDITING_SECTION, PRIMING_SECONDS, WORKERS


def report(results, *, duration):
    from django.db import connections
    from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQL
    from stored_report import stored_lines, summary_lines
    from warm_publish import report_lines as warm_report_lines

    database = connections["default"]
    assert isinstance(database, PostgreSQL), "the benchmark runs on PostgreSQL"

    lines = [
        "# Benchmarks",
        "",
        f"Made by `make bench` (`bench/load.py`) on {dt.date.today():%Y-%m-%d}: gunicorn with {WORKERS} sync",
        f"workers and the production settings (DEBUG off, PostgreSQL {database.pg_version // 10000},",
        f"Redis), driven by `wrk -t1 -c{CONNECTIONS} -d{duration}s` from the same "
        f"{os.cpu_count()}-core machine.",
        "Every size has its own page store (STORED_PAGES_ROOT), SITE_URL is the server's address (each",
        "request names its host), and the Procfile's two task workers (`run_worker`, TASKS_BACKEND=database:",
        "one for the default queue, one for the periodic) run beside gunicorn. Addresses without a",
        "query string are stored pages, measured right after a publish;",
        "the first table holds the pages rendered on demand (query strings, any-N comparisons).",
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
        lines += on_demand_lines(size, result)
        lines += stored_lines(result["stored"], size=size)
        lines += warm_report_lines(result["warm publish"])
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
    lines += summary_lines(results)
    return "\n".join(lines)


def on_demand_lines(size, result):
    """A size's table of the pages rendered on demand: cold, miss and warm beside the trivial view."""
    load = result["load"]
    lines = [
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
    return [*lines, ""]


def on_demand_report(results, *, duration, commit):
    """``--on-demand``'s file: the pages rendered on demand alone, at each size, and the same
    pages warm right after a publish."""
    from warm_publish import report_lines as warm_report_lines

    lines = [
        "# Pages rendered on demand",
        "",
        f"Made by `bench/load.py --on-demand` on {dt.date.today():%Y-%m-%d}, commit {commit}: the",
        "first table of each size in docs/benchmarks.md alone (same catalogue, same servers and",
        f"settings, `wrk -t1 -c{CONNECTIONS} -d{duration}s`), without the export and the stored pages'",
        "modes (but the pages warm right after a publish), so that a 10,000-vendor run takes minutes,",
        "not most of an hour. Cold: page and data",
        "cache off; the rows lists repeat are read as kept (infra/rows/: rendered once for each",
        "published version, as on the live site), since they are stored with the versions, not cached.",
        f"Each page is measured after {PRIMING_SECONDS} s of the same wrk unmeasured, so that both",
        "workers have served it once (a worker's first request imports and compiles what the page",
        "needs, once per worker). The tables run with no task worker (nothing these pages do enqueues",
        "one); the warm-after-publish mode runs with both, the catalogue's queued renders of stored",
        "pages dropped first (it measures no stored page).",
        "",
    ]
    for size, result in results.items():
        lines += on_demand_lines(size, result)
        if "warm publish" in result:
            lines += warm_report_lines(result["warm publish"])
    return "\n".join(lines)


def write_report(output, text):
    path = Path(output)
    # bench/editing.py's section is its own: kept as it was.
    kept = path.read_text().partition(EDITING_SECTION)[1:] if path.exists() else ("", "")
    path.write_text(f"{text}\n{''.join(kept)}" if kept[0] else text)
