"""The security events log (``infra.models.SecurityEvent``): who, when, from where.

Kinds (``SecurityEvent.Kind``):

- ``sign_in``: a sign-in succeeded.
- ``sign_in_failed``: a wrong password, or any attempt while sign-in is paused (detail says so).
- ``locked_out``: sign-in paused for a username at an address, or for an address.
- ``lockout_cleared``: a superuser lifted a pause in the admin.
- ``role_changed``: an account's groups, staff or superuser status changed, however it was done.
- ``second_factor_added``, ``second_factor_removed``, ``second_factor_failed``: for the
  two-factor sign-in to call.

Role changes are caught on the model (signals), so a change from the shell or a command is
recorded too; ``CurrentRequestMiddleware`` lets them name who made the change and from where
when it came through a request.
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models.signals import m2m_changed, post_save, pre_save
from django.dispatch import receiver

from .client import client_ip
from .models import SecurityEvent

if TYPE_CHECKING:
    from django.http import HttpRequest

_current_request: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar(
    "chipsite_current_request", default=None
)

ROLE_FLAGS = ("is_staff", "is_superuser")


def record_security_event(
    *,
    kind: str,
    user: Any = None,
    username: str = "",
    request: HttpRequest | None = None,
    detail: str = "",
) -> SecurityEvent:
    """Record one event. ``user`` is the account it is about (when it exists), ``username`` the
    name typed (taken from ``user`` if not given), ``request`` where it came from (the current
    request, if any, when not given): its client address and, when someone else is signed in
    on it, who made the change."""
    if kind not in SecurityEvent.Kind.values:
        raise ValueError(f"Unknown security event kind: {kind!r}")
    request = request if request is not None else _current_request.get()
    if user is not None and not username:
        username = user.get_username()
    actor = getattr(request, "user", None) if request is not None else None
    if actor is None or not actor.is_authenticated or (user is not None and actor.pk == user.pk):
        actor = None
    return SecurityEvent.objects.create(
        kind=kind,
        user=user if user is not None and user.pk else None,
        username=str(username)[:150],
        actor=actor,
        ip_address=client_ip(request),
        detail=detail,
    )


class CurrentRequestMiddleware:
    """Remembers the request being answered, for events recorded where no request is passed
    (a role changed through a model save). Place it after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            _current_request.reset(token)


User = get_user_model()


@receiver(pre_save, sender=User, dispatch_uid="infra.security.remember_role_flags")
def _remember_role_flags(sender, instance, update_fields=None, raw=False, **kwargs):
    if raw or instance.pk is None:
        return
    if update_fields is not None and not set(update_fields) & set(ROLE_FLAGS):
        return  # e.g. last_login on every sign-in: no query
    before = sender.objects.filter(pk=instance.pk).values(*ROLE_FLAGS).first()
    instance._role_flags_before = before


@receiver(post_save, sender=User, dispatch_uid="infra.security.record_role_flags")
def _record_role_flags(sender, instance, created, raw=False, **kwargs):
    if raw:
        return
    before = getattr(instance, "_role_flags_before", None)
    instance._role_flags_before = None
    if created:
        roles = [flag.removeprefix("is_") for flag in ROLE_FLAGS if getattr(instance, flag)]
        if roles:
            detail = f"New account: {' and '.join(roles)}."
            record_security_event(kind=SecurityEvent.Kind.ROLE_CHANGED, user=instance, detail=detail)
        return
    if before is None:
        return
    changes = [
        f"{'now' if getattr(instance, flag) else 'no longer'} {flag.removeprefix('is_')}"
        for flag in ROLE_FLAGS
        if bool(before[flag]) != bool(getattr(instance, flag))
    ]
    if changes:
        detail = "; ".join(changes).capitalize() + "."
        record_security_event(kind=SecurityEvent.Kind.ROLE_CHANGED, user=instance, detail=detail)


@receiver(m2m_changed, sender=User.groups.through, dispatch_uid="infra.security.record_groups")
def _record_groups(sender, instance, action, reverse, model, pk_set, **kwargs):
    if action == "pre_clear":
        # clear() says nothing of what it removes: note it before it goes.
        if reverse:
            instance._groups_cleared_users = list(instance.user_set.all())
        else:
            instance._groups_cleared = list(instance.groups.values_list("name", flat=True))
        return
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if action == "post_clear":
        if reverse:  # a group emptied: each former member lost it
            for user in getattr(instance, "_groups_cleared_users", []):
                _group_event(user, removed=[instance.name])
        else:
            _group_event(instance, removed=getattr(instance, "_groups_cleared", []))
        return
    if not pk_set:
        return
    if reverse:  # group.user_set.add/remove(users)
        for user in User.objects.filter(pk__in=pk_set):
            _group_event(user, **{"added" if action == "post_add" else "removed": [instance.name]})
    else:
        names = sorted(model.objects.filter(pk__in=pk_set).values_list("name", flat=True))
        _group_event(instance, **{"added" if action == "post_add" else "removed": names})


def _group_event(user, *, added=(), removed=()):
    parts = []
    if added:
        parts.append("Added to " + ", ".join(added))
    if removed:
        parts.append("Removed from " + ", ".join(removed))
    if parts:
        record_security_event(kind=SecurityEvent.Kind.ROLE_CHANGED, user=user, detail="; ".join(parts) + ".")
