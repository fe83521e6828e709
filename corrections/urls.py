from django.urls import path

from . import views

app_name = "corrections"

urlpatterns = [
    path("vendors/<slug:slug>/correction/", views.VendorCorrectionView.as_view(), name="vendor"),
    path("compare/<slug:slug>/correction/", views.ComparisonCorrectionView.as_view(), name="comparison"),
]
