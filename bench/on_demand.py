"""bench/load.py's pages rendered on demand (query strings, any-N comparisons), cold, miss and
warm; alone with ``--on-demand``, written to docs/benchmarks-on-demand.md."""

import os
import subprocess

from load import ROOT, Server, drive


def on_demand(size, *, duration, static_root):
    """The pages rendered on demand (query strings, any-N comparisons; the stored addresses are
    measured after a publish, bench/stored.py): their query counts and bytes, and wrk on each
    cold, miss and warm. Returns (counts, runs)."""
    from catalogue import pages, queries_and_bytes

    from infra.stored import is_stored_address

    urls = {name: path for name, path in pages(size).items() if "?" in path or not is_stored_address(path)}
    counts = queries_and_bytes(urls)
    runs = {}
    for mode, cache, unique in (("cold", False, False), ("miss", True, True), ("warm", True, False)):
        server = Server(cache=cache, static_root=static_root)
        try:
            runs[mode] = drive(server, urls, duration, unique=unique)
        finally:
            server.stop()
    return counts, runs


def measure_on_demand(sizes, *, duration, static_root):
    """``--on-demand``: each size's pages rendered on demand, with a task worker beside the servers."""
    from catalogue import grow
    from load_report import on_demand_report
    from stored import Worker

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    results = {}
    for size in sizes:
        grow(size)
        load_before, worker = os.getloadavg()[0], Worker()
        try:
            counts, runs = on_demand(size, duration=duration, static_root=static_root)
        finally:
            worker.stop()
        results[size] = {"counts": counts, "runs": runs, "load": (load_before, os.getloadavg()[0])}
        text = on_demand_report(results, duration=duration, commit=commit.stdout.strip())
        (ROOT / "docs" / "benchmarks-on-demand.md").write_text(text + "\n")
        print(text, flush=True)
