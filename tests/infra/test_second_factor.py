"""A second factor for staff (infra/second_factor/): enrolment at first sign-in, the admin closed
until it is passed when required, and codes or passkeys that must not work twice or elsewhere."""

import hashlib
import json
import re
import time
from base64 import urlsafe_b64encode

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnCredential

from infra.second_factor import services
from tests.factories import make_staff_user, make_vendor

pytestmark = pytest.mark.django_db

VERIFY = "/admin/second-factor/"
ENROL = "/admin/second-factor/enrol/"


@pytest.fixture
def required(settings):
    settings.STAFF_SECOND_FACTOR = "required"


@pytest.fixture
def editor():
    user = make_staff_user(group="Editor", username="ada")
    user.user_permissions.add(Permission.objects.get(codename="change_vendor"))
    return user


def password_sign_in(username="ada"):
    """A new browser that has passed the password step of the admin's sign-in form."""
    client = Client()
    response = client.post(
        reverse("admin:login"), {"username": username, "password": "pw", "next": "/admin/"}
    )
    assert response.status_code == 302, "the password was refused"
    return client


def app_code(device, *, at=None):
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = at if at is not None else time.time()
    return f"{totp.token():0{device.digits}d}"


def enrolled_app(user):
    return TOTPDevice.objects.create(user=user, name=services.TOTP_NAME, confirmed=True)


def recovery_codes(user):
    return services.issue_recovery_codes(request=None, user=user)


def test_admin_is_closed_to_a_password_alone_and_enrolment_comes_first(required, editor):
    client = password_sign_in()
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(VERIFY)
    response = client.get(response["Location"])
    assert response.status_code == 302 and response["Location"].startswith(ENROL)
    for path in ("/admin/", "/admin/vendors/vendor/", "/admin/auth/user/", "/admin/password_change/"):
        assert client.get(path).status_code == 302, path


def test_a_draft_preview_waits_for_the_second_factor_too(required, editor):
    draft = make_vendor(name="Draft Chip", published=False)
    client = password_sign_in()
    assert client.get(draft.get_absolute_url()).status_code == 404


def test_enrolling_an_app_shows_a_qr_code_made_here_then_recovery_codes_once(required, editor):
    client = password_sign_in()
    page = client.get(ENROL + "?next=/admin/").content.decode()
    assert re.search(r'<img class="second-factor-qr" src="data:image/svg\+xml', page)
    assert "<script>" not in page and "style=" not in page.split("</header>")[-1]
    device = TOTPDevice.objects.get(user=editor, confirmed=False)

    response = client.post(ENROL, {"code": app_code(device), "next": "/admin/"})
    page = response.content.decode()
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", page)
    assert len(codes) == services.RECOVERY_CODE_COUNT
    assert client.get("/admin/").status_code == 200

    again = client.get("/admin/second-factor/recovery-codes/").content.decode()
    assert not set(codes) & set(re.findall(r"<code>([a-z2-7]{8})</code>", again))
    assert "were shown once" in again


def test_signing_in_with_an_app_code_opens_the_admin(required, editor):
    device = enrolled_app(editor)
    client = password_sign_in()
    response = client.post(VERIFY, {"code": app_code(device), "next": "/admin/vendors/vendor/"})
    assert response.status_code == 302 and response["Location"] == "/admin/vendors/vendor/"
    assert client.get("/admin/vendors/vendor/").status_code == 200


def test_a_replayed_app_code_is_refused_and_nothing_opens(required, editor):
    device = enrolled_app(editor)
    code = app_code(device)
    first = password_sign_in()
    assert first.post(VERIFY, {"code": code}).status_code == 302

    second = password_sign_in()
    response = second.post(VERIFY, {"code": code})
    assert response.status_code == 200
    assert (
        "That code has been used already. Wait for the next code from your app." in response.content.decode()
    )
    assert second.get("/admin/").status_code == 302


def test_a_wrong_app_code_is_refused_with_its_own_message(required, editor):
    device = enrolled_app(editor)
    client = password_sign_in()
    wrong = app_code(device, at=time.time() - 3600)
    response = client.post(VERIFY, {"code": wrong})
    assert "That code does not match" in response.content.decode()
    assert client.get("/admin/").status_code == 302


def test_a_recovery_code_works_once(required, editor):
    enrolled_app(editor)
    code = recovery_codes(editor)[0]
    first = password_sign_in()
    response = first.post(VERIFY, {"code": code, "next": "/admin/"})
    assert response.status_code == 302
    assert first.get("/admin/").status_code == 200

    second = password_sign_in()
    response = second.post(VERIFY, {"code": code})
    assert "each code works once" in response.content.decode()
    assert second.get("/admin/").status_code == 302
    assert StaticToken.objects.filter(device__user=editor).count() == services.RECOVERY_CODE_COUNT - 1


def test_optional_lets_staff_without_a_second_factor_in(settings, editor):
    settings.STAFF_SECOND_FACTOR = "optional"
    assert password_sign_in().get("/admin/").status_code == 200


def test_optional_still_asks_those_who_enrolled(settings, editor):
    settings.STAFF_SECOND_FACTOR = "optional"
    enrolled_app(editor)
    response = password_sign_in().get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith(VERIFY)


def test_enrolment_page_is_not_a_way_round_an_existing_second_factor(required, editor):
    enrolled_app(editor)
    client = password_sign_in()
    assert client.get(ENROL)["Location"].startswith(VERIFY)
    assert client.get("/admin/second-factor/recovery-codes/")["Location"].startswith(VERIFY)
    begin = client.post(
        reverse("otp_webauthn:credential-registration-begin"), content_type="application/json"
    )
    assert begin.status_code == 403


# A software authenticator: enough of WebAuthn to sign an assertion the way a browser would.


def b64(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftPasskey:
    def __init__(self, user):
        self.key = ec.generate_private_key(ec.SECP256R1())
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        self.credential_id = b"soft-passkey-" + user.username.encode()
        WebAuthnCredential.objects.create(
            user=user,
            name="Soft",
            credential_id=self.credential_id,
            public_key=cbor2.dumps(cose),
            confirmed=True,
        )

    def assertion(self, *, challenge: str, origin: str, rp_id: str = "testserver") -> dict:
        client_data = json.dumps({"type": "webauthn.get", "challenge": challenge, "origin": origin}).encode()
        authenticator_data = hashlib.sha256(rp_id.encode()).digest() + bytes([0x05]) + (1).to_bytes(4, "big")
        signature = self.key.sign(
            authenticator_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {
                "authenticatorData": b64(authenticator_data),
                "clientDataJSON": b64(client_data),
                "signature": b64(signature),
            },
            "clientExtensionResults": {},
        }


def passkey_attempt(client, passkey, *, origin):
    begin = client.post(
        reverse("otp_webauthn:credential-authentication-begin"), content_type="application/json"
    )
    assert begin.status_code == 200
    answer = passkey.assertion(challenge=begin.json()["challenge"], origin=origin)
    return client.post(
        reverse("otp_webauthn:credential-authentication-complete") + "?next=/admin/",
        json.dumps(answer),
        content_type="application/json",
    )


def test_a_passkey_signs_in_from_our_own_origin(required, editor):
    passkey = SoftPasskey(editor)
    client = password_sign_in()
    response = passkey_attempt(client, passkey, origin="http://testserver")
    assert response.status_code == 200, response.content
    assert response.json()["redirect_url"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_a_passkey_answer_made_on_another_origin_is_refused(required, editor):
    passkey = SoftPasskey(editor)
    client = password_sign_in()
    response = passkey_attempt(client, passkey, origin="https://chipsite.example.evil")
    assert response.status_code == 422
    assert response.json()["detail"]
    assert client.get("/admin/").status_code == 302
    assert WebAuthnCredential.objects.get(user=editor).sign_count == 0


@pytest.mark.parametrize(
    ("host", "secure", "refused"),
    [
        ("localhost:8000", False, ""),
        ("admin.localhost:8000", False, ""),
        ("chips.example", True, ""),
        ("chips.example", False, "http"),
        ("127.0.0.1:8000", False, "an IP address"),
        ("127.0.0.1:8000", True, "an IP address"),
        ("[::1]:8000", False, "an IP address"),
    ],
)
def test_passkeys_work_only_at_a_domain_name_in_a_secure_context(rf, settings, host, secure, refused):
    from infra.second_factor.views import passkeys_refused

    settings.ALLOWED_HOSTS = ["*"]
    assert passkeys_refused(rf.get("/admin/", HTTP_HOST=host, secure=secure)) == refused


HTTP_REASON = "Passkeys need a secure address (https); this site is served over http."


def test_enrolling_over_http_says_why_passkeys_cannot_work_and_offers_none(required, editor, settings):
    settings.ALLOWED_HOSTS = ["chips.example"]
    client = Client(HTTP_HOST="chips.example")
    client.post(reverse("admin:login"), {"username": "ada", "password": "pw", "next": "/admin/"})
    page = client.get(ENROL).content.decode()
    assert f'<p class="second-factor-reason">{HTTP_REASON} Use an authenticator app instead.</p>' in page
    assert "Add a passkey" not in page
    assert "Confirm the app" in page


def test_enrolling_over_https_offers_a_passkey(required, editor, settings):
    settings.ALLOWED_HOSTS = ["chips.example"]
    client = Client(HTTP_HOST="chips.example")
    client.post(reverse("admin:login"), {"username": "ada", "password": "pw", "next": "/admin/"}, secure=True)
    page = client.get(ENROL, secure=True).content.decode()
    assert "Add a passkey" in page
    assert HTTP_REASON not in page


def test_a_passkey_holder_signing_in_over_http_is_told_why_and_pointed_to_a_code(required, editor, settings):
    settings.ALLOWED_HOSTS = ["chips.example"]
    enrolled_app(editor)
    WebAuthnCredential.objects.create(user=editor, confirmed=True, credential_id=b"key", public_key=b"k")
    client = Client(HTTP_HOST="chips.example")
    client.post(reverse("admin:login"), {"username": "ada", "password": "pw", "next": "/admin/"})
    page = client.get(VERIFY).content.decode()
    assert f'<p class="second-factor-reason">{HTTP_REASON} Use a code below.</p>' in page
    assert "Use my passkey" not in page
