from pathlib import Path

from django.core.management.base import BaseCommand

from infra.backup import backup


class Command(BaseCommand):
    help = "Write every row and every uploaded file to one .tar.gz archive, with checksums."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the archive to write, e.g. chipsite-2026-11-30.tar.gz")

    def handle(self, *args, path, **options):
        manifest = backup(path)
        self.stdout.write(
            self.style.SUCCESS(f"Wrote {path}: {manifest['rows']} rows, {manifest['media']} media files.")
        )
        name = Path(path).name
        self.stdout.write(
            f"Its checksum is in {path}.sha256 (check it in that folder: sha256sum -c {name}.sha256)."
        )
