from django.apps import AppConfig


class OpendataConfig(AppConfig):
    name = "opendata"
    verbose_name = "Open data downloads"
