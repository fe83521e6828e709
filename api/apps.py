from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "read API"

    def ready(self):
        from . import pages

        pages.register()  # its stored pages (infra/stored/)
