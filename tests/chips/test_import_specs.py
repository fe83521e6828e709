"""A profile's chips in its CSV file: exported as spec rows and read back, row by row."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils.html import escape
from reversion.models import Version

from chips import units
from chips.models import Spec
from tests import factories as f
from tests.vendors.test_import import confirm, csv_text, export_url, upload
from vendors.importing import COLUMNS, export_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client):
    user = f.make_staff_user(group="Editor")
    client.force_login(user)
    return user


@pytest.fixture
def vendor():
    return f.make_vendor(name="AWS Trainium", slug="aws-trainium")


def spec_line(**cells):
    """One CSV row of kind spec, its cells named by column."""
    row = {name: "" for name in COLUMNS} | {"kind": "spec"} | cells
    return ",".join(row[name] for name in COLUMNS)


def specs_of(vendor):
    fields = [
        "chip",
        "kind",
        "quantity",
        "unit",
        "scope",
        "precision",
        "sparse",
        "vendor_stated",
        "verified_on",
    ]
    return [
        (*(getattr(spec, name) for name in fields), sorted(s.url for s in spec.sources.all()))
        for spec in vendor.specs.order_by("position", "pk")
    ]


def test_specs_exported_then_imported_into_an_empty_profile_come_back_the_same(client, editor, vendor):
    source = f.make_source()
    f.make_spec(
        vendor=vendor, chip="Trainium3", quantity=144, unit="GiB", vendor_stated=True, sources=[source]
    )
    f.make_spec(
        vendor=vendor,
        chip="Trainium3",
        kind="compute",
        quantity="2.52",
        unit="PFLOPS",
        precision="FP8",
        sparse=True,
        scope="system",
        verified_on=None,
    )
    f.make_spec(vendor=vendor, chip="Trainium2", kind="power", quantity=500, unit="W")
    before = specs_of(vendor)
    exported = client.get(export_url(vendor)).content

    other = f.make_vendor(name="Another Trainium", slug="another")
    Spec.objects.filter(vendor=vendor).delete()  # the chips' addresses are free again
    confirm(client, other, upload(client, other, exported))

    assert specs_of(other) == before


def test_export_then_import_of_specs_shows_every_row_unchanged(client, editor, vendor):
    f.make_spec(vendor=vendor, chip="Trainium3", quantity="7.37", unit="TB")
    f.make_spec(vendor=vendor, chip="Trainium3", kind="bandwidth", quantity="4.9", unit="TB/s")

    preview = upload(client, vendor, client.get(export_url(vendor)).content)

    assert [row.status for row in preview.context["plan"].rows] == ["unchanged", "unchanged"]


def test_a_spec_row_updates_the_spec_of_the_same_chip_and_measure(client, editor, vendor):
    spec = f.make_spec(vendor=vendor, chip="Trainium3", quantity=96, unit="GB")

    line = spec_line(label="Trainium3", value="144", measure="memory", unit="GB", verified_on="2026-11-30")
    preview = upload(client, vendor, csv_text(line))
    (row,) = preview.context["plan"].rows
    assert row.status == "changed"
    assert ("number", "96", "144") in row.changes
    confirm(client, vendor, preview)

    spec.refresh_from_db()
    assert (spec.quantity, spec.verified_on, spec.verified_by) == (
        Decimal(144),
        dt.date(2026, 11, 30),
        editor,
    )
    assert vendor.specs.count() == 1


def test_a_file_exported_before_not_stated_updates_its_specs_rather_than_adding_dense_copies(
    client, editor, vendor
):
    """Exports made before sparsity could be "not stated" wrote "no" on every spec."""
    compute = f.make_spec(
        vendor=vendor, chip="Trainium3", kind="compute", quantity="2517", unit="TFLOPS", precision="MXFP8"
    )
    memory = f.make_spec(vendor=vendor, chip="Trainium3", quantity="144", unit="GiB")
    lines = [
        spec_line(
            label="Trainium3",
            value="2517",
            measure="compute",
            unit="TFLOPS",
            precision="MXFP8",
            sparse="no",
            verified_on="2026-11-01",
        ),
        spec_line(
            label="Trainium3",
            value="144",
            measure="memory",
            unit="GiB",
            sparse="no",
            verified_on="2026-11-01",
        ),
    ]
    preview = upload(client, vendor, csv_text(*lines))
    compute_row, memory_row = preview.context["plan"].rows
    assert (compute_row.status, compute_row.changes) == ("changed", [("sparse", "(empty)", "no")])
    assert memory_row.status == "unchanged", memory_row.changes
    confirm(client, vendor, preview)

    assert vendor.specs.count() == 2
    compute.refresh_from_db()
    memory.refresh_from_db()
    assert (compute.sparse, memory.sparse) == (False, None)  # "no" says dense of a compute figure only


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ({"measure": "memory", "unit": "TB/s"}, lambda: units.check("memory", "TB/s")),
        ({"measure": "memory", "unit": "GBs"}, lambda: units.check("memory", "GBs")),
        ({"measure": "memory", "unit": "GB", "value": "lots"}, lambda: units.number("lots")),
    ],
    ids=["wrong-dimension", "unknown-unit", "not-a-number"],
)
def test_a_bad_unit_or_number_is_a_row_error_that_changes_nothing(client, editor, vendor, cells, expected):
    f.make_spec(vendor=vendor, chip="Trainium3", quantity=96, unit="GB")
    before = specs_of(vendor)
    revisions = Version.objects.get_for_object(vendor).count()
    with pytest.raises(units.UnitError) as refused:
        expected()
    good = spec_line(label="Trainium3", value="144", measure="memory", unit="GB")
    bad = spec_line(label="Trainium2", **({"value": "96"} | cells))

    preview = upload(client, vendor, csv_text(good, bad))

    plan = preview.context["plan"]
    assert [row.status for row in plan.rows] == ["changed", "error"]
    assert plan.rows[1].error == str(refused.value).rstrip(".")
    assert f'<a href="#row-3">Row 3</a>: {escape(plan.rows[1].error)}' in preview.content.decode()
    assert "Import these changes" not in preview.content.decode()
    assert specs_of(vendor) == before
    assert Version.objects.get_for_object(vendor).count() == revisions


@pytest.mark.parametrize(
    ("cells", "field"),
    [
        ({"measure": "compute", "unit": "PFLOPS"}, "precision"),  # compute without its precision
        ({"measure": "memory", "unit": "GB", "precision": "FP8"}, "precision"),  # precision on memory
        ({"measure": "memory", "unit": "GB", "value": "0"}, "zero"),
        ({"measure": "memory", "unit": "GB", "scope": "rack"}, "scope"),
        ({"measure": "area", "unit": "GB"}, "measure"),
    ],
)
def test_a_spec_row_the_change_page_would_refuse_is_a_row_error(client, editor, vendor, cells, field):
    line = spec_line(label="Trainium3", **({"value": "1"} | cells))

    (row,) = upload(client, vendor, csv_text(line)).context["plan"].rows

    assert row.status == "error"
    assert field in row.error
    assert not vendor.specs.exists()


def test_a_chip_another_vendor_has_is_a_row_error_naming_that_vendor(client, editor, vendor):
    other = f.make_vendor(name="Other Silicon")
    f.make_spec(vendor=other, chip="Trainium3")

    line = spec_line(label="trainium3", value="144", measure="memory", unit="GB")
    (row,) = upload(client, vendor, csv_text(line)).context["plan"].rows

    assert (row.status, row.error) == ("error", f"trainium3 is already a chip of {other.name}")


def test_spec_columns_on_a_fact_row_are_an_error(client, editor, vendor):
    f.make_attribute(name="Memory")
    line = ",".join(
        {"kind": "fact", "label": "Memory", "value": "96 GB", "unit": "GB"}.get(n, "") for n in COLUMNS
    )

    (row,) = upload(client, vendor, csv_text(line)).context["plan"].rows

    assert row.status == "error" and "unit" in row.error


def test_an_old_file_without_the_spec_columns_still_imports_facts(client, editor, vendor):
    f.make_attribute(name="Memory")
    old_header = "kind,label,value,reason,vendor_stated,verified_on,source_urls"
    text = f"{old_header}\nfact,Memory,96 GB,,no,2026-11-01,\n"

    confirm(client, vendor, upload(client, vendor, text))

    assert vendor.facts.get().value == "96 GB"


def test_the_export_writes_a_spec_row_with_its_measure_unit_and_scope(vendor):
    f.make_spec(
        vendor=vendor, chip="Trainium3", kind="compute", quantity="2.52", unit="PFLOPS", precision="FP8"
    )

    (row,) = export_rows(vendor=vendor)

    cells = dict(zip(COLUMNS, row, strict=True))
    assert {
        name: cells[name] for name in ("kind", "label", "value", "measure", "unit", "scope", "precision")
    } == {
        "kind": "spec",
        "label": "Trainium3",
        "value": "2.52",
        "measure": "compute",
        "unit": "PFLOPS",
        "scope": "chip",
        "precision": "FP8",
    }


# --- Availability rows ---------------------------------------------------------------------


def availability_line(**cells):
    row = {name: "" for name in COLUMNS} | {"kind": "availability"} | cells
    return ",".join(row[name] for name in COLUMNS)


def availability_of(vendor):
    return [
        (
            row.chip,
            row.stage,
            row.month,
            row.vendor_stated,
            row.verified_on,
            sorted(s.url for s in row.sources.all()),
        )
        for row in vendor.availability.order_by("position", "pk")
    ]


def test_availability_exported_then_imported_into_an_empty_profile_comes_back_the_same(
    client, editor, vendor
):
    source = f.make_source()
    f.make_availability(
        vendor=vendor, chip="Trainium3", stage="ga", month=dt.date(2025, 12, 1), sources=[source]
    )
    f.make_availability(
        vendor=vendor, chip="Trainium3", stage="announced", month=dt.date(2025, 12, 1), vendor_stated=True
    )
    before = availability_of(vendor)
    exported = client.get(export_url(vendor)).content
    assert b"availability,Trainium3,2025-12,,no,2026-11-01," in exported

    other = f.make_vendor(name="Another Trainium", slug="another")
    vendor.availability.all().delete()  # the chip's address is free again
    confirm(client, other, upload(client, other, exported))

    assert availability_of(other) == before


def test_an_availability_row_updates_the_same_chips_stage(client, editor, vendor):
    f.make_availability(vendor=vendor, chip="Trainium3", stage="ga", month=dt.date(2025, 11, 1))

    line = availability_line(label="Trainium3", value="2025-12", measure="ga", verified_on="2026-11-30")
    preview = upload(client, vendor, csv_text(line))
    (row,) = preview.context["plan"].rows
    assert row.status == "changed"
    assert ("month", "2025-11-01", "2025-12-01") in row.changes
    confirm(client, vendor, preview)

    assert availability_of(vendor)[0][:3] == ("Trainium3", "ga", dt.date(2025, 12, 1))


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        ({"value": "2025", "measure": "ga"}, "dated to the month"),
        ({"value": "2025-12-02", "measure": "ga"}, "dated to the month"),
        ({"value": "December", "measure": "ga"}, "is not a date"),
        ({"value": "2025-12", "measure": "shipping"}, "measure is announced, preview, ga"),
        ({"value": "2025-12", "measure": "ga", "unit": "GB"}, "unit is for spec and result rows only"),
    ],
)
def test_an_availability_row_that_is_not_a_stage_and_month_is_a_row_error(
    client, editor, vendor, cells, said
):
    (row,) = (
        upload(client, vendor, csv_text(availability_line(label="Trainium3", **cells))).context["plan"].rows
    )

    assert row.status == "error"
    assert said in row.error
    assert not vendor.availability.exists()
