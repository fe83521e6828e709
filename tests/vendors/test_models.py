"""What the database itself refuses, whatever code tries to write."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from claims.models import Source
from editorial import services
from tests.factories import make_axis, make_event, make_fact, make_score, make_source, make_vendor, publish
from vendors.models import Event, Score, Vendor, VendorVersion

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", [0, 6])
def test_score_outside_1_to_5_is_refused_by_the_database(value):
    vendor, axis = make_vendor(), make_axis()
    with pytest.raises(IntegrityError), transaction.atomic():
        Score.objects.create(vendor=vendor, axis=axis, value=value)
    assert not Score.objects.exists()


@pytest.mark.parametrize("value", [0, 6])
def test_score_outside_1_to_5_is_a_validation_error_for_editors(value):
    score = Score(vendor=make_vendor(), axis=make_axis(), value=value)
    with pytest.raises(ValidationError) as error:
        score.full_clean()
    assert "value" in error.value.message_dict


def test_second_score_for_the_same_axis_is_refused():
    vendor, axis = make_vendor(), make_axis()
    make_score(vendor=vendor, axis=axis, value=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Score.objects.create(vendor=vendor, axis=axis, value=2)
    assert list(vendor.scores.values_list("value", flat=True)) == [4]


def test_duplicate_vendor_slug_is_refused():
    make_vendor(slug="aws-trainium")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_vendor(slug="aws-trainium")
    assert Vendor.objects.filter(slug="aws-trainium").count() == 1


def test_duplicate_source_url_is_refused():
    make_source(url="https://aws.amazon.com/ai/machine-learning/trainium/")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_source(url="https://aws.amazon.com/ai/machine-learning/trainium/")


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "JavaScript:alert(document.cookie)", "ftp://example.com/x", "data:text/html,x"],
)
def test_source_url_must_be_http_or_https_in_the_database(url):
    with pytest.raises(IntegrityError), transaction.atomic():
        Source.objects.create(title="Bad", url=url)
    assert not Source.objects.exists()


def test_javascript_source_url_is_a_validation_error_for_editors():
    source = Source(title="Bad", url="javascript:alert(1)")
    with pytest.raises(ValidationError) as error:
        source.full_clean()
    assert "url" in error.value.message_dict


def test_published_version_needs_a_publish_time():
    vendor = make_vendor(published=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        VendorVersion.objects.create(item=vendor, number=1, published_at=None, document={})
    assert not VendorVersion.objects.exists()


def test_a_version_number_is_used_once_per_vendor():
    vendor = make_vendor()
    with pytest.raises(IntegrityError), transaction.atomic():
        VendorVersion.objects.create(item=vendor, number=1, published_at=timezone.now(), document={})
    assert list(vendor.versions.values_list("number", flat=True)) == [1]


def test_cited_source_cannot_be_deleted_and_says_what_cites_it():
    vendor = make_vendor(name="AWS Trainium")
    source = make_source(title="Trainium3 launch post")
    make_fact(vendor=vendor, value="144 GB HBM3e", sources=[source])
    make_event(vendor=vendor, sources=[source])
    with pytest.raises(ProtectedError) as error:
        source.delete()
    cited = {str(obj) for obj in error.value.protected_objects}
    assert any("144 GB HBM3e" in text and "Trainium3 launch post" in text for text in cited)
    assert Source.objects.filter(pk=source.pk).exists()


def test_deleting_a_vendor_keeps_the_sources_it_cited():
    vendor = make_vendor()
    source = make_source()
    make_fact(vendor=vendor, sources=[source])
    vendor.delete()
    assert Source.objects.filter(pk=source.pk).exists()
    source.delete()  # nothing cites it any more
    assert not Source.objects.exists()


@pytest.mark.parametrize(
    ("precision", "given", "stored", "shown"),
    [
        (Event.Precision.DAY, dt.date(2025, 12, 2), dt.date(2025, 12, 2), "2 Dec 2025"),
        (Event.Precision.MONTH, dt.date(2025, 12, 2), dt.date(2025, 12, 1), "Dec 2025"),
        (Event.Precision.YEAR, dt.date(2026, 5, 17), dt.date(2026, 1, 1), "2026"),
    ],
)
def test_event_date_reads_at_its_precision(precision, given, stored, shown):
    event = make_event(vendor=make_vendor(), date=given, precision=precision)
    event.refresh_from_db()
    assert event.date == stored
    assert event.display_date == shown


def test_month_event_not_on_the_first_is_refused_by_the_database():
    vendor = make_vendor()
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.bulk_create(
            [Event(vendor=vendor, date=dt.date(2025, 12, 2), precision=Event.Precision.MONTH, text="x")]
        )


def test_live_versions_leave_out_drafts_scheduled_unpublished_and_superseded_versions():
    live = make_vendor()
    make_vendor(published=False)
    scheduled = make_vendor(published=False)
    publish(scheduled, at=timezone.now() + dt.timedelta(hours=1))
    services.unpublish(obj=make_vendor(), user=None)
    republished = make_vendor()
    newest = publish(republished)

    assert sorted(VendorVersion.objects.live().values_list("item", "number")) == [
        (live.pk, 1),
        (republished.pk, newest.number),
    ]
    assert newest.number == 2
    assert list(VendorVersion.objects.pending().values_list("item", flat=True)) == [scheduled.pk]


@pytest.mark.parametrize("slug", ["groq", "aws-trainium", "a_1", "slug-of-the-vendor-2"])
def test_a_profiles_address_is_the_one_django_reverses(slug):
    from django.urls import reverse

    from vendors.models.versions import profile_url

    assert profile_url(slug) == reverse("vendors:detail", kwargs={"slug": slug})
