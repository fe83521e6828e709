"""Downloads: every value with its sources and verified date, from live versions only."""

import csv
import datetime as dt
import io
import json

import pytest
from django.template.defaultfilters import filesizeformat
from django.utils import timezone

from editorial import services
from infra.tabular import BOM, neutralise
from tests import factories as f
from vendors.models import Axis

pytestmark = pytest.mark.django_db


def spreadsheet_rows(response):
    """The CSV as a spreadsheet reads it: UTF-8 with its byte-order mark, one dict per row."""
    text = response.content.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.fixture
def trainium():
    memory = f.make_attribute(name="Memory")
    performance = f.make_axis(name="Performance", slug="performance")
    datasheet = f.make_source(
        title="Trainium3 datasheet – AWS",
        url="https://aws.example/trn3",
        archive_url="https://web.archive.org/web/2026/https://aws.example/trn3",
    )
    blog = f.make_source(title="Re:Invent recap", url="https://aws.example/blog")
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    f.make_fact(
        vendor=vendor,
        attribute=memory,
        value="144 GB HBM3e × 4.9 TB/s",
        vendor_stated=True,
        verified_on=dt.date(2026, 10, 31),
        sources=[datasheet, blog],
    )
    f.make_event(vendor=vendor, date=dt.date(2025, 12, 1), text="Trainium3 GA.", sources=[blog])
    f.make_score(vendor=vendor, axis=performance, value=4, reason="Fast.", verified_on=dt.date(2026, 10, 1))
    f.make_faq(vendor=vendor, question="Where can I get it?", answer="AWS only.")
    f.publish(vendor)
    return vendor


def test_a_profile_csv_opens_as_a_table_with_each_source_beside_its_value(client, trainium):
    response = client.get("/data/vendors/aws-trainium.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="chipsite-vendor-aws-trainium.csv"'
    assert response.content.startswith(BOM.encode())  # so Excel reads UTF-8, not its code page
    rows = spreadsheet_rows(response)
    assert list(rows[0])[:8] == [
        "vendor",
        "kind",
        "label",
        "value",
        "reason",
        "vendor_stated",
        "verified_on",
        "stale",
    ]
    # The vendor's own fields first, as the schema names them, then each value.
    company, summary, fact, event, score, faq = rows
    assert [(row["kind"], row["label"]) for row in (company, summary)] == [
        ("field", "Company"),
        ("field", "Summary"),
    ]
    assert summary["value"] == trainium.summary
    assert fact["value"] == "144 GB HBM3e × 4.9 TB/s"
    assert (fact["label"], fact["vendor_stated"], fact["verified_on"]) == ("Memory", "true", "2026-10-31")
    # Verified on 31 Oct, within the 90 days; the event never was; an answer is not verified.
    assert (fact["stale"], event["stale"], faq["stale"]) == ("false", "true", "")
    assert (fact["source_1_title"], fact["source_1_url"]) == (
        "Trainium3 datasheet – AWS",
        "https://aws.example/trn3",
    )
    assert (fact["source_2_title"], fact["source_2_url"]) == ("Re:Invent recap", "https://aws.example/blog")
    assert (event["kind"], event["label"], event["value"]) == ("event", "2025-12", "Trainium3 GA.")
    assert event["source_1_url"] == "https://aws.example/blog" and event["source_2_url"] == ""
    assert (score["label"], score["value"], score["reason"], score["verified_on"]) == (
        "Performance",
        "4",
        "Fast.",
        "2026-10-01",
    )
    assert (faq["kind"], faq["label"], faq["value"]) == ("faq", "Where can I get it?", "AWS only.")


def test_a_profile_json_holds_the_same_values_with_their_sources_and_the_licence(client, trainium):
    data = json.loads(client.get("/data/vendors/aws-trainium.json").content)
    assert data["licence"]["id"] == "CC-BY-4.0" and data["licence"]["attribution"] == "chipsite"
    assert data["vendor"]["name"] == "AWS Trainium" and data["version"]["number"] == 2
    fact = data["values"][2]
    assert fact["vendor_stated"] is True and fact["verified_on"] == "2026-10-31"
    assert [s["url"] for s in fact["sources"]] == ["https://aws.example/trn3", "https://aws.example/blog"]
    assert [s["archive_url"] for s in fact["sources"]] == [
        "https://web.archive.org/web/2026/https://aws.example/trn3",
        "",
    ]
    assert [v["kind"] for v in data["values"]] == ["field", "field", "fact", "event", "score", "faq"]


FORMULAS = ['=HYPERLINK("http://evil")', "+1+2", "-3+4", "@SUM(A1)", "\t=1+1", "\r=1+1"]


def test_cells_a_spreadsheet_would_run_as_a_formula_are_written_as_text(client):
    attribute = f.make_attribute(name="=cmd|' /C calc'!A0")
    vendor = f.make_vendor(name="Formula Chip", slug="formula-chip")
    for value in FORMULAS:
        f.make_fact(vendor=vendor, attribute=attribute, value=value)
    f.publish(vendor)
    rows = [
        row for row in spreadsheet_rows(client.get("/data/vendors/formula-chip.csv")) if row["kind"] == "fact"
    ]
    assert [row["value"] for row in rows] == ["'" + value for value in FORMULAS]
    assert {row["label"] for row in rows} == {"'=cmd|' /C calc'!A0"}
    # The JSON is data, not a spreadsheet: it keeps every value as the editor wrote it.
    data = json.loads(client.get("/data/vendors/formula-chip.json").content)
    assert [v["value"] for v in data["values"] if v["kind"] == "fact"] == FORMULAS


@pytest.mark.parametrize(
    "value",
    [' =HYPERLINK("http://evil","x")', " @SUM(A1)", "\xa0=1+1", "\u3000=1+1", "＝1+1", "＋1", "＠SUM(A1)"],
)
def test_a_formula_behind_spaces_or_in_full_width_is_written_as_text(value):
    assert neutralise(value) == "'" + value


def test_a_formula_in_a_source_title_is_written_as_text(client):
    source = f.make_source(title=' =HYPERLINK("http://evil","click")')
    vendor = f.make_vendor(name="Cited Chip", slug="cited-chip")
    f.make_fact(vendor=vendor, value="96 GB", sources=[source])
    f.publish(vendor)

    (row,) = [
        row for row in spreadsheet_rows(client.get("/data/vendors/cited-chip.csv")) if row["kind"] == "fact"
    ]
    titles = [cell for name, cell in row.items() if "title" in name and cell]
    assert titles == ['\' =HYPERLINK("http://evil","click")']


def test_ordinary_values_and_numbers_are_written_unchanged():
    assert neutralise("HBM3e - 144 GB") == "HBM3e - 144 GB"
    assert neutralise("2026-10-31") == "2026-10-31"
    assert neutralise(4) == 4
    assert neutralise(None) == ""


def test_what_is_not_published_is_in_no_download(client, trainium):
    draft = f.make_vendor(name="Secret Draft", slug="secret-draft", published=False)
    scheduled = f.make_vendor(
        name="Scheduled Chip", slug="scheduled-chip", published_at=timezone.now() + dt.timedelta(days=2)
    )
    # An unpublished change to a live profile stays out of the files until it is published.
    trainium.facts.update(value="Leaked working copy")
    services.refresh_state(obj=trainium)
    hidden_comparison = f.make_comparison(vendors=[trainium, draft], slug="hidden", published=False)
    for vendor in (draft, scheduled):
        for format in ("csv", "json"):
            assert client.get(f"/data/vendors/{vendor.slug}.{format}").status_code == 404
    assert client.get(f"/data/comparisons/{hidden_comparison.slug}.json").status_code == 404
    everything = b"".join(
        client.get(url).content
        for url in [
            "/data/",
            "/data/chipsite.json",
            "/data/rankings.csv",
            "/data/rankings.json",
            "/data/vendors/aws-trainium.csv",
            "/data/vendors/aws-trainium.json",
        ]
    ).decode()
    for secret in ("Secret Draft", "Scheduled Chip", "Leaked working copy", hidden_comparison.title):
        assert secret not in everything
    assert "144 GB HBM3e" in everything


def test_an_unknown_format_or_vendor_is_404(client, trainium):
    assert client.get("/data/vendors/aws-trainium.xlsx").status_code == 404
    assert client.get("/data/vendors/nobody.csv").status_code == 404
    assert client.get("/data/rankings.xml").status_code == 404


def test_the_rankings_download_lists_vendors_in_the_rankings_order_with_a_column_per_axis(client, trainium):
    f.make_vendor(name="Unscored Chip", slug="unscored")
    rows = spreadsheet_rows(client.get("/data/rankings.csv"))
    assert [row["vendor"] for row in rows] == ["AWS Trainium", "Unscored Chip"]
    assert rows[0]["Performance"] == "4" and rows[0]["total"] == "4" and rows[0]["total_max"] == "5"
    assert rows[1]["total"] == "" and rows[1]["Performance"] == ""
    # A vendor not scored yet has no place in the ranking, as the page lists it apart.
    assert rows[0]["position"] == "1" and rows[1]["position"] == ""
    assert rows[0]["url"] == "http://testserver/vendors/aws-trainium/"
    data = json.loads(client.get("/data/rankings.json").content)
    assert data["licence"]["id"] == "CC-BY-4.0"
    assert [v["vendor"] for v in data["vendors"]] == ["AWS Trainium", "Unscored Chip"]
    assert [v["position"] for v in data["vendors"]] == [1, None]
    assert data["scale"] == {"score_min": 1, "score_max": 5, "total_max": 5, "axes": ["Performance"]}


def test_the_rankings_download_counts_the_scores_the_api_calls_stale_and_those_never_verified(
    client, trainium
):
    speed = f.make_axis(name="Speed", slug="speed")
    f.make_score(vendor=trainium, axis=speed, value=3, reason="Quick.", verified_on=None)
    f.publish(trainium)
    profile = client.get("/api/v1/vendors/aws-trainium/").json()
    stale = [score for score in profile["scores"] if score["stale"]]
    assert len(stale) == 1  # the never-verified one; Performance was verified in October

    (row,) = spreadsheet_rows(client.get("/data/rankings.csv"))
    assert (row["scores_stale"], row["scores_never_verified"]) == ("1", "1")
    (entry,) = json.loads(client.get("/data/rankings.json").content)["vendors"]
    assert (entry["scores_stale"], entry["scores_never_verified"]) == (1, 1)


def test_an_inactive_axis_is_in_no_download(client, trainium):
    Axis.objects.filter(slug="performance").update(is_active=False)
    rows = spreadsheet_rows(client.get("/data/rankings.csv"))
    assert "Performance" not in rows[0]
    values = spreadsheet_rows(client.get("/data/vendors/aws-trainium.csv"))
    assert "score" not in {row["kind"] for row in values}


@pytest.fixture
def comparison(trainium):
    tpu = f.make_vendor(name="Google TPU", slug="google-tpu")
    f.make_fact(vendor=tpu, attribute=f.make_attribute(name="Software"), value="JAX", verified_on=None)
    f.publish(tpu)
    comparison = f.make_comparison(
        vendors=[tpu, trainium], title="TPU vs Trainium", slug="tpu-vs-trainium", published=False
    )
    comparison.verified_on = dt.date(2026, 11, 2)
    comparison.save()
    price = f.make_criterion(comparison=comparison, name="Price per token")
    source = f.make_source(title="Price list", url="https://example.com/prices")
    f.make_assessment(criterion=price, vendor=tpu, value="$0.60", vendor_stated=True, sources=[source])
    f.make_assessment(criterion=price, vendor=trainium, mark=4, reason="Cheaper.")
    f.publish(comparison)
    return comparison


def test_a_comparison_download_has_its_vendors_values_and_its_own_assessments(client, comparison):
    rows = spreadsheet_rows(client.get("/data/comparisons/tpu-vs-trainium.csv"))
    kinds = [(row["vendor"], row["kind"], row["label"]) for row in rows]
    assert ("Google TPU", "fact", "Software") in kinds
    assert ("AWS Trainium", "score", "Performance") in kinds
    assessments = [row for row in rows if row["kind"] == "assessment"]
    assert [(a["vendor"], a["value"], a["vendor_stated"]) for a in assessments] == [
        ("Google TPU", "$0.60", "true"),
        ("AWS Trainium", "4", "false"),
    ]
    assert assessments[0]["source_1_url"] == "https://example.com/prices"
    assert {a["verified_on"] for a in assessments} == {"2026-11-02"}
    data = json.loads(client.get("/data/comparisons/tpu-vs-trainium.json").content)
    assert data["comparison"]["vendors"] == ["Google TPU", "AWS Trainium"]
    assert data["licence"]["id"] == "CC-BY-4.0"


def test_the_site_dump_holds_every_live_profile_and_comparison_under_the_licence(client, comparison):
    response = client.get("/data/chipsite.json")
    assert response["Content-Disposition"] == 'attachment; filename="chipsite.json"'
    data = json.loads(response.content)
    assert data["licence"]["url"] == "https://creativecommons.org/licenses/by/4.0/"
    assert "credit" in data["licence_note"]
    assert [v["vendor"]["name"] for v in data["vendors"]] == ["AWS Trainium", "Google TPU"]
    assert [c["comparison"]["title"] for c in data["comparisons"]] == ["TPU vs Trainium"]
    assert [r["vendor"] for r in data["rankings"]] == ["AWS Trainium", "Google TPU"]


def test_the_data_page_lists_every_download_with_its_true_size_and_the_licence(client, comparison):
    page = client.get("/data/").content.decode()
    assert "CC BY 4.0" in page and 'rel="license"' in page
    for url in [
        "/data/chipsite.json",
        "/data/rankings.csv",
        "/data/rankings.json",
        "/data/vendors/aws-trainium.csv",
        "/data/vendors/google-tpu.json",
        "/data/comparisons/tpu-vs-trainium.csv",
        "/data/comparisons/tpu-vs-trainium.json",
    ]:
        size = len(client.get(url).content)
        assert f'href="{url}" download>' in page
        shown = page.split(f'href="{url}" download>', 1)[1].split("</span>", 1)[0]
        assert str(filesizeformat(size)).replace("\xa0", " ") in shown.replace("\xa0", " ")


def test_each_page_links_its_own_download(client, comparison):
    assert 'href="/data/vendors/aws-trainium.csv"' in client.get("/vendors/aws-trainium/").content.decode()
    assert 'href="/data/rankings.csv"' in client.get("/").content.decode()
    assert (
        'href="/data/comparisons/tpu-vs-trainium.csv"'
        in client.get("/compare/tpu-vs-trainium/").content.decode()
    )


class TestCaching:
    @pytest.fixture(autouse=True)
    def page_cache(self, settings):
        settings.PAGE_CACHE_ENABLED = True

    @pytest.mark.parametrize("url", ["/data/vendors/aws-trainium.csv", "/data/chipsite.json", "/data/"])
    def test_downloads_are_cached_like_pages_and_keep_their_file_name(self, visitor, trainium, url):
        first = visitor.get(url)
        assert first["X-Page-Cache"] == "miss"
        assert "public" in first["Cache-Control"] and "max-age=30" in first["Cache-Control"]
        second = visitor.get(url)
        assert second["X-Page-Cache"] == "hit" and second.content == first.content
        assert second["Content-Type"] == first["Content-Type"]
        assert second.get("Content-Disposition") == first.get("Content-Disposition")
        assert visitor.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304

    def test_the_data_page_and_the_dump_share_one_build_that_a_publish_renews(
        self, visitor, trainium, django_assert_max_num_queries
    ):
        visitor.get("/data/")
        with django_assert_max_num_queries(1):  # at most the content token; the dump was built for /data/
            first = visitor.get("/data/chipsite.json")
        assert [v["vendor"]["name"] for v in json.loads(first.content)["vendors"]] == ["AWS Trainium"]
        f.make_vendor(name="Newly Published")
        dump = json.loads(visitor.get("/data/chipsite.json").content)
        assert [v["vendor"]["name"] for v in dump["vendors"]] == ["AWS Trainium", "Newly Published"]

    def test_a_publish_changes_the_download_at_once(self, visitor, trainium):
        assert "144 GB" in visitor.get("/data/vendors/aws-trainium.csv").content.decode("utf-8-sig")
        trainium.facts.update(value="192 GB")
        f.publish(trainium)
        assert "192 GB" in visitor.get("/data/vendors/aws-trainium.csv").content.decode("utf-8-sig")


def populate(count, *, comparisons=True):
    lanes = [f.make_lane() for _ in range(2)]
    axes = list(Axis.objects.filter(is_active=True)) or [f.make_axis() for _ in range(3)]
    vendors = []
    for _ in range(count):
        vendor = f.make_vendor(lane=lanes[0])
        source = f.make_source()
        f.make_fact(vendor=vendor, sources=[source])
        f.make_event(vendor=vendor, sources=[source])
        for axis in axes:
            f.make_score(vendor=vendor, axis=axis, sources=[source])
        f.make_faq(vendor=vendor, sources=[source])
        f.publish(vendor)
        vendors.append(vendor)
    if comparisons:
        comparison = f.make_comparison(vendors=vendors[:2], published=False)
        f.make_assessment(criterion=f.make_criterion(comparison=comparison), vendor=vendors[0], value="x")
        f.publish(comparison)
    return vendors[-1], comparison


DOWNLOADS = {
    "data page": ("/data/", 12),  # 11, and the live chips
    "site dump": ("/data/chipsite.json", 7),
    "rankings csv": ("/data/rankings.csv", 3),
    "rankings json": ("/data/rankings.json", 3),
    "profile csv": ("/data/vendors/{vendor}.csv", 2),
    "profile json": ("/data/vendors/{vendor}.json", 2),
    "comparison csv": ("/data/comparisons/{comparison}.csv", 3),
    "comparison json": ("/data/comparisons/{comparison}.json", 3),
}


@pytest.mark.parametrize("name", DOWNLOADS)
def test_download_query_counts_are_pinned_and_do_not_grow_with_the_data(
    client, name, django_assert_num_queries
):
    url, expected = DOWNLOADS[name]
    for count in (2, 12):
        vendor, comparison = populate(count)
        with django_assert_num_queries(expected):
            response = client.get(url.format(vendor=vendor.slug, comparison=comparison.slug))
        assert response.status_code == 200
