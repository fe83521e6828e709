"""Odd query values in the admin, as an Editor would send them by hand or by mistake: every
changelist, add and change page and the autocomplete answer 400 or a page, never a 500."""

import pytest
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import make_staff_user
from vendors.demo import load_demo

pytestmark = pytest.mark.django_db

ODD_VALUES = ["\x00", "a\x00b", "", "abc", "-1", "0", "1e9", "99999999999999999999", "'", "%", "[]", "1,abc"]
PARAMETERS = [
    "q", "o", "p", "e", "all", "_to_field", "_popup", "_changelist_filters", "lane", "lane__id__exact",
    "vendor", "vendor__id__exact", "attribute", "axis", "state", "is_active__exact", "stale", "id__in",
    "title__startswith", "publisher", "position",
]  # fmt: skip


# The same examples on every run (CI must not pass or fail by chance), no example database
# written beside the code; runs with a random seed found the two 500s pinned above.
FUZZ = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture],
}


@pytest.fixture
def admin_urls(editor):
    """Every registered model's changelist and add page, and the change page of its first row."""
    urls = []
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls += [reverse(f"{name}_changelist"), reverse(f"{name}_add")]
        if (obj := model._default_manager.first()) is not None:
            urls.append(reverse(f"{name}_change", args=[obj.pk]))
    return urls


@pytest.fixture
def editor():
    load_demo()
    client = Client(raise_request_exception=False)
    client.force_login(make_staff_user(group="Editor", username="fuzzing-editor"))
    return client


def test_the_reported_odd_values_are_refused_with_400(editor):
    for url, query in [
        ("/admin/vendors/vendor/", {"q": "\x00"}),
        ("/admin/vendors/vendor/", {"state": "\x00"}),
        ("/admin/vendors/vendor/add/", {"lane": "abc"}),
        ("/admin/vendors/lane/1/change/", {"_to_field": ""}),  # found by the fuzzing below
        (
            "/admin/autocomplete/",
            {"term": "\x00", "app_label": "vendors", "model_name": "vendor", "field_name": "lane"},
        ),
    ]:
        response = editor.get(url, query)
        assert response.status_code == 400, (url, query)


def test_a_number_too_large_for_the_database_is_never_a_500(editor):
    """Found by the fuzzing below. SQLite cannot bind it: the admin answers 400 and says why.
    PostgreSQL compares it as a numeric: the list is shown, with no vendor in that lane."""
    response = editor.get("/admin/vendors/vendor/", {"lane": "99999999999999999999"})
    if connection.vendor == "postgresql":
        assert response.status_code == 200
        assert list(response.context["cl"].result_list) == []
    else:
        assert response.status_code == 400
        assert response.content == b"A value in the address is out of range for its field.\n"


def test_an_add_form_prefilled_with_a_real_lane_still_opens(editor):
    from vendors.models import Lane

    lane = Lane.objects.first()
    response = editor.get("/admin/vendors/vendor/add/", {"lane": lane.pk})
    assert response.status_code == 200
    assert f'<option value="{lane.pk}" selected>' in response.content.decode()


@settings(max_examples=200, **FUZZ)
@given(data=st.data())
def test_no_admin_page_answers_500_to_odd_query_values(editor, admin_urls, data):
    url = data.draw(st.sampled_from(admin_urls), label="url")
    query = data.draw(
        st.dictionaries(
            st.sampled_from(PARAMETERS),
            st.one_of(st.sampled_from(ODD_VALUES), st.text(max_size=12)),
            min_size=1,
            max_size=3,
        ),
        label="query",
    )
    response = editor.get(url, query)
    assert response.status_code < 500, (url, query, response.status_code)


@settings(max_examples=80, **FUZZ)
@given(
    model=st.sampled_from(
        [("vendors", "vendor", "lane"), ("vendors", "fact", "attribute"), ("vendors", "fact", "vendor")]
    ),
    term=st.one_of(st.sampled_from(ODD_VALUES), st.text(max_size=20)),
)
def test_the_autocomplete_never_answers_500(editor, model, term):
    app_label, model_name, field_name = model
    query = {"term": term, "app_label": app_label, "model_name": model_name, "field_name": field_name}
    assert editor.get("/admin/autocomplete/", query).status_code < 500
