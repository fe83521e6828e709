"""The chips in the read API: every value of a live chip as its source gave it and in its
kind's unit, with its sources; drafts never; a query count that does not grow with the chips."""

import datetime as dt

import pytest

from chips.models import SpecCitation
from tests.factories import make_source, make_spec, make_vendor, publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def trainium():
    """A live vendor with one chip: its memory in GiB, cited with the source's own words."""
    datasheet = make_source(title="Trainium3 datasheet", publisher="AWS", url="https://aws.example/trn3")
    vendor = make_vendor(name="AWS Trainium", slug="aws-trainium")
    memory = make_spec(
        vendor=vendor,
        chip="Trainium3",
        kind="memory",
        quantity="144",
        unit="GiB",
        vendor_stated=True,
        verified_on=dt.date(2026, 11, 1),
        sources=[datasheet],
    )
    SpecCitation.objects.filter(cited=memory, source=datasheet).update(quote="144 GiB of HBM3e per chip")
    make_spec(vendor=vendor, chip="Trainium3", kind="scale", quantity="144", unit="chips", scope="system")
    publish(vendor)
    return vendor


def chip_slugs(response):
    return [chip["slug"] for chip in response.json()["results"]]


def test_the_chip_list_gives_a_live_chips_memory_as_given_and_in_gb_citing_its_source(client, trainium):
    response = client.get("/api/v1/chips/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    (chip,) = body["results"]
    assert (chip["slug"], chip["name"]) == ("trainium3", "Trainium3")
    assert (chip["vendor"]["slug"], chip["vendor"]["name"]) == ("aws-trainium", "AWS Trainium")
    assert chip["url"] == "http://testserver/vendors/aws-trainium/#chip-trainium3"
    memory, scale = chip["specs"]
    assert (memory["kind"], memory["quantity"], memory["unit"], memory["scope"]) == (
        "memory",
        "144",
        "GiB",
        "chip",
    )
    # 154.6… GB, written to the three figures of "144": never 154.61882265600002
    assert (memory["value"], memory["value_as_given"], memory["qualifier"]) == (155, 144, "")
    assert memory["value_unit"] == "GB"
    assert memory["label"] == "Memory capacity"
    assert memory["vendor_stated"] is True and memory["verified_on"] == "2026-11-01"
    (source,) = memory["sources"]
    assert (source["title"], source["url"], source["publisher"]) == (
        "Trainium3 datasheet",
        "https://aws.example/trn3",
        "AWS",
    )
    assert (source["quote"], source["support"]) == ("144 GiB of HBM3e per chip", "full")
    assert (scale["scope"], scale["label"], scale["sources"]) == ("system", "Scale-up domain, per system", [])


def test_a_chips_own_answer_is_the_one_the_list_gives(client, trainium):
    listed = client.get("/api/v1/chips/").json()["results"][0]
    response = client.get("/api/v1/chips/trainium3/")
    assert response.status_code == 200
    assert response.json() == listed
    assert listed["api_url"] == "http://testserver/api/v1/chips/trainium3/"


def test_a_value_past_the_freshness_window_is_stale(client, trainium):
    make_spec(
        vendor=trainium,
        chip="Trainium3",
        kind="power",
        quantity="1",
        unit="kW",
        verified_on=dt.date(2020, 1, 1),
    )
    publish(trainium)
    specs = client.get("/api/v1/chips/trainium3/").json()["specs"]
    assert [(spec["kind"], spec["stale"]) for spec in specs if spec["kind"] in ("memory", "power")] == [
        ("memory", False),
        ("power", True),
    ]
    assert [spec["value"] for spec in specs if spec["kind"] == "power"] == [1000.0]


def test_an_unknown_chip_is_a_404_that_says_so(client, trainium):
    response = client.get("/api/v1/chips/no-such-chip/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["message"].startswith("No live chip at this address.")


def test_a_draft_vendors_chips_are_in_no_answer(client, trainium):
    draft = make_vendor(name="Draft silicon", slug="draft-silicon", published=False)
    make_spec(vendor=draft, chip="Secret1", kind="memory", quantity="96", unit="GB")
    assert chip_slugs(client.get("/api/v1/chips/")) == ["trainium3"]
    assert client.get("/api/v1/chips/secret1/").status_code == 404


def test_unpublished_changes_to_a_live_vendors_chips_stay_out_until_published(client, trainium):
    trainium.specs.filter(kind="memory").update(quantity="192")
    make_spec(vendor=trainium, chip="Trainium4", kind="memory", quantity="288", unit="GB")
    assert chip_slugs(client.get("/api/v1/chips/")) == ["trainium3"]
    assert client.get("/api/v1/chips/trainium4/").status_code == 404
    memory = client.get("/api/v1/chips/trainium3/").json()["specs"][0]
    assert memory["quantity"] == "144"
    publish(trainium)
    assert chip_slugs(client.get("/api/v1/chips/")) == ["trainium3", "trainium4"]
    assert client.get("/api/v1/chips/trainium3/").json()["specs"][0]["quantity"] == "192"


def test_an_unpublished_vendors_chips_disappear(client, trainium):
    from editorial import services

    services.unpublish(obj=trainium, user=None)
    assert client.get("/api/v1/chips/").json()["count"] == 0
    assert client.get("/api/v1/chips/trainium3/").status_code == 404


def test_chip_pages_link_on_and_a_page_past_the_end_is_a_404(client, trainium):
    other = make_vendor(name="Google TPU", slug="google-tpu")
    make_spec(vendor=other, chip="TPU7x", kind="memory", quantity="192", unit="GB")
    publish(other)
    first = client.get("/api/v1/chips/?per_page=1").json()
    assert (first["count"], first["pages"], first["previous"]) == (2, 2, None)
    assert first["next"] == "http://testserver/api/v1/chips/?per_page=1&page=2"
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 1 and second["next"] is None
    assert {
        *chip_slugs(client.get("/api/v1/chips/?per_page=1")),
        *(c["slug"] for c in second["results"]),
    } == {
        "trainium3",
        "tpu7x",
    }
    response = client.get("/api/v1/chips/?page=3")
    assert response.status_code == 404
    assert "There is no page 3" in response.json()["message"]


def test_the_openapi_document_describes_both_chip_operations(client):
    document = client.get("/api/v1/openapi.json").json()
    listed = document["paths"]["/api/v1/chips/"]["get"]
    detail = document["paths"]["/api/v1/chips/{slug}/"]["get"]
    assert (listed["operationId"], detail["operationId"]) == ("listChips", "getChip")
    assert "value_unit" in listed["description"] and detail["description"]
    spec = document["components"]["schemas"]["ChipSpec"]["properties"]
    assert {"value", "value_unit", "label", "stale", "scope", "precision", "sparse", "sources"} <= set(spec)
    assert spec["value"]["description"]


def live_chips_added(count):
    """``count`` more live chips, two a vendor, each value citing a source of its own vendor."""
    for _ in range(count // 2):
        vendor = make_vendor()
        source = make_source()
        for n in range(2):
            make_spec(
                vendor=vendor,
                chip=f"{vendor.name} chip {n}",
                kind="memory",
                quantity="96",
                unit="GB",
                sources=[source],
            )
        publish(vendor)


def test_the_chip_list_query_count_does_not_grow_from_2_to_20_chips(client, django_assert_num_queries):
    for added, shown in ((2, 2), (18, 20)):
        live_chips_added(added)
        with django_assert_num_queries(2):  # the count, then the page's chips with their versions
            response = client.get("/api/v1/chips/?per_page=100")
        assert len(response.json()["results"]) == shown


def test_a_chips_answer_is_one_query(client, trainium, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert client.get("/api/v1/chips/trainium3/").status_code == 200
