from django.urls import path

from . import views

app_name = "comparisons"

urlpatterns = [
    path("compare/", views.ComparisonListView.as_view(), name="list"),
    path("compare/vendors/<path:slugs>/", views.GeneratedComparisonView.as_view(), name="generated"),
    path("compare/<slug:slug>/", views.ComparisonDetailView.as_view(), name="detail"),
    path("compare/<slug:slug>/v/<int:number>/", views.ComparisonVersionView.as_view(), name="version"),
    path("compare/<slug:slug>/v/<int:number>/cite.<str:format>", views.citation_download, name="citation"),
]
