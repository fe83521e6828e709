from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver
from django_otp_webauthn.models import WebAuthnCredential

from . import services
from .middleware import ENROLLED_SESSION_KEY


@receiver(user_logged_in)
def remember_enrolment(sender, request, user, **kwargs):
    """Whether a staff member has a second factor, looked up once at sign-in (see middleware)."""
    if request is not None and hasattr(request, "session") and user.is_staff:
        request.session[ENROLLED_SESSION_KEY] = services.is_enrolled(user)


@receiver(post_save, sender=WebAuthnCredential, dispatch_uid="second_factor.passkey_added")
def record_passkey_added(sender, instance, created, raw=False, **kwargs):
    """Passkeys are saved by django-otp-webauthn's own view; the log learns of them here."""
    if created and not raw:
        services.record(kind="second_factor_added", user=instance.user, request=None, detail="passkey")
