from django.apps import AppConfig


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = "Editorial workflow"

    def ready(self):
        from . import pages

        pages.connect()  # the workflow's changes reach the page cache and the stored pages

        import datetime as dt

        from infra import periodic

        from .notifications import send_digests, send_waiting

        periodic.every(send_waiting, minutes=1, name="send_notifications")  # and what failed, again
        periodic.daily(send_digests, at=dt.time(7, 0), name="send_digests")
