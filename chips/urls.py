from django.urls import path

from . import chip_page, tool_views, views

app_name = "chips"

urlpatterns = [
    path("chips/", views.ChipListView.as_view(), name="list"),
    path("chips/compare/", views.chip_compare, name="compare"),
    path("chips/trends/", tool_views.chip_trends, name="trends"),
    path("chips/trends.csv", tool_views.chip_trends_csv, name="trends_csv"),
    path("chips/fit/", tool_views.chip_fit, name="fit"),
    path("chips/<slug:slug>/", chip_page.chip_detail, name="detail"),  # last: a slug never hides a page
]
