from django.urls import path

from . import views

app_name = "vendors"

urlpatterns = [
    path("", views.RankingsView.as_view(), name="rankings"),
    path("vendors/", views.VendorListView.as_view(), name="list"),
    path("vendors/<slug:slug>/", views.VendorDetailView.as_view(), name="detail"),
    path("vendors/<slug:slug>/changes/", views.ChangeLogView.as_view(), name="changes"),
    path("vendors/<slug:slug>/v/<int:number>/", views.VendorVersionView.as_view(), name="version"),
    path("vendors/<slug:slug>/v/<int:number>/cite.<str:format>", views.citation_download, name="citation"),
    path("lanes/", views.LaneListView.as_view(), name="lanes"),
    path("lanes/<slug:slug>/", views.LaneDetailView.as_view(), name="lane"),
]
