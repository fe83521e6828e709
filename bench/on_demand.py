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
    """``--on-demand``: each size's pages rendered on demand, then the same pages warm right after
    a publish (bench/warm_publish.py), with a task worker beside the servers."""
    from catalogue import grow
    from load_report import on_demand_report

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    results = {}
    for size in sizes:
        grow(size)
        results[size] = _one_size(size, duration=duration, static_root=static_root)
        text = on_demand_report(results, duration=duration, commit=commit.stdout.strip())
        (ROOT / "docs" / "benchmarks-on-demand.md").write_text(text + "\n")
        print(text, flush=True)


def _one_size(size, *, duration, static_root):
    """One size's table, measured with no task worker beside the servers (nothing these pages do
    enqueues a task, and the grow's queued renders of stored pages would take the CPU); then the
    warm-after-publish mode with both workers, once those queued renders are dropped (this mode
    measures no stored page)."""
    from django_tasks_db.models import DBTaskResult
    from stored import Worker
    from warm_publish import warm_after_publish

    load_before = os.getloadavg()[0]
    counts, runs = on_demand(size, duration=duration, static_root=static_root)
    load_after = os.getloadavg()[0]
    DBTaskResult.objects.filter(status="READY").delete()
    worker, server = Worker(), Server(cache=True, static_root=static_root)
    try:
        warm = warm_after_publish(server, duration=duration)
    finally:
        server.stop()
        worker.stop()
    return {"counts": counts, "runs": runs, "load": (load_before, load_after), "warm publish": warm}
