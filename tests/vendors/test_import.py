"""Facts, events and scores of one vendor from a CSV file: upload, preview, confirm; and export."""

import datetime as dt

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from reversion.models import Version

from tests import factories as f
from vendors.importing import COLUMNS, MAX_BYTES, MAX_ROWS
from vendors.models import Event, Fact, Score

pytestmark = pytest.mark.django_db

HEADER = ",".join(COLUMNS)


def import_url(vendor):
    return f"/admin/vendors/vendor/{vendor.pk}/import/"


def export_url(vendor):
    return f"/admin/vendors/vendor/{vendor.pk}/export/"


def upload(client, vendor, content, name="facts.csv"):
    data = content.encode() if isinstance(content, str) else content
    return client.post(import_url(vendor), {"file": SimpleUploadedFile(name, data, content_type="text/csv")})


def confirm(client, vendor, preview):
    """Press “Import these changes” on a preview page: post back its hidden fields."""
    fields = preview.context["confirm"].initial
    return client.post(import_url(vendor), {"payload": fields["payload"], "digest": fields["digest"]})


def csv_text(*rows):
    return "\n".join([HEADER, *rows]) + "\n"


@pytest.fixture
def editor(client):
    user = f.make_staff_user(group="Editor")
    client.force_login(user)
    return user


@pytest.fixture
def attributes():
    names = ["Company", "Current chips", "Architecture", "Memory", "Software"]
    return [f.make_attribute(name=name) for name in names]


@pytest.fixture
def vendor():
    return f.make_vendor(name="AWS Trainium", slug="aws-trainium")


def twenty_facts(source):
    names = ["Company", "Current chips", "Architecture", "Memory", "Software"]
    stated = ["no", "yes"]
    return [
        f"fact,{names[i % 5]},Imported value {i:02d},,{stated[i % 2]},2026-11-0{1 + i % 9},{source.url}"
        for i in range(20)
    ]


def test_twenty_facts_are_previewed_then_written_when_the_editor_confirms(client, editor, vendor, attributes):
    source = f.make_source()
    preview = upload(client, vendor, csv_text(*twenty_facts(source)))

    assert preview.status_code == 200
    page = preview.content.decode()
    assert "20 new" in page and "0 with errors" in page
    assert "Import these changes" in page
    assert not Fact.objects.filter(vendor=vendor).exists()  # a preview writes nothing

    response = confirm(client, vendor, preview)

    assert response.status_code == 302 and response["Location"].endswith(f"/{vendor.pk}/change/")
    facts = list(Fact.objects.filter(vendor=vendor, value__startswith="Imported value").order_by("value"))
    assert len(facts) == 20
    assert facts[3].attribute.name == "Memory" and facts[3].vendor_stated is True
    assert facts[3].verified_on == dt.date(2026, 11, 4) and facts[3].verified_by == editor
    assert [s.pk for s in facts[0].sources.all()] == [source.pk]


def test_an_import_records_one_revision_naming_the_file(client, editor, vendor, attributes):
    source = f.make_source()
    confirm(client, vendor, upload(client, vendor, csv_text(*twenty_facts(source)), name="facts.csv"))

    newest = Version.objects.get_for_object(vendor).order_by("-pk").first()
    assert newest.revision.comment == "Imported 20 rows from facts.csv: 20 new, 0 changed."
    assert newest.revision.user == editor


def test_an_import_changes_the_working_copy_but_not_the_live_page_until_published(
    client, visitor, editor, vendor, attributes
):
    f.make_fact(vendor=vendor, attribute=attributes[3], value="32 GB HBM")
    f.publish(vendor)
    preview = upload(client, vendor, csv_text("fact,Memory,96 GB HBM3,,yes,2026-11-20,"))
    assert "32 GB HBM" in preview.content.decode() and "96 GB HBM3" in preview.content.decode()

    confirm(client, vendor, preview)

    vendor.refresh_from_db()
    assert vendor.has_unpublished_changes
    assert Fact.objects.get(vendor=vendor).value == "96 GB HBM3"
    live = visitor.get(vendor.get_absolute_url()).content.decode()
    assert "32 GB HBM" in live and "96 GB HBM3" not in live

    f.publish(vendor)
    assert "96 GB HBM3" in visitor.get(vendor.get_absolute_url()).content.decode()


def test_rows_with_errors_are_each_named_and_nothing_can_be_imported(client, editor, vendor, attributes):
    rows = [f"fact,Company,Row {n},,no,," for n in range(2, 7)]
    rows += [
        "fact,Memroy,96 GB,,no,,",  # row 7
        "event,2024-13,Trainium3 announced,,,,",
        "score,Performance,4,,,,",
        "fact,Memory,96 GB,,no,,https://nowhere.example/spec",
        "fact,Memory,96 GB,,no,30/11/2026,",
    ]
    response = upload(client, vendor, csv_text(*rows))

    page = response.content.decode()
    assert "Row 7</a>: no attribute called “Memroy”" in page
    assert "Row 8</a>: “2024-13” has no month 13" in page
    assert "Row 9</a>: no axis called “Performance”" in page
    assert "Row 10</a>: no source has the URL “https://nowhere.example/spec”" in page
    assert "Row 11</a>: verified_on “30/11/2026” is not a day" in page
    assert "Import these changes" not in page

    # Even a confirmation sent by hand for that file writes nothing.
    payload = signing.dumps(
        {"vendor": vendor.pk, "name": "facts.csv", "csv": csv_text(*rows)},
        salt="vendors.import",
        compress=True,
    )
    client.post(import_url(vendor), {"payload": payload, "digest": response.context["plan"].digest})
    assert not Fact.objects.filter(vendor=vendor).exists()


def test_export_then_import_shows_every_row_unchanged(client, editor, vendor, attributes):
    sources = [f.make_source(), f.make_source()]
    axis = f.make_axis(name="Performance")
    f.make_fact(
        vendor=vendor, attribute=attributes[3], value="96 GB HBM3", sources=sources, vendor_stated=True
    )
    f.make_fact(vendor=vendor, attribute=attributes[3], value='=HYPERLINK("x")', verified_on=None)
    f.make_fact(vendor=vendor, attribute=attributes[0], value='-40 °C, "quoted",\nsecond line')
    f.make_event(
        vendor=vendor, date=dt.date(2024, 6, 1), precision=Event.Precision.MONTH, sources=sources[:1]
    )
    f.make_event(vendor=vendor, date=dt.date(2025, 1, 1), precision=Event.Precision.YEAR, text="+1 region")
    f.make_event(vendor=vendor, date=dt.date(2025, 12, 3), precision=Event.Precision.DAY, text="@launch")
    f.make_score(
        vendor=vendor, axis=axis, value=4, reason="Fast, at scale.", verified_on=dt.date(2026, 10, 1)
    )

    exported = client.get(export_url(vendor))
    assert exported["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="aws-trainium.csv"' in exported["Content-Disposition"]
    text = exported.content.decode("utf-8")
    assert "'=HYPERLINK" in text  # a spreadsheet opening the export shows text, runs nothing

    preview = upload(client, vendor, exported.content, name="aws-trainium.csv")

    plan = preview.context["plan"]
    assert [row.status for row in plan.rows] == ["unchanged"] * 7
    assert "nothing to import" in preview.content.decode()
    assert "Import these changes" not in preview.content.decode()


def test_a_formula_looking_cell_is_stored_as_plain_text(client, editor, vendor, attributes):
    confirm(
        client,
        vendor,
        upload(client, vendor, csv_text('fact,Memory,"=1+1",,no,,', "fact,Memory,'=2+2,,no,,")),
    )

    assert list(Fact.objects.filter(vendor=vendor).values_list("value", flat=True)) == ["=1+1", "=2+2"]


def test_changed_rows_show_old_and_new_and_events_keep_their_precision(client, editor, vendor, attributes):
    axis = f.make_axis(name="Performance")
    f.make_score(vendor=vendor, axis=axis, value=3, reason="Good.")
    preview = upload(
        client,
        vendor,
        csv_text("score,performance,5,Best in class.,,2026-11-30,", "event,2024-06,Trainium2 shipped,,,,"),
    )
    page = preview.content.decode()
    assert "<del>3</del> → <ins>5</ins>" in page and "<del>Good.</del> → <ins>Best in class.</ins>" in page

    confirm(client, vendor, preview)

    score = Score.objects.get(vendor=vendor)
    assert (score.value, score.reason, score.verified_by) == (5, "Best in class.", editor)
    event = Event.objects.get(vendor=vendor)
    assert (event.date, event.precision, event.display_date) == (dt.date(2024, 6, 1), "month", "Jun 2024")


def test_a_profile_saved_after_the_preview_is_previewed_again_not_overwritten(
    client, editor, vendor, attributes
):
    fact = f.make_fact(vendor=vendor, attribute=attributes[3], value="32 GB")
    preview = upload(client, vendor, csv_text("fact,Memory,96 GB,,no,2026-11-01,"))
    Fact.objects.filter(pk=fact.pk).update(value="64 GB")  # someone else saved meanwhile

    response = confirm(client, vendor, preview)

    assert response.status_code == 200
    assert "The profile changed after your preview" in response.content.decode()
    assert "<del>64 GB</del>" in response.content.decode()
    assert Fact.objects.get(pk=fact.pk).value == "64 GB"


def test_a_confirmation_not_signed_by_the_site_writes_nothing(client, editor, vendor, attributes):
    payload = signing.dumps({"vendor": vendor.pk, "name": "x.csv", "csv": csv_text("fact,Memory,1,,no,,")})

    response = client.post(import_url(vendor), {"payload": payload[:-3] + "abc", "digest": "x"})

    assert response.status_code == 200
    assert "This preview has expired: upload the file again." in response.content.decode()
    assert not Fact.objects.exists()


def test_a_file_over_the_size_limit_is_refused_with_the_limit_named(client, editor, vendor, attributes):
    big = csv_text(*["fact,Memory," + "x" * 1000 + ",,no,,"] * 1100)
    assert len(big) > MAX_BYTES

    response = upload(client, vendor, big)

    assert response.status_code == 200
    assert "the limit is 1 MB" in response.content.decode()
    assert "Preview of" not in response.content.decode()


def test_a_file_just_under_both_limits_is_previewed_and_imported(client, editor, vendor, attributes):
    filler = "x" * 440
    content = csv_text(*[f"fact,{attributes[n % 5].name},{n:04d} {filler},,no,," for n in range(MAX_ROWS)])
    assert 0.9 * MAX_BYTES < len(content.encode()) < MAX_BYTES

    preview = upload(client, vendor, content)
    assert preview.context["plan"].counts["new"] == MAX_ROWS

    response = confirm(client, vendor, preview)

    assert response.status_code == 302
    assert Fact.objects.filter(vendor=vendor).count() == MAX_ROWS


def test_a_file_with_too_many_rows_is_refused(client, editor, vendor, attributes):
    response = upload(client, vendor, csv_text(*["fact,Memory,1,,no,,"] * (MAX_ROWS + 1)))

    assert f"The file has {MAX_ROWS + 1:,} rows: the limit is {MAX_ROWS:,}" in response.content.decode()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (csv_text("fact,Memory,Mémoire 96 Go,,no,,").encode("latin-1"), "The file is not UTF-8 text"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "This is not a CSV file"),
        (b"", "The file is empty"),  # Django's own “The submitted file is empty.” comes first
        ("name,value\nMemory,96 GB\n", "The first row must name the columns"),
        ('kind,label,value\nfact,Memory,"96 GB\n', "is not valid CSV"),
        (HEADER + "\n", "no rows under it"),
        ("kind;label;value\nfact;Memory;96 GB\n", "separated by semicolons"),
        ("kind,label,value,value\nfact,Memory,1,2\n", "names a column twice"),
    ],
    ids=["latin-1", "png", "empty", "wrong-header", "open-quote", "header-only", "semicolons", "twice"],
)
def test_a_file_that_is_not_utf8_csv_is_a_form_error(client, editor, vendor, attributes, content, message):
    response = upload(client, vendor, content)

    assert response.status_code == 200
    page = response.content.decode()
    assert message in page or "The submitted file is empty" in page
    assert not Fact.objects.exists()


def test_a_file_with_a_byte_order_mark_is_read(client, editor, vendor, attributes):
    response = upload(client, vendor, "\ufeff" + csv_text("fact,Memory,96 GB,,no,,"))

    assert [row.status for row in response.context["plan"].rows] == ["new"]


@pytest.mark.parametrize("group", ["Editor", "Publisher"])
def test_editors_and_publishers_may_import_and_export(client, vendor, group):
    client.force_login(f.make_staff_user(group=group))

    assert client.get(import_url(vendor)).status_code == 200
    assert client.get(export_url(vendor)).status_code == 200


def test_staff_without_the_change_permission_get_403(client, vendor, attributes):
    outsider = f.make_staff_user(group="Editor")
    outsider.groups.clear()
    client.force_login(outsider)

    assert client.get(import_url(vendor)).status_code == 403
    assert client.get(export_url(vendor)).status_code == 403
    assert upload(client, vendor, csv_text("fact,Memory,96 GB,,no,,")).status_code == 403
    assert not Fact.objects.exists()


def test_the_change_page_links_to_import_and_export(client, editor, vendor):
    page = client.get(f"/admin/vendors/vendor/{vendor.pk}/change/").content.decode()

    assert f'href="{import_url(vendor)}">Import facts, chips, events and scores from CSV</a>' in page
    assert f'href="{export_url(vendor)}"' in page and "Export as CSV" in page


# Session, user and permissions; the vendor; attributes, axes and the sources named; the
# profile's facts, specs, availability, prices, results, events and scores with their sources
# (each one query, and a prefetch when it has rows); the chips other vendors have.
PREVIEW_QUERIES = 19


@pytest.mark.parametrize("count", [5, 100])
def test_the_preview_takes_the_same_queries_for_5_or_100_rows(
    client, editor, vendor, attributes, django_assert_num_queries, count
):
    axes = [f.make_axis(name=f"Axis {n}") for n in range(5)]
    sources = [f.make_source() for _ in range(10)]
    for n in range(10):
        f.make_fact(vendor=vendor, attribute=attributes[n % 5], value=f"Old {n}", sources=sources[:2])
    f.make_event(vendor=vendor, sources=sources[:1])
    kinds = [
        lambda n: f"fact,{attributes[n % 5].name},Value {n},,no,2026-11-01,{sources[n % 10].url}",
        lambda n: f"event,2025-{1 + n % 12:02d},Event {n},,,,{sources[n % 10].url}|{sources[0].url}",
        lambda n: f"score,{axes[n % 5].name},{1 + n % 5},Reason {n},,,",
        lambda n: f"spec,Chip {n % 7},{n + 1},,yes,2026-11-01,{sources[n % 10].url},memory,GB,,,",
    ]
    content = csv_text(*[kinds[n % 4](n) for n in range(count)])

    with django_assert_num_queries(PREVIEW_QUERIES):
        response = upload(client, vendor, content)

    assert response.status_code == 200
    assert response.content.decode().count('class="import-row ') == count  # every row is shown
