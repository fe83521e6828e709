from django.apps import AppConfig


class ChipsConfig(AppConfig):
    """Chips and their numbers: specs and availability (cited, verified), units, the chips of
    each published version, and the readers' chip pages. A vendor's profile holds its chips, so
    vendors builds on this app; the chip pages read the live profiles through the catalogue a
    vendor app registers (chips.catalogue)."""

    name = "chips"
    verbose_name = "Chips"

    def ready(self) -> None:
        from . import pages

        pages.register()  # its stored pages (infra/stored/)
