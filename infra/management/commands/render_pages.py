import os

from django.core.management.base import BaseCommand

from infra import stored


class Command(BaseCommand):
    help = (
        "Render the stored pages (infra/stored/): by default those whose time has come, made by "
        "another release, whose last render failed, or never stored; with --all, every one. Run it "
        "after a deploy."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Render every stored address again.")
        parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help=stored.JOBS_HELP)

    def handle(self, *args, all=False, jobs=1, **options):
        if all:
            counts = stored.render(stored.every_path(), jobs=jobs).counts()
        else:
            counts = stored.render_expired.call(jobs)
        self.stdout.write(", ".join(f"{count} {name}" for name, count in counts.items()))
        if counts["failed"]:
            self.stderr.write("Some pages failed to render: the admin lists them under Stored pages.")
