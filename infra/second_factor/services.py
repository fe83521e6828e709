"""Enrolling and checking a staff member's second factor. Views call these; nothing here reads
a request beyond marking its session verified (django_otp.login)."""

import time
from dataclasses import dataclass
from importlib import import_module

import django_otp
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

RECOVERY_CODE_COUNT = 10
TOTP_NAME = "Authenticator app"
RECOVERY_NAME = "Recovery codes"


def required() -> bool:
    return settings.STAFF_SECOND_FACTOR == "required"


def is_enrolled(user: AbstractBaseUser) -> bool:
    """Whether the user has a confirmed TOTP app or passkey (recovery codes alone do not count)."""
    return any(
        not isinstance(device, StaticDevice) for device in django_otp.devices_for_user(user, confirmed=True)
    )


def record(*, kind: str, user: AbstractBaseUser, request: HttpRequest | None, detail: str = "") -> None:
    """An entry in the security events log (infra/security.py), where that log is installed."""
    try:
        log = import_module("infra.security")
    except ImportError:
        return
    log.record_security_event(kind=kind, user=user, request=request, detail=detail)


def pending_totp_device(*, user: AbstractBaseUser) -> TOTPDevice:
    """The TOTP device being enrolled: one unconfirmed device per user, made on first ask, so that
    reloading the enrolment page shows the same QR code."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    return device or TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)


@dataclass(frozen=True)
class Outcome:
    ok: bool
    message: str = ""


def confirm_totp(*, request: HttpRequest, user: AbstractBaseUser, code: str) -> Outcome:
    """Confirm the pending TOTP device with a code from the app and mark the session verified."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    if device is None:
        return Outcome(False, "Reload this page to get a new QR code.")
    if not device.verify_token(code.strip()):
        record(kind="second_factor_failed", user=user, request=request, detail="enrolling an app: wrong code")
        return Outcome(
            False, "That code does not match. Check the clock on your phone and try the next code."
        )
    with transaction.atomic():
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    django_otp.login(request, device)
    record(kind="second_factor_added", user=user, request=request, detail="authenticator app")
    return Outcome(True)


def _totp_code_was_used(device: TOTPDevice, code: str) -> bool:
    """Whether a refused code is one the device accepted already (a replay), not a wrong one."""
    try:
        token = int(code)
    except ValueError:
        return False
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    # verify_token refused it; if it matches the current window regardless of last_t, it is at or
    # before the last accepted step.
    return bool(totp.verify(token, device.tolerance))


def verify_code(*, request: HttpRequest, user: AbstractBaseUser, code: str) -> Outcome:
    """Check a code from the authenticator app (six digits) or a recovery code, and mark the
    session verified. A used code is refused and nothing changes but the throttle."""
    code = code.strip().replace(" ", "").lower()
    if code.isdigit():
        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        if device is None:
            return Outcome(False, "You have no authenticator app. Use a passkey or a recovery code.")
        allowed, _ = device.verify_is_allowed()
        if not allowed:
            return Outcome(False, "Too many wrong codes. Wait a minute, then try the next code.")
        if device.verify_token(code):
            django_otp.login(request, device)
            return Outcome(True)
        if _totp_code_was_used(device, code):
            record(kind="second_factor_failed", user=user, request=request, detail="app code used before")
            return Outcome(False, "That code has been used already. Wait for the next code from your app.")
        record(kind="second_factor_failed", user=user, request=request, detail="wrong app code")
        return Outcome(
            False, "That code does not match. Check the clock on your phone and try the next code."
        )
    return _use_recovery_code(request=request, user=user, code=code)


def _use_recovery_code(*, request: HttpRequest, user: AbstractBaseUser, code: str) -> Outcome:
    device = StaticDevice.objects.filter(user=user, confirmed=True, name=RECOVERY_NAME).first()
    if device is None:
        return Outcome(False, "That is not a valid code.")
    allowed, _ = device.verify_is_allowed()
    if not allowed:
        return Outcome(False, "Too many wrong codes. Wait a minute, then try again.")
    # Deleting the one row decides, so two requests racing with the same code cannot both pass.
    if not StaticToken.objects.filter(device=device, token=code).delete()[0]:
        device.throttle_increment()
        record(kind="second_factor_failed", user=user, request=request, detail="recovery code used or wrong")
        return Outcome(
            False, "That recovery code is not valid: each code works once, and this one is used or mistyped."
        )
    device.throttle_reset(commit=False)
    device.set_last_used_timestamp(commit=False)
    device.save()
    django_otp.login(request, device)
    left = device.token_set.count()
    return Outcome(True, f"You used a recovery code; {left} are left.")


def issue_recovery_codes(*, request: HttpRequest | None, user: AbstractBaseUser) -> list[str]:
    """New recovery codes for the user, replacing any earlier ones. Returned once, to be shown once."""
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]
    with transaction.atomic():
        device, _ = StaticDevice.objects.get_or_create(
            user=user, name=RECOVERY_NAME, defaults={"confirmed": True}
        )
        device.token_set.all().delete()
        StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    record(
        kind="second_factor_added", user=user, request=request, detail="new recovery codes; earlier ones void"
    )
    return codes
