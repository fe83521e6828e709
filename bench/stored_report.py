"""The stored-pages modes' part of docs/benchmarks.md (bench/stored.py measures them)."""

from load import WORKERS
from stored import (
    ANCHOR_FILE,
    ANCHOR_GZIP,
    ANCHOR_LOAD,
    ANCHOR_SLUG,
    ANCHOR_TARGET,
    EXPORT_TARGET,
    FRESH_TARGET,
    HIT_TARGET,
    INCREMENTAL_TARGET,
    ROUNDS,
)


def percentile(values, percent):
    """Nearest rank: of 20 values, p99 is the largest."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * percent // 100) - 1)]


def met(ok):
    return "met" if ok else "not met"


def incremental(found):
    tasks = found["rerenders"]["a fact of one vendor"]["tasks"]
    return max((seconds for seconds, _ in tasks), default=None)


def anchor_lines(anchor):
    """The file anchor's table for one size, or a line saying it was not measured."""
    lines = ["### The file anchor: the profile from the export", ""]
    if anchor is None:
        return [*lines, "Not measured: no nginx at /usr/sbin/nginx.", ""]
    trivial = anchor["runs"]["trivial view"]
    lines += [
        f"nginx ({WORKERS} workers, `infra/nginx/chipsite.conf.template`) sending",
        f"`/vendors/{ANCHOR_SLUG}/` from the folder `export_site --all` wrote, the same bytes gunicorn",
        "answers from the store, beside the trivial view on gunicorn in the same run, both driven by",
        f"`wrk -t{ANCHOR_LOAD['threads']} -c{ANCHOR_LOAD['connections']}` (the other tables' 4",
        "connections keep gunicorn's workers busy but leave nginx waiting on the network between",
        "answers); then the same page asked as a browser asks (`Accept-Encoding: gzip, deflate, br,",
        "zstd`), which nginx answers with the page's gzip as it lies beside the page (`gzip_static`;",
        "Debian's nginx has no brotli). Target: at",
        f"least {ANCHOR_TARGET}x the trivial view.",
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


def ratio(found, result):
    """A stored page's requests/s over the trivial view's beside it: the mean of the trivial
    view's runs right before and right after the page's median round, or, for the trivial view's
    own row, its run before every page."""
    return result["rps"] / result.get("beside", found["runs"]["trivial view"]["rps"])


def spread(found, name, kind):
    """The lowest and highest ratio of a page's rounds, as ``0.88-0.97``."""
    ratios = found["rounds"].get(name, {}).get(kind)
    return f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "-"


def after_publish_lines(found):
    lines = [
        "### Stored pages right after a publish",
        "",
        f"Before each page: a fact of {ANCHOR_SLUG} published (editorial.services.publish), and both",
        "workers idle: the publish's render run, and the sweep's, which builds what the publish left",
        "due (the whole-site file, the chips' downloads); *settled* is the seconds from the publish",
        "until then. Then the first request (its `X-Stored-Page`, and again after wrk), the trivial",
        f"view, and {ROUNDS} rounds of wrk on the page, the page as a browser asks (the table after",
        "this one) and the trivial view again, with nothing else running. Each round's ratio is to",
        "the mean of the trivial view's runs right before and right after it (*trivial beside*); a",
        "page is judged by its median round, and *rounds* gives the lowest and highest (one 5-second",
        "run moves by about a tenth of the ratio from one run to the next here). The first row is",
        "the trivial view's run before every page. Target: at least",
        f"{HIT_TARGET} times the trivial view's requests/s, answered from the store.",
        "",
        "| page | bytes | X-Stored-Page | settled s | req/s | trivial beside | p50 ms | p99 ms | ratio "
        "| rounds | CPU ms | target |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for name, result in found["runs"].items():
        page_ratio = ratio(found, result)
        hit = found["answers"][name] == "hit, hit"
        target = "" if name == "trivial view" else f"≥ {HIT_TARGET}: {met(page_ratio >= HIT_TARGET and hit)}"
        settled = found["settled"][name]
        lines.append(
            f"| {name} | {found['bytes'][name]:,} | {found['answers'][name]} | "
            f"{'-' if settled is None else f'{settled:.1f}'} | {result['rps']:.0f} | "
            f"{result['rps'] / page_ratio:.0f} | {result['p50']:.2f} | {result['p99']:.2f} | "
            f"{page_ratio:.3f} | {spread(found, name, 'page')} | {result['cpu_ms']:.2f} | {target} |"
        )
    lines += [
        "",
        "The same pages right after that, asked as a browser asks (`Accept-Encoding: gzip, deflate,",
        "br, zstd`): the stored bytes compressed once per process and kept by their ETag. *Bytes*",
        "are what was sent; each round's ratio is to the same trivial view runs around it as above,",
        "and the page is judged by its median round.",
        "",
        "| page | sent as | bytes | req/s | p50 ms | p99 ms | ratio | rounds | CPU ms | target |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for name, result in found["browser"].items():
        browser_ratio = ratio(found, result)
        target = f"≥ {HIT_TARGET}: {met(browser_ratio >= HIT_TARGET)}"
        lines.append(
            f"| {name} | {result['coding']} | {result['bytes']:,} | {result['rps']:.0f} | "
            f"{result['p50']:.2f} | {result['p99']:.2f} | {browser_ratio:.3f} | "
            f"{spread(found, name, 'browser')} | {result['cpu_ms']:.2f} | {target} |"
        )
    return [*lines, ""]


def rerender_lines(found):
    lines = [
        "### Stored pages rendered again, per kind of publish",
        "",
        "Each publish made in this process through the site's services (the axis as its admin saves",
        "it), then the worker's queue run empty. *Rendered* counts pages with a new `rendered_at`",
        "(new pages too), *new bytes* those with a new ETag, *due* those left to the worker's sweep",
        "(built from everything). *Queue* is the wall time until the queue was empty; *task* the",
        "render tasks' own running time. Above 1,000 vendors, the publishes that render every list",
        "or every profile (a score, a new vendor, an axis) are left out: thousands of pages each.",
        "",
        "| publish | stored pages | rendered again | new bytes | due for the sweep | queue s | task s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in found.items():
        task = sum(seconds for seconds, _ in row["tasks"])
        lines.append(
            f"| {name} | {row['stored']:,} | {row['rendered']:,} | {row['new bytes']:,} | {row['due']:,} | "
            f"{row['seconds']:.2f} | {task:.2f} |"
        )
    return [*lines, ""]


def fresh_lines(found, *, size):
    lines = [
        "### Publish to fresh",
        "",
        f"{len(found['served'])} publishes of a fact of {ANCHOR_SLUG}, one after another: seconds from",
        "the publish's commit until a second gunicorn (another port; the same database, Redis and",
        "store) answers the profile with the new value, and until the store's file (the export nginx",
        f"serves) holds it, polled every 10 ms. Target at 10,000 vendors: p99 at most {FRESH_TARGET} s.",
        "",
        "| where | p50 s | p99 s | target |",
        "|---|---:|---:|---|",
    ]
    for name, label in (("served", "second app server"), ("stored", "file in the store")):
        p99 = percentile(found[name], 99)
        target = f"≤ {FRESH_TARGET}: {met(p99 <= FRESH_TARGET)}" if size >= 10000 else ""
        lines.append(f"| {label} | {percentile(found[name], 50):.2f} | {p99:.2f} | {target} |")
    return [*lines, ""]


def export_lines(found, *, size):
    export, seconds = found["export"], incremental(found)
    full = export["export"][0]
    export_target = f"≤ {EXPORT_TARGET} s at 10,000: {met(full <= EXPORT_TARGET)}" if size >= 10000 else ""
    load = export["load"]
    lines = [
        "### The export",
        "",
        f"Before the servers started, machine load {load[0]:.2f} before and {load[1]:.2f} after:",
        "",
        "| step | seconds | what it said | target |",
        "|---|---:|---|---|",
        f"| `export_site DIR --all` | {full:.1f} | {export['export'][1]} | {export_target} |",
    ]
    if seconds is not None:
        lines.append(
            f"| incremental: render_showing after one fact's publish | {seconds:.2f} | "
            f"{publishing_counts(found)} | ≤ {INCREMENTAL_TARGET} s: {met(seconds <= INCREMENTAL_TARGET)} |"
        )
    return [*lines, ""]


def publishing_counts(found):
    tasks = found["rerenders"]["a fact of one vendor"]["tasks"]
    counts = tasks[-1][1] if tasks else {}
    return ", ".join(f"{count} {name}" for name, count in counts.items())


def stored_lines(found, *, size):
    load = found["load"]
    return [
        f"Stored-pages modes: machine load {load[0]:.2f} before and {load[1]:.2f} after.",
        "",
        *after_publish_lines(found["after publish"]),
        *rerender_lines(found["rerenders"]),
        *fresh_lines(found["fresh"], size=size),
        *export_lines(found, size=size),
        *anchor_lines(found["anchor"]),
    ]


def anchor_met(anchor, name):
    if not anchor:
        return "not measured"
    return met(anchor["runs"][name]["rps"] / anchor["runs"]["trivial view"]["rps"] >= ANCHOR_TARGET)


def summary_lines(results):
    """Each target, at each size it applies to: met or not."""
    lines = ["## Targets", "", "| target | " + " | ".join(f"{size:,}" for size in results) + " |"]
    lines.append("|---|" + "---|" * len(results))
    rows = {
        f"stored pages after a publish ≥ {HIT_TARGET}x the trivial view, each a hit": lambda f, s: met(
            all(
                ratio(f["after publish"], r) >= HIT_TARGET and f["after publish"]["answers"][n] == "hit, hit"
                for n, r in f["after publish"]["runs"].items()
                if n != "trivial view"
            )
        ),
        f"the same, asked as a browser asks (compressed) ≥ {HIT_TARGET}x": lambda f, s: met(
            all(ratio(f["after publish"], r) >= HIT_TARGET for r in f["after publish"]["browser"].values())
        ),
        "a fact change renders again fewer than half the stored pages, not the whole site": lambda f, s: met(
            f["rerenders"]["a fact of one vendor"]["rendered"]
            < f["rerenders"]["a fact of one vendor"]["stored"] / 2
        ),
        f"publish to fresh p99 ≤ {FRESH_TARGET} s (at 10,000)": lambda f, s: (
            met(max(percentile(f["fresh"][k], 99) for k in ("served", "stored")) <= FRESH_TARGET)
            if s >= 10000
            else "n/a"
        ),
        f"export_site --all ≤ {EXPORT_TARGET} s (at 10,000)": lambda f, s: (
            met(f["export"]["export"][0] <= EXPORT_TARGET) if s >= 10000 else "n/a"
        ),
        f"incremental render ≤ {INCREMENTAL_TARGET} s": lambda f, s: (
            met(incremental(f) <= INCREMENTAL_TARGET) if incremental(f) is not None else "not measured"
        ),
        f"nginx from the export ≥ {ANCHOR_TARGET}x the trivial view (identity bytes)": lambda f, s: (
            anchor_met(f["anchor"], ANCHOR_FILE)
        ),
        f"the same, as a browser asks (the page's gzip) ≥ {ANCHOR_TARGET}x": lambda f, s: anchor_met(
            f["anchor"], ANCHOR_GZIP
        ),
    }
    for name, judge in rows.items():
        cells = [judge(result["stored"], size) for size, result in results.items()]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def console_lines(found):
    """A few lines for the terminal (the smoke run writes no file)."""
    lines = []
    published = found["after publish"]
    for name, result in published["runs"].items():
        if name != "trivial view":
            lines.append(
                f"after a publish: {name} {result['rps']:.0f} req/s, {ratio(published, result):.2f}x the "
                f"trivial view beside it (median of {ROUNDS} rounds, {spread(published, name, 'page')}; "
                f"X-Stored-Page {published['answers'][name]}); as a browser asks "
                f"{ratio(published, published['browser'][name]):.2f}x"
            )
    for name, row in found["rerenders"].items():
        lines.append(
            f"publish of {name}: {row['rendered']:,} of {row['stored']:,} stored pages rendered again, "
            f"{row['new bytes']:,} with new bytes, {row['due']:,} due for the sweep"
        )
    for name in ("served", "stored"):
        values = found["fresh"][name]
        lines.append(
            f"publish to fresh ({name}): p50 {percentile(values, 50):.2f} s, "
            f"p99 {percentile(values, 99):.2f} s"
        )
    export = found["export"]
    lines.append(f"export_site --all: {export['export'][0]:.1f} s ({export['export'][1]})")
    if (seconds := incremental(found)) is not None:
        lines.append(f"incremental render after one publish: {seconds:.2f} s")
    if anchor := found["anchor"]:
        trivial_rps = anchor["runs"]["trivial view"]["rps"]
        for name in (ANCHOR_FILE, ANCHOR_GZIP):
            nginx_rps = anchor["runs"][name]["rps"]
            lines.append(
                f"file anchor: {name} at {nginx_rps:.0f} req/s, {nginx_rps / trivial_rps:.2f}x the "
                f"trivial view's {trivial_rps:.0f} (target at least {ANCHOR_TARGET}x)"
            )
    return lines
