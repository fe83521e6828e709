"""Staff sign-ins: the client's address, and a log line for each success and failure."""

import logging

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver

log = logging.getLogger(__name__)


def client_ip(request):
    """The address a request came from. Behind the TLS proxy (settings.SECURE_PROXY_SSL_HEADER)
    that is the last address it appended to X-Forwarded-For: earlier ones are the client's
    own word and could name anyone."""
    if request is None:
        return None
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.SECURE_PROXY_SSL_HEADER and forwarded:
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR")


@receiver(user_logged_in)
def log_sign_in(sender, request, user, **kwargs):
    log.info("Signed in: %r from %s", user.get_username(), client_ip(request))


@receiver(user_login_failed)
def log_failed_sign_in(sender, credentials, request=None, **kwargs):
    log.warning("Failed sign-in: %r from %s", str(credentials.get("username", ""))[:150], client_ip(request))
