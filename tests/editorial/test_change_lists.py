"""Issue 46: the review and the change log list every part a working copy changes, read from the
published document's schema: chips, specs, availability, prices, results and sources, each figure
written as pages write it, long text as a word diff, names never cut."""

import datetime as dt
import json
import re
from decimal import Decimal

import feedparser
import pytest
from reversion.models import Version

from editorial import selectors
from editorial.document_diff import plain, word_diff
from editorial.revisions import latest_version_id
from editorial.templatetags.preview import change_line
from tests import factories as f
from vendors.models import Vendor

pytestmark = pytest.mark.django_db

LONG_BEFORE = (
    "Eight stacks of HBM3E give each MI355X 288 GB of memory, enough to hold a model of 520 billion "
    "parameters on one accelerator at FP8."
)
LONG_AFTER = LONG_BEFORE.replace("520 billion", "more than 500 billion")


@pytest.fixture
def instinct(admin_client):
    """A live AMD Instinct profile (the reference data's MI355X: 288 GB of HBM3E) with one fact,
    one spec, one availability date, one price and one result, each citing the data sheet."""
    vendor = f.make_vendor(name="AMD Instinct", slug="amd-instinct")
    sheet = f.make_source(title="AMD Instinct MI355X data sheet")
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value=LONG_BEFORE, sources=[sheet])
    f.make_spec(vendor=vendor, chip="MI355X", quantity=288, unit="GB", sources=[sheet])
    f.make_availability(vendor=vendor, chip="MI355X", stage="ga", month=dt.date(2025, 6, 1), sources=[sheet])
    f.make_price(vendor=vendor, chip="MI355X", amount=Decimal("2.50"), sources=[sheet])
    f.make_result(vendor=vendor, chip="MI355X", sources=[sheet])
    assert f.admin_post_vendor_page(admin_client, vendor).status_code == 302
    f.publish(vendor)
    return vendor


def edit(client, vendor, change):
    response = f.admin_post_vendor_page(client, vendor, edit=change)
    assert response.status_code == 302, response.context and response.context["error_summary"]
    return Vendor.objects.get(pk=vendor.pk)


def working_changes(vendor):
    return selectors.unpublished_changes(vendor, live=selectors.live_version(vendor), pending=None)


def change_memory_and_add_bandwidth(rows):
    rows["specs"][0]["quantity"] = "256"
    rows["specs"].append({**rows["specs"][0], "id": "", "kind": "bandwidth", "quantity": "8", "unit": "TB/s"})


def test_a_spec_changed_and_a_spec_added_read_with_their_units_in_the_review(admin_client, instinct):
    change = change_memory_and_add_bandwidth
    lines = working_changes(edit(admin_client, instinct, change))

    assert "MI355X — Memory capacity: 288 GB -> 256 GB" in lines
    assert "Chip spec added: MI355X — Memory bandwidth: 8 TB/s" in lines
    assert not any("288.000000" in line or "256.000000" in line for line in lines)


def test_a_source_added_to_a_fact_is_in_the_review_and_the_change_log_alike_named_in_full(
    admin_client, client, instinct
):
    blog = f.make_source(title="AMD Instinct MI355X launch post")

    def change(rows):
        rows["facts"][0]["sources"] = [*rows["facts"][0]["sources"], blog.pk]

    vendor = edit(admin_client, instinct, change)
    assert working_changes(vendor) == ["Source added to Memory: AMD Instinct MI355X launch post"]

    f.publish(vendor)
    log = client.get("/vendors/amd-instinct/changes/").content.decode()
    assert "<li>Source added to Memory: AMD Instinct MI355X launch post</li>" in log


def test_a_long_fact_changed_reads_as_a_word_diff_in_the_review_and_the_change_log(
    admin_client, client, instinct
):
    def change(rows):
        rows["facts"][0]["value"] = LONG_AFTER

    vendor = edit(admin_client, instinct, change)
    (line,) = working_changes(vendor)
    assert line.startswith("Memory: ") and "[-520-] {+more than 500+} billion" in line

    admin_page = admin_client.get(f.admin_change_url(vendor)).content.decode()
    assert "<del>520</del> <ins>more than 500</ins> billion" in admin_page
    f.publish(vendor)
    log = client.get("/vendors/amd-instinct/changes/").content.decode()
    assert "<del>520</del> <ins>more than 500</ins> billion" in log
    assert "value changed" not in log


def test_a_price_availability_and_result_changed_are_listed_with_their_figures(admin_client, instinct):
    def change(rows):
        rows["prices"][0]["amount"] = "2.25"
        rows["availability"][0]["month"] = "2025-07"
        rows["results"][0]["value"] = "8200"

    lines = working_changes(edit(admin_client, instinct, change))

    assert "MI355X — Example Cloud, One chip, on demand: $2.50 per chip-hour -> $2.25 per chip-hour" in lines
    assert "MI355X — Generally available: Jun 2025 -> Jul 2025" in lines
    assert "MI355X — MLPerf Inference v5.0, Llama 2 70B, Offline: 8,000 tokens/s -> 8,200 tokens/s" in lines


def test_the_history_compare_page_writes_prices_as_the_public_pages_write_them(admin_client, instinct):
    def change(rows):
        rows["prices"][0].update(amount="2.25", currency="EUR")
        rows["prices"].append({**rows["prices"][0], "id": "", "offer": "Eight chips", "amount": "98.320000",
                               "currency": "USD", "per": "instance-hour"})  # fmt: skip

    vendor = edit(admin_client, instinct, change)
    older, newer = Version.objects.get_for_object(vendor).order_by("-pk")[:2][::-1]
    page = admin_client.get(
        f"/admin/vendors/vendor/{vendor.pk}/history/compare/", {"a": older.pk, "b": newer.pk}
    ).content.decode()

    changed = "MI355X — Example Cloud, One chip, on demand: $2.50 per chip-hour -&gt; €2.25 per chip-hour"
    assert changed in page
    assert "Chip price added: MI355X — Example Cloud, Eight chips: $98.32 per instance-hour" in page
    assert "2.5 -&gt; 2.25" not in page and "currency:" not in page and "98.320000" not in page


def test_a_chip_removed_lists_each_of_its_rows_removed(admin_client, instinct):
    def change(rows):
        for name in ("specs", "availability", "prices", "results"):
            for row in rows[name]:
                row["DELETE"] = "on"

    lines = working_changes(edit(admin_client, instinct, change))

    assert lines == [
        "Chip spec removed: MI355X — Memory capacity",
        "Availability removed: MI355X — Generally available",
        "Price removed: MI355X — Example Cloud, One chip, on demand",
        "Measured result removed: MI355X — MLPerf Inference v5.0, Llama 2 70B, Offline",
    ]


def marked(html, row_id):
    """The change mark on the table row ``row_id`` of a page, or None."""
    row = re.search(rf'<tr id="{row_id}"[^>]*>((?:(?!</tr>).)*)</tr>', html, re.S)
    found = re.search(r'<span class="change-mark change-\w+">(\w+)</span></td>', row.group(1))
    return found and found.group(1)


def test_the_framed_working_copy_marks_a_new_spec_new_and_a_changed_one_changed(admin_client, instinct):
    vendor = edit(admin_client, instinct, change_memory_and_add_bandwidth)
    html = admin_client.get("/vendors/amd-instinct/?frame").content.decode()

    new, changed = sorted(vendor.specs.all(), key=lambda spec: spec.kind)  # bandwidth, memory
    assert (marked(html, f"spec-{new.pk}"), marked(html, f"spec-{changed.pk}")) == ("New", "Changed")
    (availability,) = vendor.availability.all()
    assert marked(html, f"availability-{availability.pk}") is None
    assert html.count('class="change-mark') == 2  # the fact and the availability date are as live


def test_a_word_diff_is_escaped_and_never_styled_inline():
    line = "Verdict: " + word_diff("Uses <b>HBM3</b> memory " * 10, "Uses <b>HBM3E</b> memory " * 10)

    html = change_line(line)

    assert "<del>&lt;b&gt;HBM3&lt;/b&gt;</del>" in html and "<ins>&lt;b&gt;HBM3E&lt;/b&gt;</ins>" in html
    assert "<b>" not in html and "style=" not in html


def test_comparing_two_revisions_names_a_cited_row_in_full_and_word_diffs_long_text(admin_client, instinct):
    blog = f.make_source(title="AMD Instinct MI355X launch post")

    def change(rows):
        rows["facts"][0] |= {"value": LONG_AFTER, "sources": [*rows["facts"][0]["sources"], blog.pk]}

    vendor = edit(admin_client, instinct, change)
    edit(admin_client, vendor, lambda rows: None)  # the citations are in the next revision
    live, latest = selectors.live_version(vendor).source_version_id, latest_version_id(vendor)
    page = admin_client.get(
        f"/admin/vendors/vendor/{vendor.pk}/history/compare/", {"a": latest, "b": live}
    ).content.decode()

    assert "<li>Source added to Memory: AMD Instinct MI355X launch post</li>" in page
    assert "<del>520</del> <ins>more than 500</ins> billion" in page


def test_plain_writes_a_word_diff_as_text_with_the_old_and_the_new_words():
    replaced = "Memory: " + word_diff(LONG_BEFORE, LONG_AFTER)
    added = "Memory: " + word_diff(LONG_BEFORE, LONG_BEFORE.replace("enough", "easily enough"))
    removed = "Memory: " + word_diff(LONG_BEFORE, LONG_BEFORE.replace("enough to hold", "to hold"))

    assert plain(replaced) == "Memory: … hold a model of [520 -> more than 500] billion parameters on one …"
    assert plain(added) == "Memory: … 288 GB of memory, [added: easily] enough to hold a …"
    assert plain(removed) == "Memory: … 288 GB of memory, [removed: enough] to hold a model …"
    assert plain("Memory: 96 GB HBM3 -> 144 GB HBM3e") == "Memory: 96 GB HBM3 -> 144 GB HBM3e"


def published_long_fact_change(client, vendor):
    def change(rows):
        rows["facts"][0]["value"] = LONG_AFTER

    f.publish(edit(client, vendor, change))


def feed_summaries(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return [entry.summary for entry in feedparser.parse(response.content).entries]


def test_feeds_write_a_long_text_change_as_text_with_the_old_and_the_new_words(
    admin_client, client, instinct
):
    published_long_fact_change(admin_client, instinct)

    for url in ("/feeds/changes/", "/vendors/amd-instinct/feed/", f"/lanes/{instinct.lane.slug}/feed/"):
        newest = feed_summaries(client, url)[0]
        assert "Memory: … hold a model of [520 -> more than 500] billion parameters" in newest, url
        assert "[-" not in newest and "{+" not in newest, url


def test_the_api_versions_write_a_long_text_change_as_text_with_the_old_and_the_new_words(
    admin_client, client, instinct
):
    published_long_fact_change(admin_client, instinct)

    response = client.get("/api/v1/vendors/amd-instinct/versions/")

    assert response.status_code == 200
    newest = response.json()["results"][0]["changes"]
    assert newest == ["Memory: … hold a model of [520 -> more than 500] billion parameters on one …"]


def test_a_download_holds_a_changed_long_text_as_now_written_without_diff_marks(
    admin_client, client, instinct
):
    published_long_fact_change(admin_client, instinct)

    text = client.get("/data/vendors/amd-instinct.json").content.decode()
    values = [value["value"] for value in json.loads(text)["values"] if value["label"] == "Memory"]

    assert values == [LONG_AFTER]
    assert "[-" not in text and "{+" not in text
