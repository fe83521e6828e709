"""The security events log: sign-ins, failures, pauses, role changes and second-factor changes,
each with who, when and from where; superusers read it in the admin, nobody edits it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from infra.models import SecurityEvent
from infra.security import record_security_event
from tests.factories import make_staff_user, role_group

pytestmark = pytest.mark.django_db

Kind = SecurityEvent.Kind
LOGIN = "/admin/login/"
PASSWORD = "a long and correct password"
HERE = "203.0.113.7"


@pytest.fixture
def editor():
    return User.objects.create_user("editor", password=PASSWORD, is_staff=True)


def sign_in(username, password, *, address=HERE, **headers):
    client = Client(REMOTE_ADDR=address)
    client.post(LOGIN, {"username": username, "password": password}, headers=headers)
    return client


def events(*kinds):
    return list(SecurityEvent.objects.filter(kind__in=kinds).order_by("pk"))


def test_a_sign_in_and_a_failure_are_recorded_with_the_address_not_a_forged_one(editor):
    sign_in("editor", "wrong", X_Forwarded_For="10.1.1.1")
    sign_in("editor", PASSWORD)
    failed, signed = events(Kind.SIGN_IN_FAILED, Kind.SIGN_IN)
    assert (failed.kind, failed.username, failed.user, failed.ip_address) == (
        Kind.SIGN_IN_FAILED,
        "editor",
        None,
        HERE,
    )
    assert (signed.kind, signed.user, signed.ip_address) == (Kind.SIGN_IN, editor, HERE)


def test_a_pause_is_recorded_once_when_it_starts_and_refused_attempts_say_so(editor):
    for _ in range(7):
        sign_in("editor", "wrong")
    [paused] = events(Kind.LOCKED_OUT)
    assert (paused.username, paused.ip_address) == ("editor", HERE)
    failures = events(Kind.SIGN_IN_FAILED)
    assert [bool(event.detail) for event in failures] == [False] * 5 + [True] * 2
    assert "paused" in failures[-1].detail


def test_a_pause_of_an_address_is_recorded(settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    for name in ("a", "b", "c"):
        sign_in(name, "wrong")
    [paused] = events(Kind.LOCKED_OUT)
    assert paused.ip_address == HERE and "address" in paused.detail


def test_a_role_change_in_the_admin_names_who_made_it_and_from_where(admin_client, superuser):
    editor = make_staff_user(group="Editor", username="editor")
    SecurityEvent.objects.all().delete()
    admin_client.defaults["REMOTE_ADDR"] = "192.0.2.44"
    response = admin_client.post(
        f"/admin/auth/user/{editor.pk}/change/",
        {
            "username": "editor",
            "email": editor.email,
            "is_active": "on",
            "is_staff": "on",
            "groups": [role_group("Publisher").pk],
            "date_joined_0": "2026-12-01",
            "date_joined_1": "09:00:00",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    details = {event.detail for event in events(Kind.ROLE_CHANGED)}
    assert details == {"Added to Publisher.", "Removed from Editor."}
    for event in events(Kind.ROLE_CHANGED):
        assert (event.user, event.actor, event.ip_address) == (editor, superuser, "192.0.2.44")


def test_staff_and_superuser_changes_are_recorded_even_outside_a_request(editor):
    editor.is_superuser = True
    editor.save()
    editor.is_staff = False
    editor.save()
    editor.save(update_fields=["last_login"])  # every sign-in does this: no event
    assert [e.detail for e in events(Kind.ROLE_CHANGED)] == [
        "New account: staff.",
        "Now superuser.",
        "No longer staff.",
    ]
    assert all(e.ip_address is None and e.actor is None for e in events(Kind.ROLE_CHANGED))


def test_the_two_factor_sign_in_records_its_changes_through_one_function(editor, rf):
    request = rf.post("/", REMOTE_ADDR=HERE)
    request.user = editor
    event = record_security_event(
        kind="second_factor_added", user=editor, request=request, detail="Authenticator app"
    )
    assert (event.username, event.ip_address, event.actor, event.get_kind_display()) == (
        "editor",
        HERE,
        None,  # the editor did it to themselves
        "Second factor added",
    )
    with pytest.raises(ValueError):
        record_security_event(kind="something_else", user=editor)


def test_a_superuser_reads_the_log_newest_first_filtered_by_kind(admin_client, editor):
    sign_in("editor", "wrong")
    sign_in("editor", PASSWORD)
    page = admin_client.get("/admin/infra/securityevent/")
    assert page.status_code == 200
    shown = list(page.context["cl"].result_list)
    assert [e.kind for e in shown[:2]] == [Kind.SIGN_IN, Kind.SIGN_IN_FAILED]
    failed = admin_client.get("/admin/infra/securityevent/", {"kind__exact": Kind.SIGN_IN_FAILED})
    assert [e.kind for e in failed.context["cl"].result_list] == [Kind.SIGN_IN_FAILED]
    assert HERE in failed.content.decode()


def test_nobody_edits_or_deletes_the_log_in_the_admin(admin_client, editor):
    sign_in("editor", PASSWORD)
    event = SecurityEvent.objects.get(kind=Kind.SIGN_IN, username="editor")
    page = admin_client.get(f"/admin/infra/securityevent/{event.pk}/change/")
    assert page.status_code == 200 and not page.context["has_change_permission"]
    assert (
        admin_client.post(f"/admin/infra/securityevent/{event.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert admin_client.get("/admin/infra/securityevent/add/").status_code == 403
    assert SecurityEvent.objects.filter(pk=event.pk).exists()


def test_staff_who_are_not_superusers_cannot_read_the_log(editor):
    client = Client()
    client.force_login(make_staff_user(group="Publisher"))
    assert client.get("/admin/infra/securityevent/").status_code == 403
