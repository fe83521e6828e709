"""The second-factor pages: verify (after the password), enrol (first sign-in) and recovery codes."""

import ipaddress
from base64 import b32encode
from urllib.parse import urlencode

import segno
from django import forms
from django.contrib import admin, messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View
from django.views.decorators.cache import never_cache
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnCredential

from . import services


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code",
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": True, "spellcheck": "false"}
        ),
    )


def _next_url(request: HttpRequest) -> str:
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else reverse("admin:index")


def _with_next(name: str, next_url: str) -> str:
    return f"{reverse(name)}?{urlencode({'next': next_url})}"


def passkeys_refused(request: HttpRequest) -> str:
    """Why a browser would refuse to make or use a passkey at this address, or "" where it would.

    "an IP address": browsers tie passkeys to a domain name and refuse an IP address
    (http://127.0.0.1:8000 fails; http://localhost:8000 works). "http": WebAuthn runs only in a
    secure context, which is https, or http at localhost (or a name under .localhost).
    """
    host = request.get_host()
    if host.startswith("["):
        return "an IP address"  # an IPv6 address
    name = host.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        return "an IP address"
    if not request.is_secure() and name != "localhost" and not name.endswith(".localhost"):
        return "http"
    return ""


def _context(request: HttpRequest, **extra) -> dict:
    """The admin's own page furniture, without the apps: nothing there opens before this is done."""
    return {
        **admin.site.each_context(request),
        "available_apps": [],
        "is_nav_sidebar_enabled": False,
        "next": _next_url(request),
        "passkeys_refused": passkeys_refused(request),
        **extra,
    }


def _has_recovery_codes(user) -> bool:
    return StaticDevice.objects.filter(user=user, name=services.RECOVERY_NAME).exists()


def _show_codes(request: HttpRequest, codes: list[str] | None) -> HttpResponse:
    return render(
        request,
        "admin/second_factor/recovery_codes.html",
        _context(request, title="Your recovery codes", codes=codes),
    )


@method_decorator(never_cache, name="dispatch")
class VerifyView(View):
    """The page after the password: a passkey, a code from the app, or a recovery code."""

    template_name = "admin/second_factor/verify.html"

    def dispatch(self, request, *args, **kwargs):
        if not (request.user.is_authenticated and request.user.is_staff):
            return redirect_to_login(request.get_full_path(), reverse("admin:login"))
        if request.user.is_verified():
            return HttpResponseRedirect(_next_url(request))
        if not services.is_enrolled(request.user):
            return HttpResponseRedirect(_with_next("second_factor:enrol", _next_url(request)))
        return super().dispatch(request, *args, **kwargs)

    def render(self, request, form):
        user = request.user
        return render(
            request,
            self.template_name,
            _context(
                request,
                title="Second step: confirm it is you",
                form=form,
                has_passkey=WebAuthnCredential.objects.filter(user=user, confirmed=True).exists(),
                has_app=TOTPDevice.objects.filter(user=user, confirmed=True).exists(),
            ),
        )

    def get(self, request):
        return self.render(request, CodeForm())

    def post(self, request):
        form = CodeForm(request.POST)
        if form.is_valid():
            outcome = services.verify_code(request=request, user=request.user, code=form.cleaned_data["code"])
            if outcome.ok:
                if outcome.message:
                    messages.warning(request, outcome.message)
                return HttpResponseRedirect(_next_url(request))
            form.add_error("code", outcome.message)
        return self.render(request, form)


@method_decorator(never_cache, name="dispatch")
class EnrolView(View):
    """First sign-in: add an authenticator app (QR code) or a passkey. Someone who has one
    already must pass it first; from here on they may add the other."""

    template_name = "admin/second_factor/enrol.html"

    def dispatch(self, request, *args, **kwargs):
        if not (request.user.is_authenticated and request.user.is_staff):
            return redirect_to_login(request.get_full_path(), reverse("admin:login"))
        if not request.user.is_verified() and services.is_enrolled(request.user):
            return HttpResponseRedirect(_with_next("second_factor:verify", _next_url(request)))
        return super().dispatch(request, *args, **kwargs)

    def render(self, request, form):
        user = request.user
        has_app = TOTPDevice.objects.filter(user=user, confirmed=True).exists()
        extra = {}
        if not has_app:
            device = services.pending_totp_device(user=user)
            extra = {
                "qr_code": segno.make(device.config_url, error="m").svg_data_uri(scale=5, border=2),
                "secret": b32encode(device.bin_key).decode().rstrip("="),
            }
        return render(
            request,
            self.template_name,
            _context(
                request,
                title="Set up your second step",
                form=form,
                has_app=has_app,
                done_url=_with_next("second_factor:recovery_codes", _next_url(request)),
                **extra,
            ),
        )

    def get(self, request):
        return self.render(request, CodeForm())

    def post(self, request):
        form = CodeForm(request.POST)
        if form.is_valid():
            outcome = services.confirm_totp(
                request=request, user=request.user, code=form.cleaned_data["code"]
            )
            if outcome.ok:
                if not _has_recovery_codes(request.user):
                    return _show_codes(
                        request, services.issue_recovery_codes(request=request, user=request.user)
                    )
                messages.success(request, "Your authenticator app is set up.")
                return HttpResponseRedirect(_next_url(request))
            form.add_error("code", outcome.message)
        return self.render(request, form)


@method_decorator(never_cache, name="dispatch")
class RecoveryCodesView(View):
    """Recovery codes, shown once: the first time after enrolment, and each time new ones are
    made (which voids the old). Only a verified session gets here."""

    def dispatch(self, request, *args, **kwargs):
        if not (request.user.is_authenticated and request.user.is_staff):
            return redirect_to_login(request.get_full_path(), reverse("admin:login"))
        if not request.user.is_verified():
            return HttpResponseRedirect(_with_next("second_factor:verify", _next_url(request)))
        return super().dispatch(request, *args, **kwargs)

    def get(self, request):
        # Reached right after enrolling (a passkey's script comes here): the first codes are made
        # now, once; later visits only offer to replace them.
        if not _has_recovery_codes(request.user):
            return _show_codes(request, services.issue_recovery_codes(request=request, user=request.user))
        return _show_codes(request, None)

    def post(self, request):
        """New codes in place of the old ones."""
        return _show_codes(request, services.issue_recovery_codes(request=request, user=request.user))
