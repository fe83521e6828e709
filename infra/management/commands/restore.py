from django.core.management.base import BaseCommand

from infra.backup import restore


class Command(BaseCommand):
    help = (
        "Load an archive written by `backup` into an empty, migrated database and an empty media "
        "store, after checking every checksum and the schema. --force replaces what is there."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument(
            "--force", action="store_true", help="Empty the database and the media store first."
        )

    def handle(self, *args, path, force, **options):
        manifest = restore(path, force=force)
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {path} (made {manifest['created_at']}): "
                f"{manifest['rows']} rows, {manifest['media']} media files."
            )
        )
