"""The chips' downloads: one row per value of every live chip, with its sources."""

import csv
import datetime as dt
import io
import json

import pytest
from django.core.cache import cache
from django.utils import timezone

from chips.models import SpecCitation
from opendata import selectors
from tests import factories as f

pytestmark = pytest.mark.django_db


def spreadsheet_rows(response):
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


@pytest.fixture
def trainium():
    datasheet = f.make_source(title="Trainium3 datasheet", url="https://aws.example/trn3")
    blog = f.make_source(title="Re:Invent recap", url="https://aws.example/blog")
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    memory = f.make_spec(
        vendor=vendor, chip="Trainium3", kind="memory", quantity="144", unit="GiB", sources=[datasheet, blog]
    )
    SpecCitation.objects.filter(cited=memory, source=blog).update(quote="144 GiB", support="partial")
    f.make_spec(
        vendor=vendor,
        chip="Trainium3",
        kind="compute",
        quantity="2.52",
        unit="PFLOPS",
        precision="FP8",
        vendor_stated=True,
        sources=[datasheet],
    )
    f.publish(vendor)
    return vendor


def test_the_chips_csv_has_one_row_per_value_with_its_sources_beside_it(client, trainium):
    response = client.get("/data/chips.csv")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="chipsite-chips.csv"'
    memory, compute = spreadsheet_rows(response)
    assert (memory["chip"], memory["vendor"], memory["kind"], memory["quantity"], memory["unit"]) == (
        "Trainium3",
        "AWS Trainium",
        "memory",
        "144",
        "GiB",
    )
    assert (memory["value"], memory["value_unit"]) == ("155", "GB")  # 154.6… to the figures of "144"
    assert (memory["scope"], memory["stale"], memory["vendor_stated"]) == ("chip", "false", "false")
    assert (memory["source_1_title"], memory["source_1_url"], memory["source_1_support"]) == (
        "Trainium3 datasheet",
        "https://aws.example/trn3",
        "full",
    )
    assert (memory["source_2_title"], memory["source_2_support"], memory["source_2_quote"]) == (
        "Re:Invent recap",
        "partial",
        "144 GiB",
    )
    assert (compute["label"], compute["precision"], compute["sparse"], compute["vendor_stated"]) == (
        "Compute, FP8",
        "FP8",
        "",  # dense or sparse: not stated
        "true",
    )
    assert compute["source_2_title"] == ""


def test_the_chips_json_holds_the_same_values_under_the_licence(client, trainium):
    data = json.loads(client.get("/data/chips.json").content)
    assert data["licence"]["id"] == "CC-BY-4.0"
    memory, compute = data["values"]
    assert (memory["chip"], memory["unit"], memory["value_unit"]) == ("Trainium3", "GiB", "GB")
    assert [(s["title"], s["support"], s["quote"]) for s in memory["sources"]] == [
        ("Trainium3 datasheet", "full", ""),
        ("Re:Invent recap", "partial", "144 GiB"),
    ]
    assert compute["precision"] == "FP8"


@pytest.mark.parametrize("url", ["/data/chips.csv", "/data/chips.json"])
def test_the_chips_files_are_byte_identical_on_repeat(client, trainium, url):
    assert client.get(url).content == client.get(url).content


def test_a_chip_name_a_spreadsheet_would_run_is_written_as_text(client):
    vendor = f.make_vendor(name="=HYPERLINK(1)")
    f.make_spec(vendor=vendor, chip="@SUM(A1)", kind="memory", quantity="96", unit="GB")
    f.publish(vendor)
    (row,) = spreadsheet_rows(client.get("/data/chips.csv"))
    assert (row["chip"], row["vendor"]) == ("'@SUM(A1)", "'=HYPERLINK(1)")


def test_what_is_not_published_is_in_no_chips_download(client, trainium):
    draft = f.make_vendor(name="Draft silicon", published=False)
    f.make_spec(vendor=draft, chip="Secret1", kind="memory", quantity="96", unit="GB")
    trainium.specs.filter(kind="memory").update(quantity="192")
    f.make_spec(vendor=trainium, chip="Trainium4", kind="memory", quantity="288", unit="GB")
    csv_text = client.get("/data/chips.csv").content.decode("utf-8-sig")
    json_text = client.get("/data/chips.json").content.decode()
    for text in (csv_text, json_text):
        assert "Secret1" not in text and "Trainium4" not in text and "192" not in text
    assert [row["quantity"] for row in spreadsheet_rows(client.get("/data/chips.csv"))] == ["144", "2.52"]


def test_the_data_page_lists_the_chips_files(client, trainium):
    html = client.get("/data/").content.decode()
    assert 'href="/data/chips.csv"' in html and 'href="/data/chips.json"' in html


@pytest.mark.parametrize("url", ["/data/chips.csv", "/data/chips.json"])
def test_the_chips_files_query_count_does_not_grow_with_the_chips(client, url, django_assert_num_queries):
    for vendors in (1, 10):
        for _ in range(vendors):
            vendor = f.make_vendor()
            source = f.make_source()
            for n in range(2):
                f.make_spec(
                    vendor=vendor,
                    chip=f"{vendor.name} {n}",
                    kind="sram",
                    quantity="64",
                    unit="MB",
                    sources=[source],
                )
            f.publish(vendor)
        # The chips' index rows, then the documents of the versions holding them.
        with django_assert_num_queries(2):
            response = client.get(url)
        assert response.status_code == 200


@pytest.fixture
def drawn(settings, monkeypatch):
    """The versions whose chips a build of the files drew from their documents, each build a list."""
    settings.PAGE_CACHE_ENABLED = True
    cache.clear()
    builds = []
    real = selectors.chips_of_versions

    def recorded(version_ids):
        builds.append(sorted(version_ids))
        return real(version_ids)

    monkeypatch.setattr(selectors, "chips_of_versions", recorded)
    return builds


def test_after_a_publish_the_chips_files_draw_only_the_new_versions_chips_again(client, trainium, drawn):
    groq = f.make_vendor(name="Groq", slug="groq")
    f.make_spec(vendor=groq, chip="LPU", kind="sram", quantity="230", unit="MB")
    f.publish(groq)
    assert [row["chip"] for row in spreadsheet_rows(client.get("/data/chips.csv"))] == ["Trainium3"] * 2 + [
        "LPU"
    ]

    groq.specs.update(quantity="500")
    new = f.publish(groq)
    rows = spreadsheet_rows(client.get("/data/chips.csv"))

    assert [(row["chip"], row["quantity"]) for row in rows] == [
        ("Trainium3", "144"),
        ("Trainium3", "2.52"),
        ("LPU", "500"),
    ]
    assert drawn[-1] == [new.pk]  # Trainium's values were kept from the first build


def test_a_kept_chip_value_turns_stale_in_the_files_when_the_day_passes_its_window(
    client, settings, monkeypatch, drawn
):
    today = timezone.localdate()
    vendor = f.make_vendor(name="Cerebras", slug="cerebras")
    last_fresh_day = today - dt.timedelta(days=settings.FRESHNESS_DAYS)
    f.make_spec(vendor=vendor, chip="WSE-3", verified_on=last_fresh_day, sources=[f.make_source()])
    f.publish(vendor)
    assert [row["stale"] for row in spreadsheet_rows(client.get("/data/chips.csv"))] == ["false"]

    tomorrow = timezone.now() + dt.timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: today + dt.timedelta(days=1))
    monkeypatch.setattr(timezone, "now", lambda: tomorrow)  # the day turned: what was kept ends at midnight

    assert [row["stale"] for row in spreadsheet_rows(client.get("/data/chips.csv"))] == ["true"]
    assert len(drawn) == 2  # drawn again under the new cutoff, not served from the kept values
