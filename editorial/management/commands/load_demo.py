from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from editorial.demo import load_demo
from editorial.pages import rendered_together


class Command(BaseCommand):
    help = (
        "Load the demo content of every app that has some: the AWS Trainium reference profile, the "
        "vendors of vendors/demo/vendors.json, the comparisons. Safe to run again: what exists is left alone."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Say what would be created, then roll back."
        )

    def handle(self, *args, dry_run=False, **options):
        with rendered_together():  # a dozen publishes: their pages rendered once, below
            report = load_demo(dry_run=dry_run)
        prefix = "Dry run, nothing saved. " if dry_run else ""
        self.stdout.write(self.style.SUCCESS(f"{prefix}{report}"))
        if not dry_run and settings.STORED_PAGES_ENABLED:
            # Every public page stored before the first visitor asks (infra/stored/).
            call_command("render_pages", stdout=self.stdout)
