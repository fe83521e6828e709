from django.apps import AppConfig
from django.conf import settings


class VendorsConfig(AppConfig):
    name = "vendors"
    demo_loader = "vendors.demo.load_vendors"
    verbose_name = "Vendor profiles"

    def ready(self):
        from editorial.registry import register
        from infra import periodic

        from .publishing import VendorPublication
        from .tasks import check_all_sources

        register(VendorPublication())
        periodic.every(check_all_sources, hours=settings.SOURCE_CHECK_EVERY_HOURS, name="check_sources")

        from . import pages

        pages.register()  # its stored pages (infra/stored/)
