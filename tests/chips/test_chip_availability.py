"""A chip's availability: each stage it reached (announced, in preview, generally available) to
the month, edited on its vendor's page, published in the document, and read alike by the
profile, /chips/, the chip comparison, the API and the downloads."""

import csv
import datetime as dt
import io
import json
import re

import pytest

from chips.models import Availability, AvailabilityCitation
from tests import factories as f
from tests.factories import admin_change_url as change_url
from vendors.documents import document_of
from vendors.services import mark_verified

pytestmark = pytest.mark.django_db


def availability_row(**fields):
    """A new row of the Chip availability section as the page posts it."""
    row = {
        "chip": "MI355X",
        "stage": "ga",
        "month": "2025-10",
        "verified_on": "2026-11-30",
        "sources": [],
        "position": "",
    }
    return {**row, **fields}


def post_with_availability(client, vendor, **fields):
    return f.admin_post_vendor_page(
        client, vendor, edit=lambda rows: rows["availability"].append(availability_row(**fields))
    )


def refused(response, field):
    assert response.status_code == 200, "the save was not refused"
    (formset,) = [
        i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == "availability"
    ]
    return formset.forms[-1].errors.get(field, []), response.context["error_summary"]


@pytest.fixture
def amd():
    """MI355X, announced in June 2025 and generally available in October 2025, each cited."""
    source = f.make_source(title="AMD Instinct MI355X", url="https://wiki.example/mi355x")
    vendor = f.make_vendor(name="AMD Instinct", published=False)
    f.make_spec(vendor=vendor, chip="MI355X", kind="memory", quantity="288", unit="GB", sources=[source])
    f.make_availability(
        vendor=vendor, chip="MI355X", stage="announced", month=dt.date(2025, 6, 1), sources=[source]
    )
    ga = f.make_availability(
        vendor=vendor, chip="MI355X", stage="ga", month=dt.date(2025, 10, 1), sources=[source]
    )
    AvailabilityCitation.objects.filter(cited=ga).update(
        quote="MI355X reached general availability in October 2025."
    )
    f.publish(vendor)
    return vendor


@pytest.fixture
def trainium():
    """Trainium3, with a number but no availability stated."""
    vendor = f.make_vendor(name="AWS Trainium", published=False)
    f.make_spec(vendor=vendor, chip="Trainium3", kind="memory", quantity="144", unit="GiB")
    f.publish(vendor)
    return vendor


# --- Editing ------------------------------------------------------------------------------


def test_a_month_typed_on_the_change_page_is_saved_as_that_month(admin_client):
    vendor = f.make_vendor(name="AMD Instinct")
    response = post_with_availability(admin_client, vendor, month="2025-10")

    assert response.status_code == 302
    row = Availability.objects.get(vendor=vendor)
    assert (row.chip, row.stage, row.month) == ("MI355X", "ga", dt.date(2025, 10, 1))
    page = admin_client.get(change_url(vendor)).content.decode()
    assert 'href="#section-chip-availability"' in page
    assert 'value="2025-10"' in page  # read back as it was typed


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("2025", "availability is dated to the month"),
        ("2025-10-14", "availability is dated to the month"),
        ("Oct 2025", "is not a month"),
        ("2025-13", "has no month 13"),
    ],
)
def test_a_date_that_is_not_a_month_is_an_error_on_the_row_and_saves_nothing(admin_client, typed, said):
    vendor = f.make_vendor(name="AMD Instinct")
    response = post_with_availability(admin_client, vendor, month=typed)

    messages, summary = refused(response, "month")
    assert len(messages) == 1 and said in messages[0]
    assert [e.where for e in summary] == ["MI355X — Generally available — Month"]
    assert not Availability.objects.exists()


def test_another_vendors_chip_is_refused_by_name(admin_client, amd):
    other = f.make_vendor(name="Copycat")
    response = post_with_availability(admin_client, other, chip="MI355X")

    messages, _ = refused(response, "chip")
    assert messages == ["MI355X is already a chip of AMD Instinct."]


def test_a_stage_not_offered_is_an_error(admin_client):
    vendor = f.make_vendor(name="AMD Instinct")
    messages, _ = refused(post_with_availability(admin_client, vendor, stage="shipping"), "stage")
    assert messages and "not one of the available choices" in messages[0]


# --- The published document and the profile -----------------------------------------------


def test_availability_publishes_with_the_profile_and_an_unpublished_change_stays_unseen(client, amd):
    chip = document_of_live(amd).chips[0]
    assert [(row.stage, row.month) for row in chip.availability] == [
        ("announced", dt.date(2025, 6, 1)),
        ("ga", dt.date(2025, 10, 1)),
    ]
    assert chip.stage.stage == "ga"

    Availability.objects.filter(vendor=amd, stage="ga").update(month=dt.date(2024, 1, 1))
    page = client.get(amd.get_absolute_url()).content.decode()
    assert "Oct 2025" in page and "Jan 2024" not in page


def document_of_live(vendor):
    from editorial.selectors import live_version

    return document_of(live_version(vendor))


def test_the_profile_shows_each_stage_with_its_month_source_and_verified_date(client, amd):
    page = client.get(amd.get_absolute_url()).content.decode()
    table = page[page.index('id="chip-mi355x"') : page.index("</table>", page.index('id="chip-mi355x"'))]
    ga = Availability.objects.get(vendor=amd, stage="ga")
    row = re.search(rf'<tr id="availability-{ga.pk}".*?</tr>', table, re.S).group(0)
    assert "Generally available" in row
    assert '<time datetime="2025-10">Oct 2025</time>' in row
    assert re.search(
        r'<sup class="fn"><a href="#source-\d+" aria-label="Source 1: AMD Instinct MI355X">\[1\]', row
    )
    assert "1 Nov 2026" in row  # verified
    assert "MI355X reached general availability in October 2025." in page  # the source's words


# --- /chips/ ------------------------------------------------------------------------------


def chip_names(html):
    return re.findall(r'<th scope="row"><a href="[^"]*">([^<]+)</a></th>', html)


def test_the_chips_table_shows_the_furthest_stage_and_not_stated_without_one(client, amd, trainium):
    page = client.get("/chips/").content.decode()
    mi355x = re.search(r"MI355X</a></th>(.*?)</tr>", page, re.S).group(1)
    trainium3 = re.search(r"Trainium3</a></th>(.*?)</tr>", page, re.S).group(1)
    assert 'Generally available</a> <time datetime="2025-10">Oct 2025</time>' in mi355x
    assert "Announced" not in mi355x
    assert trainium3.count("not stated") == 6  # availability, bandwidth, SRAM, compute, power, process


def test_the_chips_table_filters_to_generally_available_chips_with_counts(client, amd, trainium):
    page = client.get("/chips/?stage=ga").content.decode()
    assert chip_names(page) == ["MI355X"]
    assert ">Generally available (1)</option>" in page
    assert ">Announced or later (1)</option>" in page
    assert "1 chip" in page


def test_a_stage_that_is_not_a_choice_is_ignored_with_a_message(client, amd, trainium):
    response = client.get("/chips/?stage=shipping")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Availability: “shipping” is not one of the choices, so it was ignored." in page
    assert set(chip_names(page)) == {"MI355X", "Trainium3"}


# --- The comparison, the API, the downloads, JSON-LD -----------------------------------------


def test_the_comparison_puts_availability_side_by_side_with_its_sources(client, amd, trainium):
    page = client.get("/chips/compare/?chips=mi355x,trainium3").content.decode()
    row = re.search(r'<tr id="availability">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<td>(.*?)</td>", row, re.S)
    assert len(cells) == 2
    assert "Announced" in cells[0] and "Generally available" in cells[0]
    assert "<q>MI355X reached general availability in October 2025.</q>" in cells[0]
    assert "not stated" in cells[1]


def test_the_api_gives_each_stage_with_its_month_and_sources(client, amd):
    body = client.get("/api/v1/chips/mi355x/").json()
    stages = [(row["stage"], row["month"], row["display_month"]) for row in body["availability"]]
    assert stages == [("announced", "2025-06-01", "Jun 2025"), ("ga", "2025-10-01", "Oct 2025")]
    ga = body["availability"][1]
    assert ga["stage_label"] == "Generally available"
    assert ga["sources"][0]["quote"] == "MI355X reached general availability in October 2025."
    assert ga["stale"] is False and ga["verified_on"] == "2026-11-01"
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert "ChipAvailability" in schema and "stage" in schema["ChipAvailability"]["properties"]


def test_the_chips_csv_and_json_have_a_row_per_stage_with_its_month_and_source(client, amd):
    rows = list(
        csv.DictReader(io.StringIO(client.get("/data/chips.csv").content.decode("utf-8-sig"), newline=""))
    )
    stages = [
        (r["kind"], r["stage"], r["month"], r["source_1_url"]) for r in rows if r["kind"] == "availability"
    ]
    assert stages == [
        ("availability", "announced", "2025-06", "https://wiki.example/mi355x"),
        ("availability", "ga", "2025-10", "https://wiki.example/mi355x"),
    ]
    values = json.loads(client.get("/data/chips.json").content)["values"]
    assert {(v["kind"], v["stage"], v["month"]) for v in values} == {
        ("memory", "", None),
        ("availability", "announced", "2025-06"),
        ("availability", "ga", "2025-10"),
    }


def test_the_chips_json_ld_gives_a_generally_available_chip_its_release_month(client, amd, trainium):
    page = client.get("/chips/").content.decode()
    found = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    blocks = [b for text in found for b in (lambda d: d if isinstance(d, list) else [d])(json.loads(text))]
    products = {
        item["item"]["name"]: item["item"]
        for block in blocks
        if block.get("@type") == "ItemList"
        for item in block["itemListElement"]
    }
    assert products["MI355X"]["releaseDate"] == "2025-10"
    assert "releaseDate" not in products["Trainium3"]


# --- Verification -------------------------------------------------------------------------


def test_marking_an_availability_date_verified_reaches_the_live_page_without_a_publish(client, amd):
    user = f.make_superuser()
    Availability.objects.filter(vendor=amd).update(verified_on=dt.date(2026, 1, 1))
    f.publish(amd)
    assert document_of_live(amd).chips[0].availability[0].is_stale

    mark_verified(user=user, availability=Availability.objects.filter(vendor=amd))

    today = dt.date.today()
    chip = document_of_live(amd).chips[0]
    assert {row.verified_on for row in chip.availability} == {today}
    assert not any(row.is_stale for row in chip.availability)


def test_the_staleness_queue_lists_a_stale_availability_date(admin_client, amd):
    stale = Availability.objects.get(vendor=amd, stage="announced")
    Availability.objects.filter(pk=stale.pk).update(verified_on=None)
    page = admin_client.get("/admin/chips/staleavailability/").content.decode()
    assert "Jun 2025" in page and f"#availability-{stale.pk}" in page
    assert "Oct 2025" not in page  # verified 1 Nov 2026: fresh
