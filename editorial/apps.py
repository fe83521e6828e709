from django.apps import AppConfig


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = "Editorial workflow"

    def ready(self):
        from infra.cache import changes_at

        from .registry import next_scheduled

        changes_at(next_scheduled)  # a scheduled version going live changes visitors' pages
