"""Sign-in pauses on top of django-axes.

Axes counts failures per (username, address) pair (``AXES_LOCKOUT_PARAMETERS``): guessing one
editor's password from one place pauses that pair only, so the editor still signs in from the
office and a colleague still signs in from the guesser's network. ``LockoutHandler`` adds a
ceiling per address across usernames (``LOGIN_ADDRESS_FAILURE_LIMIT``, high enough for a
newsroom behind one address), so trying many usernames from one place is paused as well.

``lockout_response`` is the answer while paused: 429 with ``Retry-After`` and the time in words.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib import admin
from django.db.models import Sum
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler plus the per-address ceiling. It marks the request
    ``chipsite_sign_in_paused`` when an attempt is refused unchecked, and
    ``chipsite_paused_now`` ("username" or "address") when this attempt's failure started a
    pause (infra/auth.py records both as security events)."""

    def is_locked(self, request, credentials=None):
        locked = super().is_locked(request, credentials) or address_failures(request) >= address_limit()
        if locked:
            request.chipsite_sign_in_paused = True
        return locked

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is None:
            return
        reason = "username"
        if not request.axes_locked_out and address_failures(request) >= address_limit():
            reason = "address"
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )
        if request.axes_locked_out and not getattr(request, "chipsite_sign_in_paused", False):
            request.chipsite_paused_now = reason


def address_limit() -> int:
    return settings.LOGIN_ADDRESS_FAILURE_LIMIT


def address_failures(request) -> int:
    """Failed sign-ins from this request's address within the cool-off, whatever the username."""
    recent = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=_now(request) - get_cool_off(request)
    )
    return recent.aggregate(total=Sum("failures_since_start"))["total"] or 0


def paused_until(request, credentials=None) -> datetime:
    """When sign-in opens again for this request's username and address."""
    return _pauses(request, credentials)[0]


def _pauses(request, credentials=None) -> tuple[datetime, bool]:
    """When sign-in opens again for this request's username and address, the later of the
    pair's pause and the address's, and whether the address's is the one that holds. Axes
    forgets a row whole once its last failure is older than the cool-off, so a count drops
    below its limit when enough of the oldest rows go."""
    now = _now(request)
    cool_off = get_cool_off(request)
    recent = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=now - cool_off
    )
    rows = list(
        recent.order_by("attempt_time").values_list("username", "attempt_time", "failures_since_start")
    )
    username = get_client_username(request, credentials)
    pair = [(at, failures) for name, at, failures in rows if name == username]
    every = [(at, failures) for _, at, failures in rows]
    pair_ends = _lifts_at(pair, get_failure_limit(request, credentials), cool_off)
    address_ends = _lifts_at(every, address_limit(), cool_off)
    ends = [end for end in (pair_ends, address_ends) if end is not None]
    until = max(ends, default=now + cool_off)
    return until, address_ends is not None and address_ends == until


def _lifts_at(rows: list[tuple[datetime, int]], limit: int, cool_off: timedelta) -> datetime | None:
    """When the oldest rows expiring bring the count below ``limit``; None if it is below now."""
    total = sum(failures for _, failures in rows)
    if total < limit:
        return None
    for at, failures in rows:
        total -= failures
        if total < limit:
            return at + cool_off
    return None


def lockout_response(request, original_response=None, credentials=None):
    """Sign-in paused: the same page for every username, known or not (axes'
    AXES_LOCKOUT_CALLABLE)."""
    now = _now(request)
    until, whole_address = _pauses(request, credentials)
    until = max(until, now + timedelta(seconds=1))
    wait = math.ceil((until - now).total_seconds())
    context = {"retry_at": until, "minutes": math.ceil(wait / 60), "whole_address": whole_address}
    # Rendered inside the admin's own frame (its header, title and breadcrumbs).
    response = render(
        request, "registration/locked_out.html", {**admin.site.each_context(request), **context}, status=429
    )
    response["Retry-After"] = str(wait)
    add_never_cache_headers(response)
    return response


def _now(request) -> datetime:
    return getattr(request, "axes_attempt_time", None) or timezone.now()
