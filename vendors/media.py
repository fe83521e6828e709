"""Uploaded logos on the media storage: which files something still shows, and removing the rest.

A logo file stays while anything can show it: the working copy, a published version (live,
scheduled or past), or a kept revision (so that a revert never brings back a broken image).
Once none does (``prune_revisions`` has dropped the last revision that named it, or the form
that stored it was never saved) it is deleted, a day's grace after it was written so that a
save in progress never loses its file.
"""

import datetime as dt
import json

from django.core.files.storage import default_storage
from django.utils import timezone
from reversion.models import Version

from .models import Vendor, VendorVersion

LOGO_FOLDER = "logos"
GRACE = dt.timedelta(hours=24)


def referenced_logos():
    names = set(Vendor.objects.exclude(logo="").values_list("logo", flat=True))
    names.update(VendorVersion.objects.values_list("document__vendor__logo", flat=True))
    for data in Version.objects.get_for_model(Vendor).values_list("serialized_data", flat=True).iterator():
        for record in json.loads(data):
            names.add(record.get("fields", {}).get("logo"))
    return {name for name in names if name}


def unreferenced_logos(*, now=None):
    """Stored logo names nothing shows, written longer ago than the grace period."""
    now = now or timezone.now()
    try:
        _, files = default_storage.listdir(LOGO_FOLDER)
    except FileNotFoundError:
        return []
    keep = referenced_logos()
    return sorted(
        name
        for name in (f"{LOGO_FOLDER}/{file}" for file in files)
        if name not in keep and default_storage.get_modified_time(name) < now - GRACE
    )


def delete_unreferenced_logos(*, now=None, dry_run=False):
    """Delete (or with ``dry_run`` only list) the logos nothing shows; returns their names."""
    names = unreferenced_logos(now=now)
    if not dry_run:
        for name in names:
            default_storage.delete(name)
    return names
