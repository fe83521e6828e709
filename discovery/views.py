from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from infra.stored import shows

from .search import MAX_QUERY_LENGTH, MAX_QUERY_STRING, search_terms
from .search import search as search_live
from .search.keys import query_keys

# Pages for people, not for an index: the admin, search results, and any-N comparisons
# (every combination of vendors would be a page of its own).
DISALLOWED = ["/admin/", "/search/", "/compare/vendors/"]


@require_safe
def robots_txt(request):
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED), ""]
    lines.append(f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@require_safe
def favicon(request):
    """/favicon.ico, which browsers and feed readers ask for whatever a page declares: the shipped
    icon's static address (hashed in production, so the redirect itself is not permanent)."""
    response = redirect(static("img/favicon.ico"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


def search_params(request) -> QueryDict:
    """The query string's parameters, whatever it holds: past Django's limit on their number
    (DATA_UPLOAD_MAX_NUMBER_FIELDS, a 400 otherwise) only the first MAX_QUERY_STRING characters
    are read, so a hand-made address gets its results page too."""
    try:
        return request.GET
    except TooManyFieldsSent:
        query_string = request.META.get("QUERY_STRING", "")[:MAX_QUERY_STRING]
        return QueryDict("&".join(query_string.split("&")[: settings.DATA_UPLOAD_MAX_NUMBER_FIELDS]))


@require_safe
def search(request):
    """Results for ``?q=`` (and ``kind``, ``page`` for all of one kind): live content only,
    grouped by kind; never indexed by robots. Any query is answered with a page, never an error."""
    params = search_params(request)
    raw = params.get("q", "")
    results = search_live(raw, kind=params.get("kind"), page=params.get("page")) if raw.strip() else None
    query = results.query if results else raw[:MAX_QUERY_LENGTH]
    # What a cached results page shows: the words it can find (discovery/search/keys.py).
    shows(*query_keys(search_terms(query)))
    # nginx sends an address too long for it to read here (infra/nginx/chipsite.conf.template).
    too_long = "too-long" in params and not results
    response = render(
        request,
        "discovery/search.html",
        {"results": results, "query": query, "too_long": too_long, "max_length": MAX_QUERY_LENGTH},
    )
    response["X-Robots-Tag"] = "noindex"
    return response
