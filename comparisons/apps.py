from django.apps import AppConfig


class ComparisonsConfig(AppConfig):
    name = "comparisons"
    verbose_name = "Head-to-head comparisons"
