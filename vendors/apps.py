from django.apps import AppConfig


class VendorsConfig(AppConfig):
    name = "vendors"
    verbose_name = "Vendor profiles"
