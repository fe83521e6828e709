from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

handler500 = "infra.outage.server_error"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("infra.urls")),  # /healthz, /readyz, /media/...
    # The second step of a staff sign-in (infra/second_factor/), before the admin's own pages.
    path("admin/second-factor/", include("infra.second_factor.urls")),
    path("admin/second-factor/passkey/", include("django_otp_webauthn.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("", include("discovery.urls")),
    path("", include("vendors.urls")),
    path("", include("chips.urls")),
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
