"""Staff sessions end 12 hours after sign-in however active, or after 30 minutes idle; passwords
have at least 12 characters."""

import io

import pytest
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client

from infra import sessions
from vendors.management.commands.demo_superuser import DEMO_USERS
from vendors.management.commands.demo_superuser import PASSWORD as DEMO_PASSWORD

pytestmark = pytest.mark.django_db

PASSWORD = "a long and correct password"
MINUTE, HOUR = 60, 3600


class Clock:
    """The sessions' clock, moved by hand."""

    def __init__(self, monkeypatch):
        self.at = sessions.now()
        monkeypatch.setattr(sessions, "now", lambda: self.at)

    def advance(self, seconds):
        self.at += seconds


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


@pytest.fixture
def editor():
    return User.objects.create_user("editor", password=PASSWORD, is_staff=True)


def sign_in(client):
    response = client.post("/admin/login/", {"username": "editor", "password": PASSWORD, "next": "/admin/"})
    assert response.status_code == 302 and signed_in(client)
    return response


def signed_in(client):
    return "_auth_user_id" in client.session


def test_the_session_cookie_lives_12_hours_at_most(editor, clock):
    client = Client()
    response = sign_in(client)
    assert 0 < int(response.cookies["sessionid"]["max-age"]) <= 12 * HOUR
    assert client.session.get_expiry_age() <= 12 * HOUR


def test_a_session_idle_for_31_minutes_is_signed_out(editor, clock):
    client = Client()
    sign_in(client)
    clock.advance(29 * MINUTE)
    client.get("/admin/")
    assert signed_in(client)

    clock.advance(31 * MINUTE)
    response = client.get("/admin/vendors/vendor/")

    assert not signed_in(client)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_an_active_session_still_ends_12_hours_after_sign_in(editor, clock):
    client = Client()
    sign_in(client)
    for _ in range(12 * 3 - 1):  # a request every 20 minutes, never idle, for 11 h 40 min
        clock.advance(20 * MINUTE)
        client.get("/admin/")
        assert signed_in(client)

    clock.advance(20 * MINUTE)
    response = client.get("/admin/vendors/vendor/")

    assert not signed_in(client)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_signing_in_again_starts_a_new_12_hours(editor, clock):
    client = Client()
    sign_in(client)
    clock.advance(12 * HOUR)
    client.get("/admin/")
    assert not signed_in(client)

    sign_in(client)
    clock.advance(MINUTE)
    client.get("/admin/")
    assert signed_in(client)


def test_a_session_from_before_the_limits_is_ended(editor, clock):
    """Its sign-in time is unknown, so how old it is cannot be told."""
    client = Client()
    sign_in(client)
    session = client.session
    del session[sessions.SIGNED_IN_AT]
    session.save()

    client.get("/admin/")

    assert not signed_in(client)


def test_activity_is_written_to_the_session_at_most_once_a_minute(editor, clock):
    client = Client()
    sign_in(client)
    signed_in_at = client.session[sessions.LAST_SEEN_AT]
    clock.advance(30)
    client.get("/admin/")
    assert client.session[sessions.LAST_SEEN_AT] == signed_in_at
    clock.advance(40)
    client.get("/admin/")
    assert client.session[sessions.LAST_SEEN_AT] == signed_in_at + 70


def test_an_11_character_password_is_refused_and_12_are_enough(editor):
    with pytest.raises(ValidationError, match="at least 12 characters"):
        password_validation.validate_password("Kq7#mz9!vb2", user=editor)
    password_validation.validate_password("Kq7#mz9!vb2x", user=editor)


def test_the_admin_refuses_an_11_character_password(client, superuser):
    client.force_login(superuser)
    response = client.post(
        "/admin/auth/user/add/",
        {
            "username": "newcomer",
            "usable_password": "true",
            "password1": "Kq7#mz9!vb2",
            "password2": "Kq7#mz9!vb2",
        },
    )
    assert response.status_code == 200
    assert "at least 12 characters" in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_common_and_similar_passwords_are_still_refused(editor):
    with pytest.raises(ValidationError, match="too common"):
        password_validation.validate_password("1qaz2wsx3edc", user=editor)
    publisher = User(username="publisher", email="publisher@example.com")
    with pytest.raises(ValidationError, match="too similar"):
        password_validation.validate_password("publisher123", user=publisher)


@pytest.mark.parametrize("username", list(DEMO_USERS))
def test_the_demo_password_passes_the_rules(username):
    user = User(username=username, email=f"{username}@example.com")
    password_validation.validate_password(DEMO_PASSWORD, user=user)


def test_each_demo_login_signs_in_to_the_admin_in_its_group(settings, client):
    settings.DEBUG = True
    settings.STAFF_SECOND_FACTOR = "optional"
    call_command("demo_superuser", stdout=io.StringIO())
    for username, (group, superuser) in DEMO_USERS.items():
        user = User.objects.get(username=username)
        assert user.is_staff and user.is_superuser == superuser
        assert list(user.groups.values_list("name", flat=True)) == ([group] if group else [])
        form = {"username": username, "password": DEMO_PASSWORD, "next": "/admin/"}
        response = client.post("/admin/login/", form, follow=True)
        assert response.redirect_chain[-1][0] == "/admin/", username
        assert response.status_code == 200
        client.logout()
