"""Sign-in throttling: five failures pause sign-in for one username at one address, and many
failures from one address pause it for every username there; the pause says when it ends, in
words and in Retry-After, alike for known and unknown users; a success forgets the pair's
failures; a superuser sees the pauses and lifts them; every attempt is logged."""

import datetime as dt
import logging
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from django.utils.formats import date_format
from django.utils.timezone import localtime

from infra.models import SecurityEvent

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
PASSWORD = "a long and correct password"
HERE = "203.0.113.7"


@pytest.fixture
def editor():
    return User.objects.create_user("editor", password=PASSWORD, is_staff=True)


@pytest.fixture
def publisher():
    return User.objects.create_user("publisher", password=PASSWORD, is_staff=True)


def sign_in(username, password, *, address=HERE, **headers):
    client = Client(REMOTE_ADDR=address)
    response = client.post(
        LOGIN, {"username": username, "password": password, "next": "/admin/"}, headers=headers
    )
    return client, response


def signed_in(client):
    return "_auth_user_id" in client.session


def fail(times, username, *, address=HERE):
    """Sign in with a wrong password ``times`` times; the status codes answered."""
    return [sign_in(username, "wrong", address=address)[1].status_code for _ in range(times)]


def test_after_five_failures_even_the_right_password_is_refused_for_a_while(editor):
    assert fail(5, "editor") == [200, 200, 200, 200, 429]  # the form with its error, then the pause
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 429
    assert "Sign-in paused" in response.content.decode()
    assert "in 15 minutes" in response.content.decode()
    assert not signed_in(client)


def test_the_pause_says_when_to_try_again_in_retry_after_and_in_words(editor):
    fail(5, "editor")
    _, response = sign_in("editor", PASSWORD)
    assert 14 * 60 < int(response["Retry-After"]) <= 15 * 60
    # The refused attempt counts too, so the pause runs from it.
    until = AccessAttempt.objects.get(username="editor").attempt_time + dt.timedelta(minutes=15)
    words = message(response)
    assert f"paused until {date_format(localtime(until), 'DATETIME_FORMAT')} (in 15 minutes)" in words
    assert "failed for this username from your address" in words  # not the whole address
    assert "chipsite editorial admin" in response.content.decode()  # inside the admin's own frame
    assert "no-store" in response["Cache-Control"]


def test_four_failures_then_the_right_password_signs_in(editor):
    fail(4, "editor")
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_a_success_forgets_the_failures_of_that_username_at_that_address(editor):
    fail(4, "editor")
    sign_in("editor", PASSWORD)
    assert not AccessAttempt.objects.filter(username="editor").exists()
    assert fail(4, "editor") == [200, 200, 200, 200]  # counted afresh: not paused at the fifth
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_an_unknown_username_gets_the_same_answer_as_a_known_one(editor):
    fail(5, "editor", address="203.0.113.1")
    fail(5, "nobody", address="203.0.113.2")
    _, known = sign_in("editor", "wrong", address="203.0.113.1")
    _, unknown = sign_in("nobody", "wrong", address="203.0.113.2")
    assert known.status_code == unknown.status_code == 429
    # The same words; the clock time each pause ends may differ by the minute the two fell in.
    assert clockless(message(known)) == clockless(message(unknown))
    assert "Sign-in paused" in message(known)


def clockless(text):
    return re.sub(r"\b\d{1,2}:\d{2}\b", "HH:MM", text)


def message(response):
    """The page's words, without the tokens that differ on every response."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index("<main") :])).strip()


def test_guesses_from_one_address_do_not_pause_the_same_username_elsewhere(editor):
    fail(5, "editor", address="198.51.100.1")
    assert sign_in("editor", PASSWORD, address="198.51.100.1")[1].status_code == 429
    client, response = sign_in("editor", PASSWORD, address="192.0.2.10")  # the office
    assert response.status_code == 302 and signed_in(client)


def test_guesses_at_one_username_do_not_pause_a_colleague_at_the_same_address(editor, publisher):
    fail(5, "editor")
    client, response = sign_in("publisher", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_a_newsroom_behind_one_address_may_mistype_many_times(editor, settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 50
    for n in range(49):  # 49 colleagues mistype once each
        fail(1, f"colleague{n}")
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_an_address_trying_many_usernames_is_paused_for_every_username(editor):
    statuses = []
    for n in range(25):  # two guesses each: no username reaches its own five
        statuses += fail(2, f"guess{n}")
    assert statuses[:49] == [200] * 49 and statuses[49] == 429
    _, response = sign_in("editor", PASSWORD)
    assert response.status_code == 429
    assert 14 * 60 < int(response["Retry-After"]) <= 15 * 60
    assert "failed from your address, for several usernames" in message(response)
    client, response = sign_in("editor", PASSWORD, address="192.0.2.51")
    assert response.status_code == 302 and signed_in(client)


def test_a_new_forwarded_address_on_every_guess_does_not_escape_the_pause(editor):
    """No proxy is trusted by default: X-Forwarded-For is the client's word and is ignored."""
    for n in range(5):
        sign_in("editor", "wrong", X_Forwarded_For=f"10.9.8.{n}")
    _, response = sign_in("editor", PASSWORD, X_Forwarded_For="10.9.8.200")
    assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {HERE}


def test_behind_a_trusted_proxy_the_forwarded_client_is_paused_not_the_proxy(editor, publisher, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    for _ in range(5):
        sign_in("editor", "wrong", address="127.0.0.1", X_Forwarded_For=f"6.6.6.6, {HERE}")
    assert AccessAttempt.objects.get().ip_address == HERE
    _, response = sign_in("editor", PASSWORD, address="127.0.0.1", X_Forwarded_For=HERE)
    assert response.status_code == 429
    client, response = sign_in("editor", PASSWORD, address="127.0.0.1", X_Forwarded_For="192.0.2.10")
    assert response.status_code == 302 and signed_in(client)


def test_a_superuser_sees_the_pause_and_lifts_it(editor, admin_client):
    fail(5, "editor")
    page = admin_client.get("/admin/axes/accessattempt/")
    assert page.status_code == 200 and "editor" in page.content.decode()
    attempts = page.context["cl"].result_list
    assert "Lift the sign-in pause" in page.content.decode()
    answer = admin_client.post(
        "/admin/axes/accessattempt/",
        {"action": "lift_pause", "_selected_action": [a.pk for a in attempts]},
        follow=True,
    )
    assert "Forgot 1 row of failed sign-ins." in answer.content.decode()
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 302 and signed_in(client)
    lifted = SecurityEvent.objects.get(kind=SecurityEvent.Kind.LOCKOUT_CLEARED)
    assert lifted.username == "editor" and lifted.actor is not None and lifted.actor.is_superuser


def test_an_editor_cannot_see_or_lift_pauses(editor):
    client, _ = sign_in("editor", PASSWORD)
    assert client.get("/admin/axes/accessattempt/").status_code == 403


def test_every_staff_sign_in_and_failure_is_logged_with_its_address(editor, caplog):
    caplog.set_level(logging.INFO, logger="infra.auth")
    fail(1, "editor")
    sign_in("editor", PASSWORD)
    lines = [record.getMessage() for record in caplog.records if record.name == "infra.auth"]
    assert lines == [f"Failed sign-in: 'editor' from {HERE}", f"Signed in: 'editor' from {HERE}"]
