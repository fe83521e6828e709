"""Site-wide response headers Django does not set itself."""

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db import DataError
from django.http import HttpResponse, HttpResponseBadRequest


class PermissionsPolicyMiddleware:
    """``Permissions-Policy`` from settings.PERMISSIONS_POLICY: ``{"camera": []}`` -> ``camera=()``."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(allowed)})" for feature, allowed in settings.PERMISSIONS_POLICY.items()
        )

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.header)
        return response


class CrossOriginResourcePolicyMiddleware:
    """``Cross-Origin-Resource-Policy`` from settings.CROSS_ORIGIN_RESOURCE_POLICY on every answer
    that does not name its own (the read API and logos say ``cross-origin``): other sites may
    link to our pages but not load them into theirs as images, scripts or the like."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Cross-Origin-Resource-Policy", settings.CROSS_ORIGIN_RESOURCE_POLICY)
        return response


class AnonymousBodyLimitMiddleware:
    """Refuse, unread, a request body over settings.ANONYMOUS_MAX_BODY_BYTES from anyone not
    signed in: the only form visitors post is the sign-in form, a few hundred bytes. Signed-in
    editors keep Django's own limits (DATA_UPLOAD_MAX_MEMORY_SIZE, LOGO_MAX_BYTES)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.ANONYMOUS_MAX_BODY_BYTES and not request.user.is_authenticated:
            return HttpResponse(
                "Request body too large.\n",
                status=413,
                content_type="text/plain",
                headers={"Connection": "close"},
            )
        return self.get_response(request)


ADMIN_PREFIX = "/admin/"


class AdminInputMiddleware:
    """Odd admin query values are a 400, never a 500. A NUL byte is never meant: it is refused
    before it reaches a form, a filter or PostgreSQL (which refuses NUL in text). Public
    pages handle their own parameters and say what they ignored (vendors/filters.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(ADMIN_PREFIX) and any(
            "\x00" in key or any("\x00" in value for value in values) for key, values in request.GET.lists()
        ):
            return HttpResponseBadRequest(
                "Query parameters cannot contain NUL characters.\n", content_type="text/plain"
            )
        return self.get_response(request)

    def process_exception(self, request, exception):
        """What the admin itself lets through to a 500, found by fuzzing it: a number too large
        for the database (``?lane=99999999999999999999``: SQLite cannot bind it, PostgreSQL
        says it is out of range) and a field name that names no field (``?_to_field=``)."""
        if not request.path.startswith(ADMIN_PREFIX):
            return None
        if isinstance(exception, OverflowError | DataError):
            return HttpResponseBadRequest(
                "A value in the address is out of range for its field.\n", content_type="text/plain"
            )
        if isinstance(exception, FieldDoesNotExist):
            return HttpResponseBadRequest(
                "The address names a field that does not exist.\n", content_type="text/plain"
            )
        return None
