"""Sign-in throttling: five failures pause sign-in for a username or an address, alike for
known and unknown users; a superuser sees the lock and lifts it; every attempt is logged."""

import logging
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
PASSWORD = "a long and correct password"


@pytest.fixture
def editor():
    return User.objects.create_user("editor", password=PASSWORD, is_staff=True)


def sign_in(username, password, *, address="203.0.113.7"):
    client = Client(REMOTE_ADDR=address)
    response = client.post(LOGIN, {"username": username, "password": password, "next": "/admin/"})
    return client, response


def signed_in(client):
    return "_auth_user_id" in client.session


def fail(times, username, *, address="203.0.113.7"):
    """Sign in with a wrong password ``times`` times; the status codes answered."""
    return [sign_in(username, "wrong", address=address)[1].status_code for _ in range(times)]


def test_after_five_failures_even_the_right_password_is_refused_for_a_while(editor):
    assert fail(5, "editor") == [200, 200, 200, 200, 429]  # the form with its error, then the pause
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 429
    assert "Sign-in paused" in response.content.decode()
    assert "15 minutes" in response.content.decode()
    assert not signed_in(client)


def test_four_failures_then_the_right_password_signs_in(editor):
    fail(4, "editor")
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_an_unknown_username_gets_the_same_answer_as_a_known_one(editor):
    fail(5, "editor", address="203.0.113.1")
    fail(5, "nobody", address="203.0.113.2")
    _, known = sign_in("editor", "wrong", address="203.0.113.1")
    _, unknown = sign_in("nobody", "wrong", address="203.0.113.2")
    assert known.status_code == unknown.status_code == 429
    assert message(known) == message(unknown)
    assert "Sign-in paused" in message(known)


def message(response):
    """The page's words, without the tokens that differ on every response."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index("<main") :])).strip()


def test_a_username_is_locked_whatever_address_the_guesses_come_from(editor):
    for n in range(5):
        fail(1, "editor", address=f"198.51.100.{n + 1}")
    _, response = sign_in("editor", PASSWORD, address="198.51.100.99")
    assert response.status_code == 429


def test_an_address_is_locked_whatever_usernames_it_tries(editor):
    for n in range(5):
        fail(1, f"guess{n}", address="192.0.2.50")
    _, response = sign_in("editor", PASSWORD, address="192.0.2.50")
    assert response.status_code == 429
    client, response = sign_in("editor", PASSWORD, address="192.0.2.51")
    assert response.status_code == 302 and signed_in(client)


def test_a_superuser_sees_the_lock_and_lifts_it(editor, admin_client):
    fail(5, "editor")
    page = admin_client.get("/admin/axes/accessattempt/")
    assert page.status_code == 200 and "editor" in page.content.decode()
    attempts = page.context["cl"].result_list
    admin_client.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [a.pk for a in attempts], "post": "yes"},
    )
    client, response = sign_in("editor", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_an_editor_cannot_see_or_lift_locks(editor):
    client, _ = sign_in("editor", PASSWORD)
    assert client.get("/admin/axes/accessattempt/").status_code == 403


def test_every_staff_sign_in_and_failure_is_logged_with_its_address(editor, caplog):
    caplog.set_level(logging.INFO, logger="infra.auth")
    fail(1, "editor")
    sign_in("editor", PASSWORD)
    lines = [record.getMessage() for record in caplog.records if record.name == "infra.auth"]
    assert lines == ["Failed sign-in: 'editor' from 203.0.113.7", "Signed in: 'editor' from 203.0.113.7"]
