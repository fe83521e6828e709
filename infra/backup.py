"""One archive holds the whole site: every row (dumpdata) and every uploaded file, with a
manifest of SHA-256 checksums, the schema it was made under and what it holds.

``backup(path)`` writes ``path`` (a .tar.gz) and ``path.sha256`` (for ``sha256sum -c``).
``restore(path)`` checks every checksum and the schema, then loads it into an empty database
and media store; ``force=True`` empties them first. Sessions, sign-in lockouts and content
types (rebuilt by migrate) are not part of it.
"""

import datetime as dt
import hashlib
import io
import json
import tarfile
import tempfile
from pathlib import Path

from django.apps import apps
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder

from . import stored
from .models import StoredPage

FORMAT = 1
# The task queue (django-tasks-db's app) is not content: a restore must not run old tasks again.
# Stored pages' index is rebuilt from the content after a restore (infra/stored/), never restored.
EXCLUDED = [
    *("contenttypes", "auth.permission", "sessions", "axes", "django_tasks_database"),
    *("infra.storedpage", "infra.storedpagekey", "infra.taskworker"),
]
# A database holding any of these is not empty: restoring over it needs force.
CONTENT = ["auth.User", "vendors.Vendor", "claims.Source", "comparisons.Comparison", "reversion.Revision"]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def applied_migrations():
    return sorted(MigrationRecorder(connection).applied_migrations())


def media_files(folder=""):
    """Every file name in the media storage, walking its folders."""
    try:
        folders, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return []
    names = [f"{folder}{name}" for name in files]
    for sub in folders:
        names += media_files(f"{folder}{sub}/")
    return sorted(names)


def backup(path):
    """Write the archive; returns its manifest."""
    path = Path(path)
    with tempfile.NamedTemporaryFile(suffix=".exactjson") as dump:
        call_command(
            "dumpdata",
            format="exactjson",
            natural_foreign=True,
            exclude=EXCLUDED,
            output=dump.name,
            verbosity=0,
        )
        data = Path(dump.name).read_bytes()
    members = {"data.json": data}
    for name in media_files():
        with default_storage.open(name, "rb") as handle:
            members[f"media/{name}"] = handle.read()
    manifest = {
        "format": FORMAT,
        "created_at": dt.datetime.now(dt.UTC).isoformat(),
        "migrations": [list(key) for key in applied_migrations()],
        "rows": sum(1 for _ in json.loads(data)),
        "media": len(members) - 1,
        "files": {name: sha256(content) for name, content in members.items()},
    }
    with tarfile.open(path, "w:gz") as archive:
        for name, content in [("manifest.json", json.dumps(manifest, indent=2).encode()), *members.items()]:
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    path.with_name(path.name + ".sha256").write_text(f"{sha256(path.read_bytes())}  {path.name}\n")
    return manifest


def _read(archive, member):
    """The bytes of a regular file in the archive (extractfile gives None for anything else)."""
    handle = archive.extractfile(member)
    assert handle is not None
    return handle.read()


def read_archive(path):
    """(manifest, {member: bytes}), every checksum checked."""
    try:
        with tarfile.open(path, "r:gz") as archive:
            members = {
                member.name: _read(archive, member) for member in archive.getmembers() if member.isfile()
            }
    except (OSError, tarfile.TarError, EOFError) as error:
        raise CommandError(f"{path} is not a readable backup archive: {error}") from None
    try:
        manifest = json.loads(members.pop("manifest.json"))
    except (KeyError, ValueError):
        raise CommandError(f"{path} has no manifest: not a chipsite backup.") from None
    if manifest.get("format") != FORMAT:
        raise CommandError(
            f"{path} is in backup format {manifest.get('format')}; this release reads {FORMAT}."
        )
    expected = manifest["files"]
    damaged = sorted(
        name for name in set(expected) | set(members) if sha256(members.get(name, b"")) != expected.get(name)
    )
    if damaged:
        raise CommandError(f"{path} is damaged: the checksum of {', '.join(damaged[:5])} does not match.")
    return manifest, members


def is_empty():
    return not any(apps.get_model(label).objects.exists() for label in CONTENT) and not media_files()


def restore(path, *, force=False):
    """Load the archive into this database and media store; returns its manifest."""
    manifest, members = read_archive(path)
    here = [list(key) for key in applied_migrations()]
    if manifest["migrations"] != here:
        missing = [".".join(m) for m in manifest["migrations"] if m not in here]
        extra = [".".join(m) for m in here if m not in manifest["migrations"]]
        raise CommandError(
            "The backup was made under another schema. "
            f"Not applied here: {', '.join(missing) or 'none'}; "
            f"applied here only: {', '.join(extra) or 'none'}. "
            "Restore with the release that made it, then migrate."
        )
    if not force and not is_empty():
        raise CommandError(
            "The database or the media store is not empty: restoring would mix two sites. "
            "Restore into an empty one, or pass --force to replace everything in it."
        )
    with transaction.atomic():  # all the rows or none
        shown_before = list(StoredPage.objects.values_list("path", flat=True))
        call_command("flush", interactive=False, verbosity=0)
        with tempfile.NamedTemporaryFile(suffix=".exactjson") as dump:
            Path(dump.name).write_bytes(members["data.json"])
            call_command("loaddata", dump.name, verbosity=0)
    for name in media_files():
        default_storage.delete(name)
    for member, content in members.items():
        if member.startswith("media/"):
            name = member.removeprefix("media/")
            saved = default_storage.save(name, ContentFile(content))
            if saved != name:
                raise CommandError(f"Could not restore {name}: the storage named it {saved}.")
    # Every cached page goes, and the stored ones of what was here; the restored content's are rendered.
    stored.rebuild(shown_before)
    return manifest
