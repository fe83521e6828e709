"""A vendor's chips edited on its change page, row by row, as its facts are."""

import datetime as dt
from decimal import Decimal

import pytest

from chips import units
from chips.models import Spec
from editorial import selectors
from tests import factories as f
from tests.factories import admin_change_url as change_url
from vendors.documents import document_of
from vendors.models import Vendor

pytestmark = pytest.mark.django_db


def spec_row(**fields):
    """A new row of the Chips section as the page posts it (an unticked box sends nothing)."""
    row = {
        "chip": "Trainium3",
        "kind": "memory",
        "quantity": "144",
        "unit": "GB",
        "scope": "chip",
        "precision": "",
        "verified_on": "2026-11-30",
        "sources": [],
        "position": "",
    }
    return {**row, **fields}


def post_with_spec(client, vendor, **fields):
    """The vendor's page posted back as it was opened, with one new spec row."""
    return f.admin_post_vendor_page(
        client, vendor, edit=lambda rows: rows["specs"].append(spec_row(**fields))
    )


def refused(response, field):
    """The refused save's messages for ``field`` of the new spec row, and the summary's entries."""
    assert response.status_code == 200, "the save was not refused"
    (specs,) = [i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == "specs"]
    return specs.forms[-1].errors.get(field, []), response.context["error_summary"]


@pytest.fixture
def vendor():
    return f.make_vendor(name="AWS Trainium")


def test_the_change_page_has_a_chips_section_in_its_menu(admin_client, vendor):
    f.make_spec(vendor=vendor, chip="Trainium3")
    response = admin_client.get(change_url(vendor))
    titles = [section.title for section in response.context["sections"]]
    assert "Chips" in titles
    assert titles.index("Chips") == titles.index("At a glance") + 1
    assert 'href="#section-chips"' in response.content.decode()
    assert 'name="specs-0-chip" value="Trainium3"' in response.content.decode()


def test_a_unit_of_the_wrong_dimension_is_an_error_on_the_rows_unit_and_saves_nothing(admin_client, vendor):
    response = post_with_spec(admin_client, vendor, kind="memory", unit="TB/s")

    with pytest.raises(units.UnitError) as expected:
        units.check("memory", "TB/s")
    messages, summary = refused(response, "unit")
    assert messages == [str(expected.value)]
    assert [(e.where, e.message) for e in summary] == [
        ("Trainium3 — Memory capacity — Unit", str(expected.value))
    ]
    assert not Spec.objects.exists()


def test_an_unknown_unit_is_an_error_on_the_rows_unit_naming_the_units_and_saves_nothing(
    admin_client, vendor
):
    response = post_with_spec(admin_client, vendor, unit="GBs")

    messages, summary = refused(response, "unit")
    assert len(messages) == 1 and "“GBs”" in messages[0]
    assert all(unit in messages[0] for unit in units.UNITS)
    assert [e.where for e in summary] == ["Trainium3 — Memory capacity — Unit"]
    assert not Spec.objects.exists()


def test_a_compute_spec_without_a_precision_is_refused_on_its_precision(admin_client, vendor):
    response = post_with_spec(admin_client, vendor, kind="compute", quantity="2.52", unit="PFLOPS")

    messages, summary = refused(response, "precision")
    assert messages, "no error on the precision"
    assert [e.where for e in summary] == ["Trainium3 — Compute — Precision"]
    assert not Spec.objects.exists()


def test_a_compute_spec_with_a_precision_saves(admin_client, vendor):
    response = post_with_spec(
        admin_client, vendor, kind="compute", quantity="2.52", unit="PFLOPS", precision="FP8"
    )

    assert response.status_code == 302, response.context and response.context["error_summary"]
    assert [(s.kind, s.precision, str(s.quantity.normalize())) for s in vendor.specs.all()] == [
        ("compute", "FP8", "2.52")
    ]


@pytest.mark.parametrize("quantity", ["0", "-3", "lots"])
def test_a_quantity_that_is_not_a_positive_number_is_refused_on_the_quantity(admin_client, vendor, quantity):
    response = post_with_spec(admin_client, vendor, quantity=quantity)

    messages, summary = refused(response, "quantity")
    assert len(messages) == 1
    assert [e.where for e in summary] == ["Trainium3 — Memory capacity — Quantity"]
    assert not Spec.objects.exists()


def test_a_chip_name_whose_address_another_vendor_has_is_refused_by_that_vendors_name(admin_client, vendor):
    other = f.make_vendor(name="Other Silicon")
    f.make_spec(vendor=other, chip="Trainium3")

    response = post_with_spec(admin_client, vendor, chip="TRAINIUM3")  # the same address, trainium3

    messages, _ = refused(response, "chip")
    assert messages == [f"TRAINIUM3 is already a chip of {other.name}."]
    assert not vendor.specs.exists()


def test_a_vendor_may_add_numbers_to_its_own_chip(admin_client, vendor):
    f.make_spec(vendor=vendor, chip="Trainium3")

    response = post_with_spec(
        admin_client, vendor, chip="Trainium3", kind="bandwidth", quantity="4.9", unit="TB/s"
    )

    assert response.status_code == 302, response.context and response.context["error_summary"]
    assert sorted(vendor.specs.values_list("kind", flat=True)) == ["bandwidth", "memory"]


def test_a_spec_saved_with_its_source_and_quote_is_published_in_the_vendors_document(admin_client, vendor):
    source = f.make_source(title="Trainium3 datasheet")
    response = post_with_spec(admin_client, vendor, sources=[source.pk], unit="GiB", vendor_stated="on")
    assert response.status_code == 302, response.context and response.context["error_summary"]
    (spec,) = vendor.specs.all()
    assert spec.verified_by is not None  # a date typed in is vouched for by whoever typed it

    # The evidence group is drawn once the row cites the source; the quote is typed then.
    quote = "144 GiB of HBM3e per chip"

    def give_quote(rows):
        rows["specs"][0]["evidence-quote"] = [quote]

    assert f.admin_post_vendor_page(admin_client, vendor, edit=give_quote).status_code == 302
    assert spec.speccitation_set.get().quote == quote

    version = f.publish(vendor)
    (chip,) = document_of(version).chips
    (published,) = chip.specs
    assert (chip.name, chip.slug) == ("Trainium3", spec.chip_slug)
    assert (published.kind, published.quantity, published.unit, published.vendor_stated) == (
        "memory",
        "144",
        "GiB",
        True,
    )
    assert (published.value, published.converted) == (Decimal("155"), "155 GB")
    assert published.sources == [source.pk]
    assert [evidence.quote for evidence in published.evidence] == [quote]


def test_editing_a_spec_on_the_change_page_and_publishing_puts_the_new_number_live(admin_client, vendor):
    spec = f.make_spec(vendor=vendor, chip="Trainium3", quantity=96)
    first = f.publish(vendor)

    def edit(rows):
        rows["specs"][0]["quantity"] = "144"

    assert f.admin_post_vendor_page(admin_client, vendor, edit=edit).status_code == 302
    vendor.refresh_from_db()
    assert selectors.state(vendor) == "Live + unpublished changes"
    assert document_of(selectors.live_version(vendor)).chips[0].specs[0].quantity == "96"

    version = f.publish(vendor)

    assert version != first
    assert selectors.live_version(vendor) == version
    (published,) = document_of(version).chips[0].specs
    assert (published.id, published.quantity) == (spec.pk, "144")


def test_the_chips_section_shows_no_empty_row_on_a_new_profile(admin_client):
    response = admin_client.get("/admin/vendors/vendor/add/")
    (specs,) = [i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == "specs"]
    assert len(specs.forms) == 0


def test_verified_dates_typed_for_a_spec_are_kept(admin_client, vendor):
    spec = f.make_spec(vendor=vendor, verified_on=dt.date(2026, 10, 1))

    def reverify(rows):
        rows["specs"][0]["verified_on"] = "2026-11-30"

    assert f.admin_post_vendor_page(admin_client, vendor, edit=reverify).status_code == 302
    spec.refresh_from_db()
    assert spec.verified_on == dt.date(2026, 11, 30)


@pytest.mark.parametrize("role", ["Editor", "Publisher"])
def test_editors_and_publishers_see_the_chips_section_and_save_a_spec(client, vendor, role):
    client.force_login(f.make_staff_user(group=role))
    response = client.get(change_url(vendor))
    assert "Chips" in [section.title for section in response.context["sections"]]

    response = post_with_spec(client, vendor)

    assert response.status_code == 302, response.context and response.context["error_summary"]
    assert vendor.specs.get().chip == "Trainium3"


def test_a_spec_changed_since_the_live_version_is_listed_by_its_chip_and_kind(admin_client, vendor):
    f.make_spec(vendor=vendor, chip="Trainium3", quantity=96, unit="GB")
    assert f.admin_post_vendor_page(admin_client, vendor).status_code == 302  # in a revision
    f.publish(vendor)

    def edit(rows):
        rows["specs"][0] |= {"quantity": "144", "unit": "GiB"}

    assert f.admin_post_vendor_page(admin_client, vendor, edit=edit).status_code == 302

    vendor = Vendor.objects.get(pk=vendor.pk)
    changes = selectors.unpublished_changes(vendor, live=selectors.live_version(vendor), pending=None)
    assert changes == ["Trainium3 — Memory capacity: 96 GB -> 144 GiB"]
