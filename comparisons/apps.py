from django.apps import AppConfig


class ComparisonsConfig(AppConfig):
    name = "comparisons"
    demo_loader = "comparisons.demo.load_comparisons"
    verbose_name = "Head-to-head comparisons"

    def ready(self):
        from editorial.registry import register

        from .publishing import ComparisonPublication

        register(ComparisonPublication())

        from . import pages

        pages.register()  # its stored pages (infra/stored/)
