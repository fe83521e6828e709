from django.urls import path

from . import views

app_name = "vendors"

urlpatterns = [
    path("vendors/<slug:slug>/", views.VendorDetailView.as_view(), name="detail"),
]
