"""Staff sign-ins: a log line and a security event for each success and failure, from the
client's address (infra/client.py)."""

import logging

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver

from .client import client_ip
from .models import SecurityEvent
from .security import record_security_event

log = logging.getLogger(__name__)


@receiver(user_logged_in)
def log_sign_in(sender, request, user, **kwargs):
    log.info("Signed in: %r from %s", user.get_username(), client_ip(request))
    record_security_event(kind=SecurityEvent.Kind.SIGN_IN, user=user, request=request)


@receiver(user_login_failed)
def log_failed_sign_in(sender, credentials, request=None, **kwargs):
    username = str(credentials.get("username", ""))[:150]
    log.warning("Failed sign-in: %r from %s", username, client_ip(request))
    # Set by infra.lockout when the attempt was refused unchecked because sign-in was paused.
    paused = getattr(request, "chipsite_sign_in_paused", False)
    record_security_event(
        kind=SecurityEvent.Kind.SIGN_IN_FAILED,
        username=username,
        request=request,
        detail="Refused unchecked: sign-in was paused." if paused else "",
    )
    if paused_now := getattr(request, "chipsite_paused_now", None):
        record_security_event(
            kind=SecurityEvent.Kind.LOCKED_OUT,
            username=username,
            request=request,
            detail=(
                f"{settings.LOGIN_ADDRESS_FAILURE_LIMIT} failures from this address, any username."
                if paused_now == "address"
                else f"{settings.AXES_FAILURE_LIMIT} failures for this username from this address."
            ),
        )
