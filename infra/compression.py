"""Compression for the public pages (``PublicGZipMiddleware``): brotli where the client asks for
it, gzip otherwise, and a stored page compressed once per process and kept (``Encoded``)."""

import threading
from collections import OrderedDict
from collections.abc import Callable

import brotli  # type: ignore[import-untyped]  # ships no type information
from django.conf import settings
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

from .stored.middleware import answered_from_store


class Encoded:
    """This process's compressed stored pages, by ETag (the hash of the identity bytes, so a
    page rendered again is a new key) and coding: a stored page is compressed once per process,
    not on every answer. The least recently used go first beyond ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.bodies: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str], compress: Callable[[], bytes]) -> bytes:
        with self.lock:
            if (body := self.bodies.get(key)) is not None:
                self.bodies.move_to_end(key)
                return body
        body = compress()
        with self.lock:
            if key not in self.bodies:
                self.bodies[key] = body
                self.size += len(body)
            while self.size > self.limit and self.bodies:
                self.size -= len(self.bodies.popitem(last=False)[1])
        return body


class PublicGZipMiddleware(GZipMiddleware):
    """Compression for the public pages only: never the admin, never a response that carries a
    CSRF token, so compression cannot leak a secret beside reflected input (BREACH). Brotli
    where the client asks for it (smaller than gzip at the same speed), gzip otherwise. A page
    answered from the store is compressed once per process and kept (``Encoded``)."""

    BROTLI_QUALITY = 5  # about gzip's speed, about a fifth smaller on these pages
    encoded = Encoded(limit=int(settings.STORED_PAGES_COMPRESSED_MB * 1024 * 1024))

    def process_response(self, request, response):
        if request.path.startswith("/admin/") or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            return response
        stored = answered_from_store(response)
        if self._wants_brotli(request) and self._compressible(response):
            return self._brotli(response, stored=stored)
        if (
            stored
            and re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
            and self._compressible(response)
        ):
            # No random bytes (GZipMiddleware's against BREACH): a stored page holds no secret.
            # The same bytes as the gzip beside the page in the store (infra.stored.save_page).
            return self._encode(response, "gzip", lambda: compress_string(response.content), stored=True)
        return super().process_response(request, response)

    def _encode(self, response, coding, compress, *, stored):
        patch_vary_headers(response, ("Accept-Encoding",))
        etag = response.get("ETag")
        compressed = self.encoded.get((etag, coding), compress) if stored else compress()
        if len(compressed) >= len(response.content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag  # the bytes differ from the identity body
        response.headers["Content-Encoding"] = coding
        return response

    @staticmethod
    def _wants_brotli(request):
        for part in request.headers.get("Accept-Encoding", "").split(","):
            coding, _, params = part.strip().partition(";")
            if coding.strip().lower() == "br":
                return params.replace(" ", "") not in {"q=0", "q=0.0", "q=0.00", "q=0.000"}
        return False

    @staticmethod
    def _compressible(response):
        return (
            not response.streaming
            and len(response.content) >= 200
            and not response.has_header("Content-Encoding")
        )

    def _brotli(self, response, *, stored):
        def compress():
            return brotli.compress(response.content, quality=self.BROTLI_QUALITY)

        return self._encode(response, "br", compress, stored=stored)
