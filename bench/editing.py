"""Visitors and two editors at once: no 5xx, no lost save, every accepted save in the history.

Run with ``make bench-editing`` (or ``python bench/editing.py --duration 20``). Needs PostgreSQL,
Redis, ``wrk`` and gunicorn, like bench/load.py, whose helpers it uses. It

1. makes a throwaway PostgreSQL database with the demo and two Editors;
2. serves the site with gunicorn and the production settings, page cache on;
3. for ``--duration`` seconds drives visitors' pages with wrk while two Editors, each in a
   thread with their own session, open a vendor's change page, change its summary and save,
   again and again through the real admin form: each on a vendor of their own, and every third
   save both on the same vendor, so that the edit guard has conflicts to refuse (with
   ``--fields different`` the second editor changes the verdict there instead of the summary:
   two editors changing different fields of one profile, which merge);
4. checks every save the admin accepted against the revision history and the working copies,
   and writes the figures into docs/benchmarks.md (the section "Visitors and editors at once").

Accepted means the admin redirected after the save; refused means it showed the form again,
saying what changed meanwhile (nothing is lost: the editor's text is still in the form). A refused
edit is saved again from the form as it came back, up to five times, and the run counts the
edits that never got in (the issue's measure: 15 of 200 did, before edits merged).
"""

import argparse
import html
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("BENCH_DATABASE", "chipsite_bench_editing")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (after the database name is chosen)
from editors import OWN, PASSWORD, RETRIES, SHARED, Editor, Save  # noqa: E402

SECTION = "## Visitors and editors at once"
VISITOR_PAGES = [
    "/",
    "/vendors/",
    "/vendors/aws-trainium/",
    "/vendors/google-tpu/",
    "/vendors/nvidia/",
    "/compare/",
]
OUTCOMES = ("accepted", "refused", "invalid", "error")

ROTATE = """
paths = {%s}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, paths[(counter %% #paths) + 1])
end
"""


def prepare():
    load.fresh_database()
    load.setup_django()
    from django.contrib.auth.models import Group, User

    editors = Group.objects.get(name="Editor")
    for username in OWN:
        user = User.objects.create_user(username, password=PASSWORD, is_staff=True)
        user.groups.add(editors)


def check(results):
    """Every accepted save is in the history, and the working copy holds the last one."""
    from reversion.models import Version

    from vendors.models import Vendor

    accepted = [r for r in results if r.outcome == "accepted"]
    history = {}
    for slug in {*OWN.values(), SHARED}:
        vendor = Vendor.objects.get(slug=slug)
        history[slug] = "\n".join(
            Version.objects.get_for_object(vendor).values_list("serialized_data", flat=True)
        )
    missing = [
        r
        for r in accepted
        if html.escape(r.marker) not in history[r.slug] and r.marker not in history[r.slug]
    ]
    last = {}
    for r in sorted(accepted, key=lambda r: r.at):
        last[r.slug, r.field] = r.marker
    wrong = [
        slug
        for (slug, field), marker in last.items()
        if getattr(Vendor.objects.get(slug=slug), field) != marker
    ]
    return missing, wrong


def main():
    args = arguments()
    duration = 5 if args.smoke else args.duration
    static_root = load.collect_static()
    prepare()
    out, results = visitors_and_editors(static_root, duration=duration, different=args.fields == "different")
    visitors = {
        **load.wrk_figures(out),
        "non_2xx": int(m.group(1)) if (m := re.search(load.NON_2XX, out)) else 0,
    }
    missing, wrong = check(results)
    tally = Tally.of(results)
    text = section(
        duration=duration,
        fields=args.fields,
        visitors=visitors,
        results=results,
        tally=tally,
        lost=(missing, wrong),
    )
    print(text)
    if not args.smoke:
        write_section(Path(args.output), text)
    if went_wrong(visitors, tally, missing, wrong):
        raise SystemExit("Visitors saw errors, or a save was lost: see above.")


def went_wrong(visitors, tally, missing, wrong):
    """Whether visitors saw an error or a save was lost, refused for good or never made."""
    count = tally.count
    return bool(
        visitors["non_2xx"]
        or count["error"]
        or count["invalid"]
        or missing
        or wrong
        or tally.failed
        or not count["accepted"]
    )


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=20, help="seconds of visitors and editors")
    parser.add_argument("--output", default=str(load.ROOT / "docs" / "benchmarks.md"))
    parser.add_argument("--smoke", action="store_true", help="5 s, nothing written")
    parser.add_argument(
        "--fields",
        choices=["same", "different"],
        default="same",
        help="on the shared vendor, both editors change the summary (same) or one the verdict (different)",
    )
    return parser.parse_args()


def visitors_and_editors(static_root, *, duration, different):
    """wrk on the visitors' pages for ``duration`` seconds while the two editors save: wrk's
    output, and every save the editors sent."""
    script = Path(tempfile.gettempdir()) / "chipsite-rotate.lua"
    script.write_text(ROTATE % ", ".join(f'"{path}"' for path in VISITOR_PAGES))
    server = load.Server(cache=True, static_root=static_root)
    results: list[Save] = []
    try:
        for path in VISITOR_PAGES:  # each page once before the clock starts, as load.drive does
            subprocess.run(["curl", "-s", "-o", "/dev/null", server.url + path], check=True)
        deadline = time.monotonic() + duration
        editors = [Editor(server.url, username, deadline, results, different=different) for username in OWN]
        for editor in editors:
            editor.start()
        out = subprocess.run(
            [
                "wrk",
                "-t1",
                f"-c{load.CONNECTIONS}",
                f"-d{duration}s",
                "--latency",
                "-s",
                str(script),
                server.url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for editor in editors:
            editor.join()
    finally:
        server.stop()
    return out, results


@dataclass
class Tally:
    """The saves counted by outcome, and the intended edits by how they got in (or did not)."""

    count: dict[str, int]
    edits: int
    first: int  # done at the first save
    later: int  # done on saving again
    failed: int  # refused RETRIES times in a row

    @classmethod
    def of(cls, results):
        edits: dict[tuple[str, int], list[str]] = {}
        for r in results:
            edits.setdefault((r.username, r.edit), []).append(r.outcome)
        return cls(
            count={outcome: sum(1 for r in results if r.outcome == outcome) for outcome in OUTCOMES},
            edits=len(edits),
            first=sum(1 for tries in edits.values() if tries[0] == "accepted"),
            later=sum(1 for tries in edits.values() if tries[0] != "accepted" and tries[-1] == "accepted"),
            failed=sum(1 for tries in edits.values() if tries == ["refused"] * RETRIES),
        )


def section(*, duration, fields, visitors, results, tally, lost):
    """The section "Visitors and editors at once" of docs/benchmarks.md."""
    missing, wrong = lost
    count = tally.count
    shared = [r for r in results if r.slug == SHARED]
    mode = " (there the second changes the verdict instead)" if fields == "different" else ""
    return "\n".join(
        [
            SECTION,
            "",
            f"`bench/editing.py`: {duration} s on PostgreSQL with gunicorn ({load.WORKERS} sync workers,",
            f"the production settings, page cache on): wrk with {load.CONNECTIONS} connections on "
            f"{len(VISITOR_PAGES)} visitors' pages",
            "while two Editors save summaries through the admin's change form, each on a vendor of their",
            f"own and every third save both on {SHARED}, opened at the same moment{mode}. Machine load "
            f"{os.getloadavg()[0]:.2f} after.",
            "",
            "| visitors' requests | req/s | p50 ms | p99 ms | non-2xx |",
            "|---:|---:|---:|---:|---:|",
            f"| {visitors['requests']:,} | {visitors['rps']:.0f} | {visitors['p50']:.1f} | "
            f"{visitors['p99']:.1f} | {visitors['non_2xx']} |",
            "",
            "| saves tried | accepted | refused by the edit guard | other form errors | 5xx |"
            " accepted but not in the history |"
            " working copies not holding their last accepted save |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {len(results)} | {count['accepted']} | {count['refused']} | {count['invalid']} | "
            f"{count['error']} | {len(missing)} | {len(wrong)} |",
            "",
            f"Of the {len(shared)} saves on the shared vendor, "
            f"{sum(1 for r in shared if r.outcome == 'refused')} were refused: the other editor had saved it "
            "since the page was opened, and the form said so with the editor's text still in it.",
            "",
            f"Each intended edit is typed once and, when refused, saved again from the form as it came "
            f"back, up to {RETRIES} times:",
            "",
            "| intended edits | done at the first save | done on saving again |"
            f" failed {RETRIES} saves in a row |",
            "|---:|---:|---:|---:|",
            f"| {tally.edits} | {tally.first} | {tally.later} | {tally.failed} |",
            "",
        ]
    )


def write_section(path, text):
    """The section replaces the one in ``path`` (at its end), or ends it."""
    existing = path.read_text() if path.exists() else ""
    before = existing.split(SECTION)[0].rstrip("\n")
    path.write_text(f"{before}\n\n{text}" if before else text)


if __name__ == "__main__":
    main()
