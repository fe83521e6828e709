import datetime as dt

from django.apps import AppConfig


class InfraConfig(AppConfig):
    """What every page stands on and no page is about: the page cache and its Redis backend,
    the read-replica router, outages, rate limits, health probes, backups, media serving and the
    periodic schedule the task worker keeps (periodic.py; apps register their tasks on it).
    It imports none of the content apps nor the surfaces that distribute them."""

    name = "infra"
    verbose_name = "Infrastructure"

    def ready(self):
        from django.conf import settings

        from . import auth, periodic, sessions  # noqa: F401 - sign-in receivers: the log, the session's sign-in time
        from .driver import keep_conversions
        from .rows import prune_kept_rows
        from .second_factor import signals  # noqa: F401 - notes at sign-in who has a second factor
        from .stored import (
            checks,  # noqa: F401 - SITE_URL must be a host the site answers to
            render_due,
            render_missing,
        )
        from .tasklog import log_task_finished  # noqa: F401 - one log line per task that finishes

        keep_conversions()  # PostgreSQL's driver keeps the conversion of a page's reads by key
        # Stored pages whose time has come, and addresses never stored (infra/stored/).
        periodic.every(render_due, seconds=settings.STORED_PAGES_SWEEP_SECONDS, name="stored_pages_due")
        periodic.every(render_missing, minutes=10, name="stored_pages_missing")
        # Kept rows of versions no longer live (infra/rows/).
        periodic.daily(prune_kept_rows, at=dt.time(4, 0), name="kept_rows_prune")
