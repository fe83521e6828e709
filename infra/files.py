"""Headers for files served as they are: static files (through whitenoise) and logos.

Files are not pages, but a browser opened on one directly renders it (an SVG, or anything
sniffed as HTML): each carries a policy that lets it load nothing, run nothing (``sandbox``)
and be framed by no one, ``nosniff``, the site's referrer policy and a resource policy. HSTS
comes from SecurityMiddleware, which wraps whitenoise, on every answer over HTTPS.

Imported by settings.py (whitenoise takes a function, not a dotted path): Django's settings
are read when a file is served, never at import.
"""

from django.conf import settings

FILE_POLICY = (
    "default-src 'none'; img-src 'self' data:; style-src 'self'; font-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
)
FILE_HEADERS = {
    "Content-Security-Policy": FILE_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def file_headers(*, cross_origin_resource_policy):
    """What every file served as it is carries (HSTS comes from SecurityMiddleware over HTTPS)."""
    return {
        **FILE_HEADERS,
        "Referrer-Policy": settings.SECURE_REFERRER_POLICY,
        "Cross-Origin-Resource-Policy": cross_origin_resource_policy,
    }


def add_static_headers(headers, path, url):
    """WHITENOISE_ADD_HEADERS_FUNCTION: static files are for our own pages (same-origin)."""
    for name, value in file_headers(
        cross_origin_resource_policy=settings.CROSS_ORIGIN_RESOURCE_POLICY
    ).items():
        headers[name] = value
