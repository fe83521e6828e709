from django.apps import AppConfig


class VendorsConfig(AppConfig):
    name = "vendors"
    demo_loader = "vendors.demo.load_vendors"
    verbose_name = "Vendor profiles"

    def ready(self):
        from editorial.registry import register

        from .publishing import VendorPublication

        register(VendorPublication())

        from . import pages

        pages.register()  # its stored pages (infra/stored.py)
