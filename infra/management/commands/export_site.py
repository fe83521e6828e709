import os
import shutil
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand, CommandError

from infra import stored


class Command(BaseCommand):
    help = (
        "Write the public site as files into DIR: every stored page (HTML as path/index.html, feeds, "
        "the sitemap, robots.txt, downloads, API answers), the static files and the media. Each file "
        "holds exactly the bytes the server sends for its address. Pages are rendered first where "
        "they are missing, out of date or made by another release."
    )

    def add_arguments(self, parser):
        parser.add_argument("dir", help="The folder to write (created if missing).")
        parser.add_argument("--all", action="store_true", help="Render every page again first.")
        parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help=stored.JOBS_HELP)

    def handle(self, *args, dir, all=False, jobs=1, **options):
        if not settings.STORED_PAGES_ENABLED:
            raise CommandError("Stored pages are off (STORED_PAGES=0): there is nothing to export.")
        target = Path(dir).resolve()
        if all:
            stored.render(stored.every_path(), jobs=jobs)
        else:
            stored.render_expired.call(jobs)
        written = stored.export_to(target)
        static = self._copy_static(target / settings.STATIC_URL.strip("/"))
        media = self._copy_tree(Path(settings.MEDIA_ROOT), target / settings.MEDIA_URL.strip("/"))
        self.stdout.write(f"Wrote {written} pages, {static} static files and {media} media files to {target}")

    def _copy_static(self, target):
        root = Path(settings.STATIC_ROOT)
        if root.is_dir() and any(root.iterdir()):
            return self._copy_tree(root, target)
        count = 0  # no collectstatic yet (a laptop): the files as the finders serve them
        for finder in finders.get_finders():
            for path, storage in finder.list([]):
                destination = target / path
                destination.parent.mkdir(parents=True, exist_ok=True)
                with storage.open(path) as source, open(destination, "wb") as out:
                    shutil.copyfileobj(source, out)
                count += 1
        return count

    @staticmethod
    def _copy_tree(source, target):
        if not source.is_dir():
            return 0
        shutil.copytree(source, target, dirs_exist_ok=True)
        return sum(1 for path in source.rglob("*") if path.is_file())
