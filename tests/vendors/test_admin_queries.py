"""The admin in a bounded number of queries, however long a profile or a catalogue is."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories as f
from vendors.models import Vendor

pytestmark = pytest.mark.django_db


def queries(client, url, data=None):
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, data) if data is not None else client.get(url)
    assert response.status_code in (200, 302), response.status_code
    return len(captured), response


SPEC_KINDS = [
    {"kind": "memory", "unit": "GB"},
    {"kind": "bandwidth", "unit": "TB/s", "quantity": "4.9"},
    {"kind": "compute", "unit": "PFLOPS", "precision": "FP8", "quantity": "2.52"},
]


def long_profile(*, facts, events, faqs, axes, attributes, sources, specs=0):
    vendor = f.make_vendor()
    for n in range(specs):
        f.make_spec(
            vendor=vendor,
            chip=f"{vendor.name} Chip {n // 3}",
            sources=sources[n % 4 : n % 4 + 2],
            **SPEC_KINDS[n % 3],
        )
    for n in range(facts):
        f.make_fact(
            vendor=vendor, attribute=attributes[n % len(attributes)], sources=sources[n % 5 : n % 5 + 2]
        )
    for n in range(events):
        f.make_event(vendor=vendor, sources=sources[n % 7 : n % 7 + 1])
    for n in range(faqs):
        f.make_faq(vendor=vendor, question=f"Question {n}?", sources=sources[n % 3 : n % 3 + 1])
    for axis in axes:
        f.make_score(vendor=vendor, axis=axis, sources=sources[:1])
    return vendor


@pytest.fixture
def vocabulary():
    return {
        "axes": [f.make_axis() for _ in range(5)],
        "attributes": [f.make_attribute() for _ in range(12)],
        "sources": [f.make_source() for _ in range(10)],
    }


def test_a_profile_with_100_facts_30_events_50_faqs_and_60_specs_opens_in_as_many_queries_as_a_short_one(
    admin_client, vocabulary
):
    short = long_profile(facts=5, events=2, faqs=2, specs=3, **vocabulary)
    long = long_profile(facts=100, events=30, faqs=50, specs=60, **vocabulary)
    short_count, _ = queries(admin_client, f.admin_change_url(short))
    long_count, response = queries(admin_client, f.admin_change_url(long))
    assert long_count == short_count
    assert long_count <= 40
    assert response.content.decode().count('name="facts-') > 100 * 5  # every row is on the page
    assert response.content.decode().count('name="specs-') > 60 * 10


def test_a_long_profile_can_be_saved_at_all(admin_client, vocabulary):
    """180 rows post some 1,300 fields: more than Django's default limit of 1,000, which
    answered 400 and lost the editor's save."""
    long = long_profile(facts=100, events=30, faqs=50, **vocabulary)
    rows, initial = f.admin_rows_on_page(admin_client.get(f.admin_change_url(long)))
    rows["facts"][99]["value"] = "The hundredth fact, edited"
    data = f.vendor_admin_post(long, rows=rows, initial=initial)
    assert len(data) > 1000
    _, response = queries(admin_client, f.admin_change_url(long), data)
    assert response.status_code == 302
    assert long.facts.filter(value="The hundredth fact, edited").count() == 1
    assert long.facts.count() == 100


def saving_one_edited_fact(client, vendor):
    rows, initial = f.admin_rows_on_page(client.get(f.admin_change_url(vendor)))
    rows["facts"][-1]["value"] = "The last fact, edited"
    count, response = queries(
        client, f.admin_change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial)
    )
    assert response.status_code == 302
    assert vendor.facts.filter(value="The last fact, edited").count() == 1
    return count


def test_a_long_profile_saves_in_as_many_queries_as_a_short_one(admin_client, vocabulary):
    """Validation, the revision and the save read each kind of row once, not once per row."""
    warm = long_profile(facts=1, events=1, faqs=1, specs=1, **vocabulary)
    saving_one_edited_fact(admin_client, warm)  # warms the content-type cache the revision reads
    short = long_profile(facts=5, events=2, faqs=2, specs=3, **vocabulary)
    long = long_profile(facts=100, events=30, faqs=50, specs=60, **vocabulary)
    short_count = saving_one_edited_fact(admin_client, short)
    long_count = saving_one_edited_fact(admin_client, long)
    assert long_count == short_count
    # 127 when written: the chips' rows (specs, dates, prices, results), citations and revision
    assert long_count <= 130


def test_the_vendor_changelist_of_a_large_catalogue_takes_under_30_queries(admin_client):
    lanes = [f.make_lane() for _ in range(4)]
    f.make_published_vendors(20, lanes=lanes)
    small, _ = queries(admin_client, "/admin/vendors/vendor/")
    f.make_published_vendors(1000, lanes=lanes)
    large, response = queries(admin_client, "/admin/vendors/vendor/")
    assert Vendor.objects.count() == 1020
    assert large == small and large < 30
    assert "1020 vendors" in response.content.decode()


def test_a_sources_page_takes_the_same_queries_with_3_or_60_citations(admin_client, vocabulary):
    source = f.make_source(title="A well-cited datasheet")
    vendor = f.make_vendor()
    for _ in range(3):
        f.make_fact(vendor=vendor, attribute=vocabulary["attributes"][0], sources=[source])
    queries(admin_client, f"/admin/claims/source/{source.pk}/change/")  # warms the content-type cache
    few, _ = queries(admin_client, f"/admin/claims/source/{source.pk}/change/")
    for n in range(57):
        f.make_fact(vendor=vendor, attribute=vocabulary["attributes"][n % 12], sources=[source])
    many, response = queries(admin_client, f"/admin/claims/source/{source.pk}/change/")
    assert many == few
    assert response.content.decode().count(f"{vendor.name}:") == 60


def test_the_add_page_opens_in_as_many_queries_with_12_attributes_as_with_3(admin_client):
    """It starts with one fact row per attribute and one score row per axis."""
    for _ in range(3):
        f.make_attribute()
    f.make_axis()
    few, _ = queries(admin_client, "/admin/vendors/vendor/add/")
    for _ in range(9):
        f.make_attribute()
    for _ in range(4):
        f.make_axis()
    many, response = queries(admin_client, "/admin/vendors/vendor/add/")
    assert many == few
    assert many <= 20  # 17 when written
    rows = [inline.formset for inline in response.context["inline_admin_formsets"]]
    starting = {formset.prefix: len(formset.forms) for formset in rows}
    assert (starting["facts"], starting["scores"], starting["specs"]) == (12, 5, 0)


def refusing_a_save_with_an_error_in_the_last_faq(client, vendor):
    rows, initial = f.admin_rows_on_page(client.get(f.admin_change_url(vendor)))
    rows["faqs"][-1]["answer"] = ""
    count, response = queries(
        client, f.admin_change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial)
    )
    assert [entry.where for entry in response.context["error_summary"]] == [
        f"FAQ “Question {len(rows['faqs']) - 1}?” — Answer"
    ]
    return count


def test_a_refused_save_of_a_long_profile_lists_its_errors_in_as_many_queries_as_a_short_one(
    admin_client, vocabulary
):
    short = long_profile(facts=5, events=2, faqs=2, specs=3, **vocabulary)
    long = long_profile(facts=100, events=30, faqs=50, specs=60, **vocabulary)
    short_count = refusing_a_save_with_an_error_in_the_last_faq(admin_client, short)
    long_count = refusing_a_save_with_an_error_in_the_last_faq(admin_client, long)
    assert long_count == short_count
    assert long_count <= 60  # 54 when written, with the chips (44 before them)
