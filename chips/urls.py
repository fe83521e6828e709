from django.urls import path

from . import views

app_name = "chips"

urlpatterns = [
    path("chips/", views.ChipListView.as_view(), name="list"),
    path("chips/compare/", views.chip_compare, name="compare"),
]
