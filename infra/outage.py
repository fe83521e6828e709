"""When the database is unreachable or hung: a designed 503 with Retry-After, fast.

- ``server_error`` (the site's handler500) answers a database outage with the static
  ``503.html`` and ``Retry-After`` instead of a 500, and logs the outage once, not a
  traceback per request; ``OutageMiddleware`` logs once more when the database answers
  again. Nothing needs a restart: Django reconnects on the next request.
- ``OutageMiddleware`` also gives every visitor's request a deadline
  (settings.REQUEST_DEADLINE_SECONDS). A database that accepts connections but never
  answers would otherwise hold a worker until gunicorn kills it; at the deadline the
  request is interrupted, its connection dropped, and the visitor gets the 503. (A
  PostgreSQL that answers but is slow is stopped sooner by its own statement_timeout.)
"""

import logging
import signal
import sys
import threading
import time
from contextlib import ExitStack

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpResponse
from django.template import loader
from django.views.defaults import server_error as django_server_error

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30

_state = threading.Lock()
_down_since = None


class DeadlineExceeded(OperationalError):
    """A visitor's request ran past its deadline, as it does when the database hangs."""


def is_outage(error):
    return isinstance(error, (OperationalError, InterfaceError)) or (
        isinstance(error, DatabaseError) and "statement timeout" in str(error)
    )


def outage_started(error):
    global _down_since
    with _state:
        if _down_since is None:
            _down_since = time.monotonic()
            log.error("The database is unreachable; answering 503 until it is back: %s", str(error).strip())


def outage_ended():
    global _down_since
    if _down_since is None:
        return
    with _state:
        if _down_since is not None:
            log.warning("The database is back after %.0f s.", time.monotonic() - _down_since)
            _down_since = None


def drop_connections():
    """Close this request's connections without asking the database anything (it may not
    answer): the next request opens fresh ones."""
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except Exception:  # noqa: BLE001 - already broken; closing is all we want
            connection.connection = None


def unavailable():
    response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    # Logged once per outage above, not per request (Django's own flag, which the stubs do not know).
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def server_error(request, *args, **kwargs):
    """handler500: a database outage is a 503 in the site's design; anything else a 500."""
    error = sys.exception()
    if error is not None and is_outage(error):
        outage_started(error)
        drop_connections()
        return unavailable()
    return django_server_error(request, *args, **kwargs)


def _interrupt(signum, frame):
    raise DeadlineExceeded(f"the request ran past its {settings.REQUEST_DEADLINE_SECONDS} s deadline")


class OutageMiddleware:
    """Outermost: the deadline for visitors' requests, and the log line when an outage ends
    (the first request during an outage whose query the database answers)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _down_since is None:
            return self._within_deadline(request)
        answered = []

        def note_answer(execute, sql, params, many, context):
            result = execute(sql, params, many, context)
            answered.append(True)
            return result

        with ExitStack() as stack:
            for connection in connections.all():
                stack.enter_context(connection.execute_wrapper(note_answer))
            response = self._within_deadline(request)
        if answered:
            outage_ended()
        return response

    def _within_deadline(self, request):
        deadline = settings.REQUEST_DEADLINE_SECONDS
        if deadline and request.path.startswith("/data/"):
            deadline = max(deadline, settings.OPEN_DATA_DEADLINE_SECONDS)  # built from everything
        if (
            not deadline
            or threading.current_thread() is not threading.main_thread()
            or request.path.startswith("/admin/")
        ):
            return self.get_response(request)
        previous = signal.signal(signal.SIGALRM, _interrupt)
        signal.setitimer(signal.ITIMER_REAL, deadline)
        try:
            return self.get_response(request)
        except DeadlineExceeded as error:  # raised outside any view (a middleware's query)
            outage_started(error)
            drop_connections()
            return unavailable()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
