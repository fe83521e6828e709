from django.apps import AppConfig


class OpendataConfig(AppConfig):
    name = "opendata"
    verbose_name = "Open data downloads"

    def ready(self):
        from . import pages

        pages.register()  # its stored pages (infra/stored/)
