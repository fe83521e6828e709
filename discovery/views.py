from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from .search import MAX_QUERY_LENGTH
from .search import search as search_live

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


@require_safe
def search(request):
    """Results for ``?q=``: live content only, grouped by kind; never indexed by robots."""
    raw = request.GET.get("q", "")
    results = search_live(raw) if raw.strip() else None
    response = render(request, "discovery/search.html", {"results": results, "query": raw[:MAX_QUERY_LENGTH]})
    response["X-Robots-Tag"] = "noindex"
    return response
