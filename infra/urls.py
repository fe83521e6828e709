from django.conf import settings
from django.urls import path

from . import health
from .media import serve_media

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path(f"{settings.MEDIA_URL.strip('/')}/<path:name>", serve_media, name="media"),
]
