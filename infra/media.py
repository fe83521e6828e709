"""Uploaded files served by the app itself, from whatever storage holds them.

whitenoise serves static files only. With one app server (or several sharing MEDIA_ROOT, or
media on S3-compatible storage) this view is the one path that works with no web server
config: it reads through ``default_storage``. Logo names are random and never reused, so a
file may be cached for a year; a CDN in front of ``/media/`` then takes the load.

A logo carries the headers of every file served as it is (infra/files.py).
"""

import mimetypes
import posixpath

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from django.views.decorators.http import require_safe

from .files import file_headers

SERVED_FOLDERS = ("logos/",)  # what editors upload; nothing else under MEDIA_ROOT is public


@require_safe
def serve_media(request, name):
    clean = posixpath.normpath(name).lstrip("/")
    if clean != name or not clean.startswith(SERVED_FOLDERS) or ".." in clean.split("/"):
        raise Http404("No such file.")
    try:
        handle = default_storage.open(clean, "rb")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise Http404("No such file.") from None
    content_type = mimetypes.guess_type(clean)[0] or "application/octet-stream"
    response = FileResponse(handle, content_type=content_type)
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    # The read API hands out logo addresses (``logo_url``) for any site to show, as <img>, a
    # request without CORS that a same-origin policy would block: logos may be embedded anywhere.
    for header, value in file_headers(cross_origin_resource_policy="cross-origin").items():
        response[header] = value
    return response
