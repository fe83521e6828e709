"""The change page's “Add a new source” dialog, through its JSON endpoint, and a pasted URL
finding its source in the sources autocomplete."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from claims.models import Source
from tests import factories as f

pytestmark = pytest.mark.django_db

QUICK_ADD = "/admin/claims/source/quick-add/"
NEW = {
    "title": "AWS Trainium3 announcement",
    "publisher": "AWS",
    "url": "https://aws.amazon.com/ai/machine-learning/trainium/",
    "accessed_on": "2026-11-28",
}


@pytest.fixture
def editor_client():
    client = Client()
    client.force_login(f.make_staff_user(group="Editor"))
    return client


def test_a_new_source_is_created_and_named_for_the_row(editor_client):
    response = editor_client.post(QUICK_ADD, NEW)

    assert response.status_code == 201
    source = Source.objects.get(url=NEW["url"])
    assert (source.title, source.publisher, str(source.accessed_on)) == (
        "AWS Trainium3 announcement",
        "AWS",
        "2026-11-28",
    )
    assert response.json() == {
        "source": {
            "id": str(source.pk),
            "text": source.title,
            "url": source.url,
            "quote": "",
            "support": "full",
        }
    }


def test_a_source_without_title_or_with_a_bad_url_is_refused_with_each_fields_message(editor_client):
    response = editor_client.post(QUICK_ADD, {**NEW, "title": "", "url": "ftp://example.com/x"})

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors["title"] == ["This field is required."]
    assert errors["url"] and "valid URL" in errors["url"][0]
    assert not Source.objects.exists()


def test_an_unreadable_date_is_refused_not_a_500(editor_client):
    response = editor_client.post(QUICK_ADD, {**NEW, "accessed_on": "yesterday"})

    assert response.status_code == 400
    assert response.json()["errors"]["accessed_on"] == ["Enter a valid date."]


def test_a_url_already_a_source_is_offered_instead_of_a_duplicate(editor_client):
    known = f.make_source(url="https://aws.amazon.com/ai/machine-learning/trainium")

    response = editor_client.post(
        QUICK_ADD, {**NEW, "url": "HTTPS://AWS.Amazon.com/ai/machine-learning/trainium/"}
    )

    assert response.status_code == 409
    assert response.json()["exists"]["id"] == str(known.pk)
    assert Source.objects.count() == 1


def test_typing_a_url_in_the_dialog_names_the_source_it_already_is(editor_client):
    known = f.make_source(url="https://example.com/whitepaper")

    found = editor_client.get(QUICK_ADD, {"url": "https://EXAMPLE.com/whitepaper/"}).json()
    missing = editor_client.get(QUICK_ADD, {"url": "https://example.com/whitepaper/v2"}).json()

    assert found == {"source": {"id": str(known.pk), "text": known.title, "url": known.url}}
    assert missing == {"source": None}


def test_an_editor_without_the_add_permission_cannot_add_a_source():
    user = f.make_staff_user(group="Editor")
    user.groups.clear()
    user.user_permissions.add(Permission.objects.get(codename="view_source"))
    client = Client()
    client.force_login(user)

    response = client.post(QUICK_ADD, NEW)

    assert response.status_code == 403
    assert response.json() == {"error": "You may not add sources."}
    assert not Source.objects.exists()


def test_a_post_without_the_csrf_token_is_refused():
    client = Client(enforce_csrf_checks=True)
    client.force_login(f.make_staff_user(group="Editor"))

    response = client.post(QUICK_ADD, NEW)

    assert response.status_code == 403
    assert not Source.objects.exists()


def test_a_post_with_the_pages_csrf_token_is_accepted():
    client = Client(enforce_csrf_checks=True)
    client.force_login(f.make_staff_user(group="Editor"))
    page = client.get("/admin/vendors/vendor/add/")
    token = page.context["csrf_token"]

    response = client.post(QUICK_ADD, {**NEW, "csrfmiddlewaretoken": str(token)})

    assert response.status_code == 201
    assert b'id="source-dialog"' in page.content  # the dialog is on the page


def test_a_pasted_url_finds_its_source_in_the_sources_autocomplete(editor_client):
    known = f.make_source(
        title="Trainium docs", url="https://awsdocs-neuron.readthedocs-hosted.com/en/latest"
    )
    f.make_source(title="Something else", url="https://example.com/latest/")

    response = editor_client.get(
        "/admin/autocomplete/",
        {
            "term": "https://AWSDOCS-neuron.readthedocs-hosted.com/en/latest/",
            "app_label": "vendors",
            "model_name": "fact",
            "field_name": "sources",
        },
    )

    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == [known.title]
