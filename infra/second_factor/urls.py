from django.urls import path

from . import views

app_name = "second_factor"

urlpatterns = [
    path("", views.VerifyView.as_view(), name="verify"),
    path("enrol/", views.EnrolView.as_view(), name="enrol"),
    path("recovery-codes/", views.RecoveryCodesView.as_view(), name="recovery_codes"),
]
