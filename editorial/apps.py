from django.apps import AppConfig


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = "Editorial workflow"

    def ready(self):
        from infra.cache import changes_at
        from infra.stored import register_expiry

        from .registry import next_scheduled, pages_expire

        changes_at(next_scheduled)  # a scheduled version going live changes visitors' pages
        register_expiry(pages_expire)  # ... and its stored pages (infra/stored/)

        import datetime as dt

        from infra import periodic

        from .notifications import send_digests, send_waiting

        periodic.every(send_waiting, minutes=1, name="send_notifications")  # and what failed, again
        periodic.daily(send_digests, at=dt.time(7, 0), name="send_digests")
