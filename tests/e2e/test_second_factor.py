"""A staff member's second factor in a real Chromium: a passkey on the browser's virtual
authenticator, and an authenticator app, each enrolled at the first sign-in and used at the next."""

import datetime as dt
import re
import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests import factories as f
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOME = "Profiles, scores and sources"


@pytest.fixture(autouse=True)
def required(settings):
    settings.STAFF_SECOND_FACTOR = "required"


def password_step(page, username):
    page.goto("/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.click("input[type=submit]")


def new_staff(username):
    user = f.make_staff_user(group="Editor", username=username)
    user.set_password("pw")
    user.save()
    return user


def sign_out(page):
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in again")).to_be_visible()


def keep_recovery_codes(page):
    expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    expect(page.locator(".second-factor-codes code")).to_have_count(10)
    page.get_by_role("link", name="I have kept them: continue").click()
    expect(page.get_by_role("heading", name=HOME)).to_be_visible()


def test_enrol_a_passkey_at_first_sign_in_then_sign_in_with_it(open_page):
    new_staff("grace")
    page, watcher = open_page(viewport={"width": 1280, "height": 900})
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    authenticator = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )["authenticatorId"]

    password_step(page, "grace")
    expect(page.get_by_role("heading", name="Set up your second step")).to_be_visible()
    page.get_by_role("button", name="Add a passkey").click()
    keep_recovery_codes(page)
    assert len(cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]) == 1

    sign_out(page)
    password_step(page, "grace")
    expect(page.get_by_role("heading", name="Second step: confirm it is you")).to_be_visible()
    # The page's passkey script asks the server on load; on SQLite the live server shares one
    # connection between its threads, so leave only once that request is answered.
    page.wait_for_load_state("networkidle")
    page.goto("/admin/vendors/vendor/")  # still closed: back to the second step
    expect(page.get_by_role("heading", name="Second step: confirm it is you")).to_be_visible()
    page.get_by_role("button", name="Use my passkey").click()
    expect(page).to_have_url(re.compile(r"/admin/vendors/vendor/$"))
    watcher.assert_clean()


def test_enrol_an_authenticator_app_then_sign_in_with_its_code(open_page):
    from django_otp.oath import TOTP
    from django_otp.plugins.otp_totp.models import TOTPDevice

    def code(device, at):
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        totp.time = at
        return f"{totp.token():06d}"

    user = new_staff("hopper")
    page, watcher = open_page(viewport={"width": 1280, "height": 900})
    password_step(page, "hopper")
    expect(page.get_by_role("heading", name="Set up your second step")).to_be_visible()
    qr = page.get_by_role("img", name="QR code for your authenticator app")
    assert qr.get_attribute("src").startswith("data:image/svg+xml")
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    first = code(device, time.time())
    page.get_by_role("textbox", name="Code").fill(first)
    page.get_by_role("button", name="Confirm the app").click()
    keep_recovery_codes(page)

    sign_out(page)
    password_step(page, "hopper")
    expect(page.get_by_role("heading", name="Second step: confirm it is you")).to_be_visible()
    device.refresh_from_db()
    # The code already used is refused; the app's next one (within the one-step tolerance) opens.
    page.get_by_role("textbox", name="Code").fill(first)
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_text("That code has been used already")).to_be_visible()
    # django-otp pauses the device a second after one failure: that second has passed for it,
    # rather than the test sleeping through it.
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_timestamp=timezone.now() - dt.timedelta(seconds=2)
    )
    page.get_by_role("textbox", name="Code").fill(code(device, time.time() + device.step))
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name=HOME)).to_be_visible()
    watcher.assert_clean()


def test_over_http_at_a_name_the_passkey_section_says_why_it_cannot_work(browser, live_server, settings):
    """http://localhost is a secure context and passkeys work there (above); http at any other
    name is not, and the page says so where the button would be. Chromium is told that the name
    chips.test is this machine, so the live server is reached over plain http by a name."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "chips.test"]
    new_staff("turing")
    port = live_server.url.rsplit(":", 1)[1]
    named = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP chips.test 127.0.0.1"],
    )
    try:
        page = named.new_page(base_url=f"http://chips.test:{port}")
        password_step(page, "turing")
        expect(page.get_by_role("heading", name="Set up your second step")).to_be_visible()
        assert page.evaluate("window.isSecureContext") is False
        reason = page.get_by_text("Passkeys need a secure address (https); this site is served over http.")
        expect(reason).to_be_visible()
        expect(page.get_by_role("button", name="Add a passkey")).to_have_count(0)
        expect(page.get_by_role("button", name="Confirm the app")).to_be_visible()
    finally:
        named.close()
