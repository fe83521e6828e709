from django.urls import path
from django.views.generic import RedirectView

from .api import api

urlpatterns = [
    # The API's own address leads to the page that lists its operations.
    path("", RedirectView.as_view(pattern_name="api:openapi-view")),
    path("", api.urls),
]
