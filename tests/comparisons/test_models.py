"""What the database itself refuses, whatever the admin or a script sends."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from comparisons.models import Assessment, ComparisonVendor, ComparisonVersion, Criterion
from editorial import services
from tests import factories as f

pytestmark = pytest.mark.django_db


def refused():
    """The statement fails at the database, and the test can go on using it."""
    return pytest.raises(IntegrityError)


def test_vendors_keep_their_column_order():
    a, b, c = f.make_vendor(), f.make_vendor(), f.make_vendor()
    comparison = f.make_comparison(vendors=[c, a, b])
    assert [entry.vendor for entry in comparison.entries.all()] == [c, a, b]
    assert set(comparison.vendors.all()) == {a, b, c}


def test_a_vendor_is_in_a_comparison_once():
    vendor = f.make_vendor()
    comparison = f.make_comparison(vendors=[vendor])
    with transaction.atomic(), refused():
        ComparisonVendor.objects.create(comparison=comparison, vendor=vendor, position=2)
    assert comparison.entries.count() == 1


def test_the_same_vendor_can_be_in_two_comparisons():
    vendor = f.make_vendor()
    f.make_comparison(vendors=[vendor])
    f.make_comparison(vendors=[vendor])
    assert vendor.comparisons.count() == 2


def test_a_compared_vendor_cannot_be_deleted():
    vendor = f.make_vendor()
    f.make_comparison(vendors=[vendor])
    with pytest.raises(ProtectedError):
        vendor.delete()


@pytest.mark.parametrize("mark", [0, 6])
def test_a_mark_outside_1_to_5_is_refused(mark):
    criterion = f.make_criterion()
    row = criterion.comparison.entries.create(vendor=f.make_vendor())
    assessment = Assessment(comparison=criterion.comparison, criterion=criterion, entry=row, mark=mark)
    with pytest.raises(ValidationError) as error:
        assessment.full_clean()
    assert list(error.value.message_dict) == ["mark"]
    with transaction.atomic(), refused():
        assessment.save()
    assert not Assessment.objects.exists()


@pytest.mark.parametrize("mark", [None, 1, 5])
def test_a_mark_from_1_to_5_or_none_is_kept(mark):
    assessment = f.make_assessment(mark=mark)
    assessment.full_clean()
    assert Assessment.objects.get().mark == mark


def test_one_assessment_per_vendor_and_criterion():
    assessment = f.make_assessment()
    with transaction.atomic(), refused():
        Assessment.objects.create(
            comparison=assessment.comparison, criterion=assessment.criterion, entry=assessment.entry
        )


def test_taking_a_vendor_out_of_a_comparison_takes_its_assessments():
    criterion = f.make_criterion()
    a, b = f.make_vendor(), f.make_vendor()
    f.make_assessment(criterion=criterion, vendor=a, sources=[f.make_source()])
    kept = f.make_assessment(criterion=criterion, vendor=b)

    criterion.comparison.entries.get(vendor=a).delete()

    assert list(Assessment.objects.all()) == [kept]
    assert [e.vendor for e in criterion.comparison.entries.all()] == [b]


@pytest.mark.parametrize("field", ["criterion", "entry"])
def test_an_assessment_naming_another_comparisons_criterion_or_vendor_row_does_not_validate(field):
    vendor = f.make_vendor()
    assessment = f.make_assessment(vendor=vendor)
    elsewhere = f.make_assessment(vendor=vendor)  # the same vendor, in another comparison
    setattr(assessment, field, getattr(elsewhere, field))

    with pytest.raises(ValidationError) as error:
        assessment.full_clean()

    assert error.value.message_dict == {field: ["Pick one of this comparison's own."]}


def test_a_criterion_points_to_an_attribute_or_an_axis_not_both():
    comparison, attribute, axis = f.make_comparison(), f.make_attribute(), f.make_axis()
    both = Criterion(comparison=comparison, name="Memory", attribute=attribute, axis=axis)
    with pytest.raises(ValidationError):
        both.full_clean()
    with transaction.atomic(), refused():
        both.save()
    f.make_criterion(comparison=comparison, name="Memory", attribute=attribute)
    f.make_criterion(comparison=comparison, name="Software", axis=axis)
    f.make_criterion(comparison=comparison, name="Price")
    assert comparison.criteria.count() == 3


def test_a_criterion_name_is_used_once_per_comparison():
    criterion = f.make_criterion(name="Price")
    with transaction.atomic(), refused():
        f.make_criterion(comparison=criterion.comparison, name="Price")
    f.make_criterion(name="Price")  # in another comparison


def test_criteria_keep_their_row_order():
    comparison = f.make_comparison()
    names = ["Speed", "Token price", "Company risk"]
    for position, name in zip([3, 1, 2], names, strict=True):
        f.make_criterion(comparison=comparison, name=name, position=position)
    assert [c.name for c in comparison.criteria.all()] == ["Token price", "Company risk", "Speed"]


def cite_on_assessment(source):
    f.make_assessment(sources=[source])


def cite_on_comparison(source):
    f.make_comparison().sources.add(source)


def cite_on_faq(source):
    f.make_comparison().faqs.create(question="Q?", answer="A.").sources.add(source)


@pytest.mark.parametrize("cite", [cite_on_assessment, cite_on_comparison, cite_on_faq])
def test_a_cited_source_cannot_be_deleted(cite):
    source = f.make_source()
    cite(source)
    with pytest.raises(ProtectedError):
        source.delete()
    assert type(source).objects.filter(pk=source.pk).exists()


def test_deleting_a_comparison_takes_its_rows_but_leaves_vendors_and_sources():
    vendor, source = f.make_vendor(), f.make_source()
    comparison = f.make_comparison(vendors=[vendor])
    comparison.sources.add(source)
    f.make_assessment(criterion=f.make_criterion(comparison=comparison), vendor=vendor, sources=[source])
    comparison.delete()
    assert not Criterion.objects.exists() and not Assessment.objects.exists()
    assert not ComparisonVendor.objects.exists()
    vendor.refresh_from_db()
    source.refresh_from_db()


def test_a_published_version_needs_a_publish_time_and_its_own_number():
    comparison = f.make_comparison()
    first = comparison.versions.get()
    columns = {"slug": comparison.slug, "title": comparison.title, "summary": comparison.summary}
    with transaction.atomic(), refused():
        ComparisonVersion.objects.create(item=comparison, number=2, published_at=None, document={}, **columns)
    with transaction.atomic(), refused():
        ComparisonVersion.objects.create(
            item=comparison, number=first.number, published_at=timezone.now(), document={}, **columns
        )
    assert list(comparison.versions.all()) == [first]
    draft = f.make_comparison(published=False)
    assert not draft.versions.exists()


def test_live_hides_drafts_scheduled_and_unpublished_comparisons():
    now = timezone.now()
    live = f.make_comparison()
    f.make_comparison(published=False)
    scheduled = f.make_comparison(published=False)
    f.publish(scheduled, at=now + dt.timedelta(days=1))
    taken_down = f.make_comparison()
    services.unpublish(obj=taken_down, user=None)

    assert [version.item for version in ComparisonVersion.objects.live()] == [live]
    assert [version.item for version in ComparisonVersion.objects.pending()] == [scheduled]
    assert live.versions.get().is_live and not scheduled.versions.get().is_live
    assert not taken_down.versions.get().is_live
    later = now + dt.timedelta(days=2)
    assert {version.item for version in ComparisonVersion.objects.live(at=later)} == {live, scheduled}
