"""Delete uploaded logos that nothing shows any more (see vendors/media.py)."""

from django.core.management.base import BaseCommand

from vendors.media import GRACE, delete_unreferenced_logos


class Command(BaseCommand):
    help = (
        "Delete logo files no working copy, published version or kept revision names, written "
        f"more than {GRACE.total_seconds() / 3600:.0f} hours ago. prune_revisions runs it too."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Say what would go, delete nothing.")

    def handle(self, *args, dry_run, **options):
        names = delete_unreferenced_logos(dry_run=dry_run)
        verb = "Would delete" if dry_run else "Deleted"
        self.stdout.write(f"{verb} {len(names)} unreferenced logo file(s).")
        for name in names:
            self.stdout.write(f"  {name}")
