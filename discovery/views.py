from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

# Pages for people, not for an index: the admin, search results, and any-N comparisons
# (every combination of vendors would be a page of its own).
DISALLOWED = ["/admin/", "/search/", "/compare/vendors/"]


@require_safe
def robots_txt(request):
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED), ""]
    lines.append(f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
