"""Staff sessions end 12 hours after sign-in, however active, or after 30 minutes without a
request (OWASP ASVS 3.3.2, level 2): an unattended, signed-in browser is not an open admin.

The sign-in time is noted in the session when the user signs in; the last request's time is
noted at most once a minute (``NOTE_EVERY_SECONDS``), so a busy editor's session is not written
on every request. ``SESSION_COOKIE_AGE`` (12 h) bounds the cookie too; ``SESSION_IDLE_SECONDS``
and ``SESSION_MAX_SECONDS`` are read here. A session with no sign-in time (one from before these
limits) is ended, since how old it is cannot be told.
"""

import time

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

SIGNED_IN_AT = "signed_in_at"
LAST_SEEN_AT = "last_seen_at"
NOTE_EVERY_SECONDS = 60


def now() -> int:
    """Seconds since the epoch: the wall clock, as the session is shared between servers."""
    return int(time.time())


@receiver(user_logged_in, dispatch_uid="infra.sessions.note_sign_in")
def note_sign_in(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session"):
        request.session[SIGNED_IN_AT] = request.session[LAST_SEEN_AT] = now()


def expired(session, *, at: int) -> bool:
    """Whether a signed-in ``session`` has ended by ``at``: 12 h after sign-in or 30 minutes idle."""
    signed_in_at, last_seen_at = session.get(SIGNED_IN_AT), session.get(LAST_SEEN_AT)
    if not isinstance(signed_in_at, int) or not isinstance(last_seen_at, int):
        return True
    return (
        at - signed_in_at >= settings.SESSION_MAX_SECONDS
        or at - last_seen_at >= settings.SESSION_IDLE_SECONDS
    )


class SessionTimeoutMiddleware:
    """Sign out a user whose session has ended, before anything else looks at who they are; the
    admin then asks them to sign in again. Visitors (no session cookie) are not touched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            at = now()
            if expired(request.session, at=at):
                logout(request)
            elif at - request.session[LAST_SEEN_AT] >= NOTE_EVERY_SECONDS:
                request.session[LAST_SEEN_AT] = at
        return self.get_response(request)
