"""/chips/fit/: how many of each live chip a model's weights need, the arithmetic written out
with each memory figure's source, bad input refused with a message, drafts never shown."""

import datetime as dt
import re
from decimal import Decimal

import pytest

from chips.fit import Size, quotient_text
from chips.models import Spec
from infra.models import KeptRow
from tests.factories import make_source, make_spec, make_vendor, publish
from tests.queries import asked

pytestmark = pytest.mark.django_db


@pytest.fixture
def chips():
    """Three live chips: 192 GB, 288 GB and 144 GiB of memory, and one that states none."""
    vendor = make_vendor(name="Example Silicon", published=False)
    for chip, quantity, unit in (("Big192", "192", "GB"), ("Huge288", "288", "GB"), ("Gib144", "144", "GiB")):
        make_spec(
            vendor=vendor, chip=chip, kind="memory", quantity=quantity, unit=unit,
            sources=[make_source(title=f"{chip} data sheet", url=f"https://example.com/{chip.lower()}")],
        )  # fmt: skip
    make_spec(vendor=vendor, chip="NoMemory", kind="power", quantity="700", unit="W")
    publish(vendor)
    return vendor


def row_of(page, chip):
    return re.search(rf">{chip}</a>.*?</tr>", page, re.S).group(0)


def test_405b_at_16_bits_is_810_gb_and_a_192_gb_chip_needs_5_with_the_arithmetic(client, chips):
    response = client.get("/chips/fit/?params=405&bits=16")
    assert response.status_code == 200
    page = response.content.decode()
    assert "405 billion parameters × 16 bits / 8 bits a byte = 810 GB of weights" in page
    row = row_of(page, "Big192")
    assert '<a href="/chips/big192/">Big192</a>' in page  # the chip's own page
    assert "810 GB / 192 GB = 4.22, so 5 chips" in row
    assert re.search(r'<td class="number"><strong>5</strong></td>', row)
    assert 'href="https://example.com/big192">Big192 data sheet</a>' in row


def test_chips_are_sorted_by_chips_needed_and_a_chip_without_memory_reads_not_stated(client, chips):
    page = client.get("/chips/fit/?params=405&bits=16").content.decode()
    table = page.split('<table class="fit-table">')[1].split("</table>")[0]
    # 288 GB needs 3 (810 / 288 = 2.81); 144 GiB is 154.6 GB, 6 (5.24); 192 GB needs 5
    assert re.findall(r'<th scope="row"><a href="[^"]*">([^<]+)</a>', table) == [
        "Huge288",
        "Big192",
        "Gib144",
    ]
    assert "810 GB / 144 GiB (154.6 GB) = 5.24, so 6 chips" in table
    assert "NoMemory" not in table
    assert "Memory not stated" in page
    assert '<a href="/chips/nomemory/">NoMemory</a>' in page.split("Memory not stated")[1]


def test_weights_only_is_said_and_a_kv_cache_and_overhead_are_added_in_the_arithmetic(client, chips):
    plain = client.get("/chips/fit/?params=70&bits=16").content.decode()
    assert "Weights only" in plain
    page = client.get("/chips/fit/?params=70&bits=16&kv_cache=20&overhead=10").content.decode()
    assert "Weights only" not in page
    assert "140 GB + 20 GB of KV cache = 160 GB" in page
    assert "160 GB + 10% overhead = 176 GB" in page
    assert "176 GB / 192 GB = 0.92, so 1 chip" in row_of(page, "Big192")


@pytest.mark.parametrize(
    "query, message",
    [
        ("params=lots&bits=16", "Parameters must be a number of billions"),
        ("params=0&bits=16", "Parameters must be more than 0."),
        ("params=100001&bits=16", "Parameters must be at most 100,000 billion."),
        ("params=70&bits=0", "Bits per weight must be from 1 to 64."),
        ("params=70&bits=65", "Bits per weight must be from 1 to 64."),
        ("params=70&bits=", "Give the bits per weight"),
        ("params=&bits=16", "Give the model&#x27;s parameters"),
        ("params=70&bits=16&overhead=-5", "The overhead must be 0 percent or more."),
        ("params=1e999&bits=16", "Parameters must be"),
        ("params=NaN&bits=16", "Parameters must be a number of billions"),
    ],
)
def test_a_bad_or_missing_value_is_a_400_showing_the_form_and_why(client, chips, query, message):
    response = client.get(f"/chips/fit/?{query}")
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert '<form method="get"' in page and "Big192" not in page


def test_without_params_the_page_is_the_form_alone(client, chips):
    response = client.get("/chips/fit/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<input type="number" name="params"' in page and "Chips needed" not in page
    assert 'name="bits" value="16"' in page


def test_a_draft_chip_and_an_unpublished_edit_never_appear(client, chips):
    draft = make_vendor(name="Draft Silicon", published=False)
    make_spec(vendor=draft, chip="SecretX1", kind="memory", quantity="512", unit="GB")
    Spec.objects.filter(chip="Big192").update(quantity="999")  # not published
    page = client.get("/chips/fit/?params=405&bits=16").content.decode()
    assert "SecretX1" not in page and "999" not in page
    assert "810 GB / 192 GB" in page


def test_the_quotient_shows_a_fraction_that_rounding_would_hide():
    assert quotient_text(Decimal("4.21875")) == "4.22"
    assert quotient_text(Decimal(4)) == "4"
    assert quotient_text(Decimal("4.001")) == "4.001"  # 5 chips, never “4.00, so 5 chips”


def test_a_model_size_is_exact_decimal_arithmetic():
    size = Size(params=Decimal("7.3"), bits=Decimal("4.5"), kv_cache=None, overhead=Decimal("12.5"))
    assert size.weights == Decimal("4.10625")
    assert size.total == Decimal("4.10625") * Decimal("1.125")


def test_the_page_takes_the_same_queries_for_4_chips_and_for_40(client, chips):
    url = "/chips/fit/?params=405&bits=16"
    few_afresh = asked(client, url, rows_kept=False)[0]
    few, _ = asked(client, url)
    assert few == 2  # the page's chips with their count, their kept rows (chips/rows.py FIT)
    vendor = make_vendor(name="Bulk", published=False)
    for n in range(36):
        make_spec(
            vendor=vendor, chip=f"Bulk {n}", quantity=str(8 + n), unit="GB", verified_on=dt.date(2026, 11, 1)
        )
    publish(vendor)
    many, response = asked(client, url)
    assert many == few
    assert "Bulk 35" in response.content.decode()
    assert asked(client, url, rows_kept=False)[0] == few_afresh == 6  # every row rendered afresh


def test_a_chips_row_of_the_page_is_kept_and_counted_again_for_each_model(client, chips):
    first = client.get("/chips/fit/?params=405&bits=16")
    assert "chips/rows/fit.html" in {template.name for template in first.templates}
    assert set(KeptRow.objects.filter(kind="chip-fit").values_list("data__name", flat=True)) == {
        "Big192", "Huge288", "Gib144", "NoMemory",
    }  # fmt: skip

    other = client.get("/chips/fit/?params=70&bits=8")
    assert "chips/rows/fit.html" not in {template.name for template in other.templates}
    assert "70 GB / 192 GB = 0.36, so 1 chip" in row_of(other.content.decode(), "Big192")
    assert "810 GB / 192 GB = 4.22, so 5 chips" in row_of(first.content.decode(), "Big192")


def test_a_memory_given_in_gib_is_divided_as_given_with_its_exact_gigabytes_beside_it(client):
    vendor = make_vendor(name="AWS Trainium", published=False)
    make_spec(vendor=vendor, chip="Trainium3", kind="memory", quantity="144", unit="GiB",
              sources=[make_source()])  # fmt: skip
    publish(vendor)
    page = client.get("/chips/fit/?params=405&bits=16").content.decode()
    assert "810 GB / 144 GiB (154.6 GB) = 5.24, so 6 chips" in page


def test_a_page_holds_fifty_chips_fewest_needed_first_and_the_next_page_the_rest(client, chips):
    vendor = make_vendor(name="Bulk", published=False)
    for n in range(56):
        make_spec(vendor=vendor, chip=f"Bulk {n}", quantity=str(8 + n), unit="GB")
    publish(vendor)
    url = "/chips/fit/?params=405&bits=16"
    first = client.get(url).content.decode()
    assert first.count('<th scope="row">') == 50
    assert row_of(first, "Huge288") and "Bulk 0<" not in first  # 288 GB needs 3; 8 GB needs 102
    assert "1–50 of 60" in first and 'rel="next"' in first
    second = client.get(url + "&page=2").content.decode()
    assert second.count('<th scope="row">') == 9 and "Bulk 0<" in second
    assert "NoMemory" in second.split('id="not-stated"')[1]  # a chip stating no memory comes last
