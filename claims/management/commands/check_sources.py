"""Fetch every source's page and record what came back (see claims/source_checks.py). The task
worker runs the same check on its schedule (vendors/tasks.py)."""

from django.core.management.base import BaseCommand, CommandError

from claims.source_checks import check_sources, describe, sources_to_check, summarise


class Command(BaseCommand):
    help = (
        "Fetch each source's URL (least recently checked first) and record its status, final URL "
        "and a fingerprint of its text, and look for each citation's quote in its text. A source that "
        "fails twice in a row or moves to another site, or no longer says a quote, puts what cites "
        "it into the staleness queue."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Fetch and say what was found; record nothing."
        )
        parser.add_argument("--limit", type=int, help="Check at most this many sources.")
        parser.add_argument("--timeout", type=float, help="Seconds one page may take (SOURCE_CHECK_TIMEOUT).")
        parser.add_argument(
            "--concurrency", type=int, help="Pages fetched at once (SOURCE_CHECK_CONCURRENCY)."
        )

    def handle(self, *args, dry_run, limit, timeout, concurrency, **options):
        for name, value in (("--limit", limit), ("--timeout", timeout), ("--concurrency", concurrency)):
            if value is not None and value <= 0:
                raise CommandError(f"{name} must be more than 0.")
        outcomes = check_sources(
            sources=sources_to_check(limit=limit), dry_run=dry_run, concurrency=concurrency, timeout=timeout
        )
        for outcome in outcomes:
            self.stdout.write(f"{outcome.source.url}: {describe(outcome)}")
        found = summarise(outcomes)
        verb = "Checked (dry run, nothing recorded)" if dry_run else "Checked"
        self.stdout.write(
            f"{verb} {found['checked']} source(s): {found['answered']} answered, {found['failed']} failed; "
            f"{found['new_problems']} newly put what cites them into the staleness queue; "
            f"quotes: {found['quotes_found']} found, {found['quotes_missing']} not found "
            f"({found['quotes_newly_missing']} newly, putting what cites them into the queue)."
        )
