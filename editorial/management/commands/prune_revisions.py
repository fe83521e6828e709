"""Keep revision storage bounded: delete old revisions, never an item's last few."""

import datetime as dt

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone
from reversion.models import Revision, Version

from editorial.registry import publications


class Command(BaseCommand):
    help = (
        "Delete revisions older than --days (default REVISIONS_KEEP_DAYS), keeping at least the "
        "last --keep (default REVISIONS_KEEP_LAST) of every vendor and comparison, deleted ones included, "
        "and every revision a published version was made from."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=settings.REVISIONS_KEEP_DAYS)
        parser.add_argument("--keep", type=int, default=settings.REVISIONS_KEEP_LAST)
        parser.add_argument("--dry-run", action="store_true", help="Say what would go, delete nothing.")

    def handle(self, *args, days, keep, dry_run, **options):
        if keep < 1:
            self.stderr.write("--keep must be at least 1: an item's latest revision is never pruned.")
            return
        cutoff = timezone.now() - dt.timedelta(days=days)
        kept = set()
        for publication in publications():
            # A published version's source revision stays: its diffs and “Discard changes” need it.
            sources = publication.version_model.objects.exclude(source_version_id=None)
            kept.update(
                Version.objects.filter(pk__in=sources.values("source_version_id")).values_list(
                    "revision_id", flat=True
                )
            )
            versions = (
                Version.objects.get_for_model(publication.model)
                .order_by("object_id", "-pk")
                .values_list("object_id", "revision_id")
            )
            seen: dict[str, int] = {}  # revisions kept so far, by object id
            for object_id, revision_id in versions:
                seen[object_id] = seen.get(object_id, 0) + 1
                if seen[object_id] <= keep:
                    kept.add(revision_id)
        doomed = Revision.objects.filter(date_created__lt=cutoff).exclude(pk__in=kept)
        count = doomed.count()
        if dry_run:
            self.stdout.write(f"Dry run: {count} revision(s) older than {days} days would be deleted.")
            return
        with transaction.atomic():
            doomed.delete()
        # Files only those revisions named go with them.
        call_command("prune_media", stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Deleted {count} revision(s) older than {days} days; kept the last {keep} of each item."
            )
        )
