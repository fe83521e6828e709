"""bench/load.py's "warm right after a publish": the pages rendered on demand (query strings,
any-N comparisons), cached, then a fact of Groq published, as bench/stored.py publishes one.

Cached pages are keyed by what they show (infra/freshness.py): the publish should drop the
pages that show Groq, which render again once, and leave every other page a hit. Each page is
asked WARMING times (both gunicorn workers keep it), then once before the publish, once right
after the publish's commit and once more (their ``X-Page-Cache``); once the workers are idle,
wrk drives each page beside the trivial view. What a page shows is read from pages, not
assumed: whether it links to Groq's profile, and whether a render now (in this process, page
cache off) shows the fact's new value; the first answer after the publish must show it too."""

import time

import publishing
from load import drive, wrk_with_cpu
from stored import get

SLUG = "groq"
NAME = "Groq"
WARMING = 4  # requests per page before the publish: both sync workers have asked the cache


def pages():
    """Three pages that do not show Groq and three that do, each rendered on demand."""
    return {
        "another lane, filtered": "/vendors/?lane=hyperscaler-custom-silicon",
        "any-N comparison of two others": "/compare/vendors/aws-trainium/google-tpu/",
        "a search that does not find it": "/search/?q=HBM3e",
        "its lane, filtered to it": f"/vendors/?lane=inference-specialist&q={SLUG}",
        "any-N comparison with it": f"/compare/vendors/cerebras/{SLUG}/",
        "a search that finds it": f"/search/?q={SLUG}",
    }


def answer(server, path):
    response = get(server, path)
    response.raise_for_status()
    return response


def warm_after_publish(server, *, duration):
    """The mode's answers and wrk runs on ``server`` (page cache on, the task worker beside it)."""
    publishing.settle()
    paths = pages()
    shows, before = {}, {}
    for name, path in paths.items():
        for _ in range(WARMING):
            page = answer(server, path)
        shows[name] = f'href="/vendors/{SLUG}/"' in page.text
    for name, path in paths.items():
        before[name] = answer(server, path).headers.get("X-Page-Cache", "none")
    marker = f"Warm after publish {time.time():.0f}"
    publishing.fact_change(SLUG, marker)
    answers = {name: answer(server, path) for name, path in paths.items()}
    first = {name: response.headers.get("X-Page-Cache", "none") for name, response in answers.items()}
    again = {name: answer(server, path).headers.get("X-Page-Cache", "none") for name, path in paths.items()}
    shows_fact = {name: marker in text for name, text in rendered_now(paths).items()}
    true = {name: (marker in answers[name].text) == shows_fact[name] for name in paths}
    settled = publishing.settle()  # the publish's render tasks are not beside wrk
    runs = drive(server, {"trivial view": "/bench/trivial/"}, duration)
    for name, path in paths.items():
        runs[name] = wrk_with_cpu(name, server.cpu_seconds, server.url + path, duration)
    return {
        "paths": paths,
        "shows": shows,
        "shows fact": shows_fact,
        "true": true,
        "before": before,
        "first": first,
        "again": again,
        "settled": settled,
        "runs": runs,
    }


def rendered_now(paths):
    """Each page's text as a render now makes it (this process, page cache off)."""
    from catalogue import _test_environment
    from django.test import Client, override_settings

    _test_environment()
    client = Client()
    with override_settings(PAGE_CACHE_ENABLED=False):
        return {name: client.get(path).content.decode() for name, path in paths.items()}


def stayed_and_rendered(found):
    """(pages not showing the new fact that stayed hits, of how many; pages showing it rendered
    again once, of how many; first answers after the publish that agreed with a render now)."""
    hidden = [name for name, shown in found["shows fact"].items() if not shown]
    shown = [name for name, shown in found["shows fact"].items() if shown]
    stayed = sum(1 for name in hidden if found["before"][name] == found["first"][name] == "hit")
    once = sum(1 for name in shown if (found["first"][name], found["again"][name]) == ("miss", "hit"))
    return (stayed, len(hidden)), (once, len(shown)), sum(found["true"].values())


def console_lines(found):
    (stayed, hidden), (once, shown), true = stayed_and_rendered(found)
    trivial = found["runs"]["trivial view"]["rps"]
    lines = [
        f"right after a publish of a fact of {NAME}: {stayed} of {hidden} cached pages not showing the fact "
        f"stayed hits, {once} of {shown} showing it rendered again once; {true} of {len(found['paths'])} "
        "first answers as a render now"
    ]
    for name in found["paths"]:
        run = found["runs"][name]
        lines.append(
            f"  {name}: links to {NAME} {yes(found['shows'][name])}, shows the fact "
            f"{yes(found['shows fact'][name])}, X-Page-Cache "
            f"{found['before'][name]} / {found['first'][name]}, {found['again'][name]}; warm "
            f"{run['rps'] / trivial:.3f}x the trivial view"
        )
    return lines


def yes(flag):
    return "yes" if flag else "no"


def report_lines(found):
    """The mode's section of docs/benchmarks.md at one size."""
    (stayed, hidden), (once, shown), true = stayed_and_rendered(found)
    trivial = found["runs"]["trivial view"]
    lines = [
        "### Pages rendered on demand, warm right after a publish",
        "",
        f"Each page asked {WARMING} times (both workers have it), then once more (*before*); a fact of",
        f"{NAME} published (editorial.services.publish, as the stored pages' modes publish); each page",
        "asked once right after the commit (*first after*) and once again; then, both task workers idle",
        f"({found['settled']:.1f} s later), wrk on each, beside the trivial view's run just before.",
        f"*Links to {NAME}*: the page links to its profile. *Shows the fact*: a render now (this",
        "process, page cache off) shows the fact's new value; *as now*: the first answer after the",
        "publish agrees. Target: every page not showing the fact stays a hit; every page showing it",
        "is rendered again once (a miss, then a hit); every first answer as a render now.",
        "",
        f"**{stayed} of {hidden}** cached pages not showing the fact stayed hits; **{once} of {shown}** "
        f"showing it were rendered again once; **{true} of {len(found['paths'])}** first answers as a "
        "render now.",
        "",
        f"| page | address | links to {NAME} | shows the fact | before | first after | again | as now |"
        " warm req/s | p50 ms | p99 ms | warm ratio | CPU ms |",
        "|---|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|",
        f"| trivial view | `/bench/trivial/` | - | - | - | - | - | - | {trivial['rps']:.0f} | "
        f"{trivial['p50']:.1f} | {trivial['p99']:.1f} | 1.000 | {trivial['cpu_ms']:.2f} |",
    ]
    for name, path in found["paths"].items():
        run = found["runs"][name]
        lines.append(
            f"| {name} | `{path}` | {yes(found['shows'][name])} | {yes(found['shows fact'][name])} | "
            f"{found['before'][name]} | {found['first'][name]} | {found['again'][name]} | "
            f"{yes(found['true'][name])} | {run['rps']:.0f} | {run['p50']:.1f} | "
            f"{run['p99']:.1f} | {run['rps'] / trivial['rps']:.3f} | {run['cpu_ms']:.2f} |"
        )
    return [*lines, ""]
