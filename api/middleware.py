"""Everything under /api/ that is not one operation's business: read-only methods, CORS, the
rate limit per address, and errors as JSON whoever made them (the URL resolver's 404, a 500).

It sits outside the page cache (settings.MIDDLEWARE), so an answer from the cache counts
against the limit and carries the CORS headers like any other.
"""

import json

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import patch_cache_control

from infra.ratelimit import wait_seconds
from infra.stored import RENDER_FLAG

PREFIX = "/api/"
READ_METHODS = ("GET", "HEAD")
ALLOWED = "GET, HEAD, OPTIONS"
MESSAGES = {
    400: "The request could not be understood.",
    403: "Forbidden.",
    404: "Nothing here. The API's operations are listed at /api/v1/docs/.",
    405: "This API is read-only: use GET.",
    413: "The request is too large.",
    500: "Something went wrong on our side; it has been logged.",
    503: "The site is briefly unavailable; try again in a moment.",
}


def json_error(status, message, **headers):
    response = HttpResponse(
        json.dumps({"status": status, "message": message}, ensure_ascii=False),
        status=status,
        content_type="application/json; charset=utf-8",
    )
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


class ApiMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(PREFIX):
            return self.get_response(request)
        response = self._answer(request)
        if response.status_code >= 400 and "Cache-Control" not in response:
            # An error is about this moment: a shared cache must not keep a 404 for a vendor
            # published a minute later.
            patch_cache_control(response, no_store=True)
        return self._cors(request, response)

    def _answer(self, request):
        limit, window = settings.API_RATE_LIMIT, settings.API_RATE_WINDOW
        # The site's own render of a stored answer (infra/stored/) is no client's request.
        if not request.META.get(RENDER_FLAG) and (
            wait := wait_seconds(request, scope="api", limit=limit, window=window)
        ):
            response = json_error(
                429,
                f"Too many requests from your address: at most {limit} every {window} seconds. "
                f"Try again in {wait} seconds.",
                Retry_After=str(wait),
            )
            patch_cache_control(response, no_store=True)
            return response
        if request.method == "OPTIONS":  # a browser's preflight, e.g. for If-None-Match
            response = HttpResponse(status=204)
            response["Access-Control-Allow-Methods"] = ALLOWED
            response["Access-Control-Allow-Headers"] = "If-None-Match, If-Modified-Since"
            response["Access-Control-Max-Age"] = "86400"
            response["Allow"] = ALLOWED
            return response
        if request.method not in READ_METHODS:
            return json_error(405, MESSAGES[405], Allow=ALLOWED)
        head = request.method == "HEAD"
        if head:  # the operations answer GET; HEAD is the same answer without its body
            request.method = "GET"
        response = self.get_response(request)
        if head:
            request.method = "HEAD"
            if not response.streaming:
                response["Content-Length"] = str(len(response.content))
                response.content = b""
        return self._as_json(response)

    @staticmethod
    def _as_json(response):
        """An error made outside the API (the URL resolver, the 500 page) as JSON, headers kept."""
        if response.status_code < 400 or response.get("Content-Type", "").startswith("application/json"):
            return response
        status = response.status_code
        replaced = json_error(status, MESSAGES.get(status, response.reason_phrase or "Error."))
        for header in ("Allow", "Retry-After", "Cache-Control", "Vary"):
            if header in response:
                replaced[header] = response[header]
        return replaced

    @staticmethod
    def _cors(request, response):
        response["Access-Control-Allow-Origin"] = "*"
        response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
        # Any origin may read the API, so the resource policy says so too. (It only governs
        # loads without CORS, e.g. from a cross-origin-isolated page; the answers are public.)
        response["Cross-Origin-Resource-Policy"] = "cross-origin"
        return response
