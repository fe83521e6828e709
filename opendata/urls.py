from django.urls import path, register_converter

from . import views


class FormatConverter:
    regex = "csv|json"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(FormatConverter, "data_format")

app_name = "opendata"

urlpatterns = [
    path("data/", views.DownloadListView.as_view(), name="index"),
    path("data/chipsite.json", views.site_download, name="site"),
    path("data/rankings.<data_format:format>", views.rankings_download, name="rankings"),
    path("data/chips.<data_format:format>", views.chips_download, name="chips"),
    path("data/prices.<data_format:format>", views.prices_download, name="prices"),
    path("data/results.<data_format:format>", views.results_download, name="results"),
    path("data/vendors/<slug:slug>.<data_format:format>", views.vendor_download, name="vendor"),
    path("data/comparisons/<slug:slug>.<data_format:format>", views.comparison_download, name="comparison"),
]
