"""A password may not contain its user's username or the e-mail address before its @."""

import pytest
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("password", ["pub1pub1pub1", "PUB1pub1pub1", "my-Pub1-is-long-enough"])
def test_a_password_containing_the_username_is_refused_in_any_case(password):
    user = User(username="pub1", email="someone@example.com")

    with pytest.raises(ValidationError, match="contains the username"):
        password_validation.validate_password(password, user=user)


def test_a_password_containing_the_email_before_its_at_is_refused():
    user = User(username="jd", email="Jane.Doe@example.com")

    with pytest.raises(ValidationError, match="contains the e-mail address before its @"):
        password_validation.validate_password("winter jane.doe 2026!", user=user)


def test_a_name_of_two_letters_is_not_looked_for():
    user = User(username="al", email="al@example.com")

    password_validation.validate_password("always a portal 2026!", user=user)


def test_the_admin_refuses_a_password_containing_the_username(admin_client):
    response = admin_client.post(
        "/admin/auth/user/add/",
        {
            "username": "pub1",
            "usable_password": "true",
            "password1": "pub1pub1pub1",
            "password2": "pub1pub1pub1",
        },
    )

    assert response.status_code == 200
    assert "This password contains the username; choose one that does not." in response.content.decode()
    assert not User.objects.filter(username="pub1").exists()


def test_the_admin_refuses_a_new_password_containing_the_username(admin_client):
    editor = User.objects.create_user(username="editor7", password="a long and correct password")
    response = admin_client.post(
        f"/admin/auth/user/{editor.pk}/password/",
        {"usable_password": "true", "password1": "EDITOR7editor7", "password2": "EDITOR7editor7"},
    )

    assert response.status_code == 200
    assert "This password contains the username; choose one that does not." in response.content.decode()
    editor.refresh_from_db()
    assert editor.check_password("a long and correct password")
