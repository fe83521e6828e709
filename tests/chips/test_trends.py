"""/chips/trends/: what chips offer against the month they became available, drawn as SVG on
the server, each point a live chip linked to its page with a table of the same points; its
CSV; and the geometry (chips/charts.py) the charts are drawn with."""

import csv
import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chips import charts
from chips.models import Availability
from tests.factories import make_availability, make_price, make_source, make_spec, make_vendor, publish

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


@pytest.fixture
def chips():
    """Two live chips: Alpha, generally available in Jun 2025 (announced before), with 192 GB,
    8 TB/s, FP8 dense and sparse, FP4 and an on-demand price; Beta, only announced (Mar 2026),
    with 144 GiB and MXFP8. Gamma states memory but no month."""
    vendor = make_vendor(name="Example Silicon", published=False)
    cited = {"sources": [make_source(title="Alpha data sheet", url="https://example.com/alpha")],
             "verified_on": TODAY}  # fmt: skip
    make_spec(vendor=vendor, chip="Alpha", kind="memory", quantity="192", unit="GB", **cited)
    make_spec(vendor=vendor, chip="Alpha", kind="bandwidth", quantity="8", unit="TB/s", **cited)
    make_spec(vendor=vendor, chip="Alpha", kind="compute", quantity="2.5", unit="PFLOPS", precision="FP8",
              sparse=False, **cited)  # fmt: skip
    make_spec(vendor=vendor, chip="Alpha", kind="compute", quantity="5", unit="PFLOPS", precision="FP8",
              sparse=True, **cited)  # fmt: skip
    make_spec(vendor=vendor, chip="Alpha", kind="compute", quantity="10", unit="PFLOPS", precision="FP4",
              sparse=False, **cited)  # fmt: skip
    make_price(vendor=vendor, chip="Alpha", amount=Decimal("5"), **cited)
    make_availability(vendor=vendor, chip="Alpha", stage="announced", month=dt.date(2024, 3, 1), **cited)
    make_availability(vendor=vendor, chip="Alpha", stage="ga", month=dt.date(2025, 6, 1), **cited)
    beta = {
        "sources": [make_source(title="Beta launch", url="https://example.com/beta")],
        "verified_on": TODAY,
    }
    make_spec(vendor=vendor, chip="Beta", kind="memory", quantity="144", unit="GiB", **beta)
    make_spec(
        vendor=vendor, chip="Beta", kind="compute", quantity="3", unit="PFLOPS", precision="MXFP8", **beta
    )
    make_availability(vendor=vendor, chip="Beta", stage="announced", month=dt.date(2026, 3, 1), **beta)
    make_spec(vendor=vendor, chip="Gamma", kind="memory", quantity="96", unit="GB", **beta)
    publish(vendor)
    return vendor


def section(page, key):
    return page.split(f'<h2 id="{key}">')[1].split("</section>")[0]


def test_a_memory_point_links_to_its_chip_and_says_how_it_is_dated(client, chips):
    response = client.get("/chips/trends/")
    assert response.status_code == 200
    memory = section(response.content.decode(), "memory")
    svg = memory.split("<svg")[1].split("</svg>")[0]
    assert "<title" in svg and "<desc" in svg
    assert re.search(
        r'<a href="/chips/alpha/" class="trend-point"><title>Alpha \(Example Silicon\): 192 GB; '
        r"generally available Jun 2025</title><path d=\"M",
        svg,
    )
    assert "Beta (Example Silicon): 144 GiB; announced Mar 2026" in svg
    assert 'class="trend-tone-0 announced"' in svg  # Beta is drawn hollow
    assert "Gamma" not in svg


def test_each_chart_has_a_table_of_the_same_points_with_their_sources(client, chips):
    memory = section(client.get("/chips/trends/").content.decode(), "memory")
    table = memory.split("<table>")[1].split("</table>")[0]
    rows = re.findall(
        r"<tr>\s*<th scope=\"row\"><a href=\"([^\"]+)\">([^<]+)</a></th>(.*?)</tr>", table, re.S
    )
    assert [(href, name) for href, name, _ in rows] == [("/chips/alpha/", "Alpha"), ("/chips/beta/", "Beta")]
    alpha, beta = rows[0][2], rows[1][2]
    assert "Jun 2025" in alpha and "(generally available)" in alpha and "192 GB" in alpha
    assert 'href="https://example.com/alpha">Alpha data sheet</a>' in alpha
    assert "Mar 2026" in beta and "(announced)" in beta and "144 GiB" in beta and "(155 GB)" in beta


def test_fp8_dense_sparse_and_mxfp8_are_series_of_their_own_and_fp4_has_its_chart(client, chips):
    page = client.get("/chips/trends/").content.decode()
    fp8 = section(page, "compute-fp8")
    legend = fp8.split('<ul class="trend-legend">')[1].split("</ul>")[0]
    names = re.findall(r"</svg> ([^<(]+)", legend)
    assert names == [
        "FP8, dense ",
        "FP8, sparse ",
        "MXFP8, sparsity not stated ",
        "hollow: dated by its announcement ",
    ]
    fp4 = section(page, "compute-fp4-fp6")
    assert "Alpha (Example Silicon): 10 PFLOPS, FP4, dense" in fp4 and "Beta" not in fp4


def test_price_per_pflop_hour_is_labelled_derived_with_its_arithmetic(client, chips):
    price = section(client.get("/chips/trends/").content.decode(), "pflop-hour")
    assert "Derived" in price
    # $5 per chip-hour / 2.5 PFLOPS FP8, dense is $2 per PFLOP-hour; at 5 PFLOPS sparse, $1
    assert "Alpha (Example Silicon): $2.00 per PFLOP-hour, FP8, dense" in price
    assert "Alpha (Example Silicon): $1.00 per PFLOP-hour, FP8, sparse" in price
    assert "derived: $5 per chip-hour (Example Cloud) / 2.5 PFLOPS FP8, dense" in price


def test_drafts_and_unpublished_edits_never_appear(client, chips):
    draft = make_vendor(name="Draft Silicon", published=False)
    make_spec(vendor=draft, chip="SecretX1", kind="memory", quantity="512", unit="GB")
    make_availability(vendor=draft, chip="SecretX1")
    Availability.objects.filter(chip="Gamma").delete()  # not published: Gamma stays undated
    make_availability(vendor=chips, chip="Gamma", month=dt.date(2020, 1, 1))
    page = client.get("/chips/trends/").content.decode()
    csv_text = client.get("/chips/trends.csv").content.decode()
    for text in (page, csv_text):
        assert "SecretX1" not in text and "Jan 2020" not in text and "2020-01" not in text
    assert "no month announced or generally available" in page and ">Gamma</a>" in page


def test_the_download_has_a_row_a_point_with_its_unit_precision_and_sources(client, chips):
    response = client.get("/chips/trends.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    memory = [row for row in rows if row["chart"] == "memory"]
    assert [(r["chip"], r["vendor"], r["month"], r["dated_by"], r["value"], r["unit"], r["as_given"])
            for r in memory] == [
        ("Alpha", "Example Silicon", "2025-06", "generally available", "192", "GB", "192 GB"),
        ("Beta", "Example Silicon", "2026-03", "announced", "155", "GB", "144 GiB"),
    ]  # fmt: skip
    assert memory[0]["source_urls"] == "https://example.com/alpha"
    fp8 = [
        (r["chip"], r["precision"], r["sparsity"], r["value"]) for r in rows if r["chart"] == "compute-fp8"
    ]
    assert sorted(fp8) == [
        ("Alpha", "FP8", "dense", "2.5"),
        ("Alpha", "FP8", "sparse", "5"),
        ("Beta", "MXFP8", "", "3"),
    ]
    (price,) = [row for row in rows if row["chart"] == "pflop-hour" and row["precision"] == "FP8"
                and row["sparsity"] == "dense"]  # fmt: skip
    assert (price["value"], price["unit"], price["derived_from"]) == (
        "2",
        "USD per PFLOP-hour",
        "$5 per chip-hour (Example Cloud) / 2.5 PFLOPS FP8, dense",
    )


def _queries(client, url):
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context)


@pytest.mark.parametrize("url", ["/chips/trends/", "/chips/trends.csv"])
def test_the_trends_take_the_same_queries_at_3_chips_and_at_33(client, chips, url):
    few = _queries(client, url)
    assert few <= 4
    vendor = make_vendor(name="Bulk", published=False)
    for n in range(30):
        make_spec(vendor=vendor, chip=f"Bulk {n}", quantity=str(8 + n), unit="GB", sources=[make_source()])
        make_availability(vendor=vendor, chip=f"Bulk {n}", month=dt.date(2020 + n % 6, 1 + n % 12, 1))
    publish(vendor)
    assert _queries(client, url) == few
    assert "Bulk 29" in client.get(url).content.decode()


# The geometry (chips/charts.py)


def test_value_ticks_run_from_0_to_a_nice_step_at_or_above_the_highest():
    assert charts.value_ticks(Decimal(288)) == [0, 100, 200, 300]
    assert charts.value_ticks(Decimal("8")) == [0, 2, 4, 6, 8]
    assert charts.value_ticks(Decimal("0.57")) == [Decimal(0), Decimal("0.2"), Decimal("0.4"), Decimal("0.6")]
    assert charts.value_ticks(Decimal(0)) == [0, 1]


def test_month_ticks_are_yearly_in_january_over_several_years_and_monthly_over_a_few_months():
    ticks, step = charts.month_ticks(
        charts.month_number(dt.date(2021, 5, 1)), charts.month_number(dt.date(2026, 3, 1))
    )
    assert step == 12
    assert [charts.month_label(n, step) for n in ticks] == ["2022", "2023", "2024", "2025", "2026"]
    ticks, step = charts.month_ticks(
        charts.month_number(dt.date(2025, 9, 1)), charts.month_number(dt.date(2025, 11, 1))
    )
    assert step == 1 and [charts.month_label(n, step) for n in ticks] == ["Sep 2025", "Oct 2025", "Nov 2025"]


def test_a_later_and_higher_point_is_drawn_right_of_and_above_an_earlier_lower_one():
    frame = charts.Frame()
    drawn = charts.plot(
        [(dt.date(2024, 1, 1), Decimal(80), 0), (dt.date(2025, 6, 1), Decimal(288), 0)], frame
    )
    early, late = drawn.points
    assert Decimal(early.x) < Decimal(late.x) and Decimal(early.y) > Decimal(late.y)
    assert frame.plot_left < Decimal(early.x) and Decimal(late.x) < frame.plot_right
    assert Decimal(late.y) >= frame.plot_top and Decimal(early.y) <= frame.plot_bottom
    assert drawn.y_ticks[0].at == str(frame.plot_bottom) and drawn.y_ticks[-1].at == str(frame.plot_top)
    assert not drawn.y_ticks[-1].minor  # the highest tick's label stays on a phone


def test_points_of_two_series_in_one_month_sit_apart_with_shapes_of_their_own():
    drawn = charts.plot([(dt.date(2025, 6, 1), Decimal(5), 0), (dt.date(2025, 6, 1), Decimal(5), 1)])
    first, second = drawn.points
    assert first.x != second.x and first.shape == "circle" and second.shape == "square"
    assert first.marker.startswith("M") and first.marker.endswith("Z")


def test_coordinates_are_written_to_a_tenth_without_an_exponent():
    assert charts.coordinate(Decimal("12.345")) == "12.3"
    assert charts.coordinate(Decimal("40.00")) == "40"
    assert charts.coordinate(Decimal("1E+2")) == "100"


def test_with_no_live_chip_the_page_and_its_csv_answer_with_empty_charts(client):
    make_vendor(name="Groq", published=True)  # live, but with no chip
    page = client.get("/chips/trends/")
    assert page.status_code == 200
    csv = client.get("/chips/trends.csv")
    assert csv.status_code == 200 and csv.content.decode().strip().count("\n") == 0  # the header only
