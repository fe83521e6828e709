from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from . import health
from .media import serve_media

handler500 = "chipsite.outage.server_error"

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path(f"{settings.MEDIA_URL.strip('/')}/<path:name>", serve_media, name="media"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("", include("discovery.urls")),
    path("", include("vendors.urls")),
    path("", include("comparisons.urls")),
    path("", include("corrections.urls")),
    path("", include("opendata.urls")),
]

if settings.BENCHMARK:
    from django.http import HttpResponse

    def trivial(request):
        """The ceiling the benchmark compares every page with: the same stack, no work."""
        return HttpResponse("ok", content_type="text/plain")

    urlpatterns += [path("bench/trivial/", trivial)]
