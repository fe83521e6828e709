from django.apps import AppConfig
from django.conf import settings


class VendorsConfig(AppConfig):
    name = "vendors"
    demo_loader = "vendors.demo.load_vendors"
    verbose_name = "Vendor profiles"

    def ready(self):
        from editorial.notifications import register_digest_part
        from editorial.registry import register
        from infra import periodic

        from .publishing import VendorPublication
        from .tasks import check_all_sources

        register(VendorPublication())
        from .digest import stale_rows_and_dead_sources

        register_digest_part(stale_rows_and_dead_sources)  # each editor's daily e-mail
        periodic.every(check_all_sources, hours=settings.SOURCE_CHECK_EVERY_HOURS, name="check_sources")

        from claims.source_checks import on_problem_moved

        from .services import refresh_pages_citing

        on_problem_moved(refresh_pages_citing)  # a source's check moves what its pages show

        from chips import catalogue

        from .documents import LiveProfiles

        catalogue.register(LiveProfiles())  # the chip pages read the live profiles' chips

        from infra.stored import register_vocabulary

        from .selectors import AXES_DESCRIPTIONS_KEY, AXES_KEY, SITE_TEXT_KEY

        register_vocabulary(AXES_KEY, AXES_DESCRIPTIONS_KEY, SITE_TEXT_KEY)  # read beside any page's content

        from . import pages

        pages.register()  # its stored pages (infra/stored/)

        from editorial.events import subscribe

        from .rows import keep_published

        subscribe(keep_published)  # a published version's rows are rendered with it (infra/rows/)
