"""Builders for test data: each returns a saved object with sensible defaults."""

import datetime as dt
import itertools

from django.contrib.auth import get_user_model
from django.utils import timezone

from comparisons.models import Assessment, Comparison, ComparisonVendor, Criterion
from editorial import services
from vendors.models import FAQ, Attribute, Axis, Event, Fact, Lane, Score, Source, Vendor

_seq = itertools.count(1)


def _n():
    return next(_seq)


def make_lane(**fields):
    n = _n()
    fields.setdefault("name", f"Lane {n}")
    fields.setdefault("slug", f"lane-{n}")
    return Lane.objects.create(**fields)


def make_attribute(**fields):
    n = _n()
    fields.setdefault("name", f"Attribute {n}")
    fields.setdefault("slug", f"attribute-{n}")
    fields.setdefault("position", n)
    return Attribute.objects.create(**fields)


def make_axis(**fields):
    n = _n()
    fields.setdefault("name", f"Axis {n}")
    fields.setdefault("slug", f"axis-{n}")
    fields.setdefault("position", n)
    return Axis.objects.create(**fields)


def make_source(**fields):
    n = _n()
    fields.setdefault("title", f"Source document {n}")
    fields.setdefault("publisher", "Example Publisher")
    fields.setdefault("url", f"https://example.com/doc/{n}")
    fields.setdefault("accessed_on", dt.date(2026, 11, 1))
    return Source.objects.create(**fields)


def publish(item, *, at=None, user=None, note=""):
    """Publish the working copy of a vendor or comparison as it stands (editorial.services.publish).

    ``at`` defaults to a day ago for a first version, so that it is live at once; a later
    publish defaults to now. Returns the new published version.
    """
    if at is None and not item.versions.exists():
        at = timezone.now() - dt.timedelta(days=1)
    return services.publish(obj=item, user=user, at=at, note=note)


def make_vendor(*, published=True, published_at=None, **fields):
    """A vendor; with ``published``, its first version is published at once (before any fact is
    added: call ``publish(vendor)`` again once its rows are in place)."""
    n = _n()
    fields.setdefault("name", f"Vendor {n}")
    fields.setdefault("slug", f"vendor-{n}")
    fields.setdefault("company", f"Company {n}")
    if "lane" not in fields:
        fields["lane"] = make_lane()
    fields.setdefault("summary", f"Summary of vendor {n}.")
    vendor = Vendor.objects.create(**fields)
    if published:
        publish(vendor, at=published_at)
    return vendor


def make_fact(*, vendor, attribute=None, sources=(), **fields):
    fields.setdefault("value", "A value")
    fields.setdefault("verified_on", dt.date(2026, 11, 1))
    fact = Fact.objects.create(vendor=vendor, attribute=attribute or make_attribute(), **fields)
    fact.sources.set(sources)
    return fact


def make_event(*, vendor, sources=(), **fields):
    fields.setdefault("date", dt.date(2026, 1, 1))
    fields.setdefault("precision", Event.Precision.MONTH)
    fields.setdefault("text", "Something changed.")
    event = Event.objects.create(vendor=vendor, **fields)
    event.sources.set(sources)
    return event


def make_score(*, vendor, axis=None, value=3, sources=(), **fields):
    score = Score.objects.create(vendor=vendor, axis=axis or make_axis(), value=value, **fields)
    score.sources.set(sources)
    return score


def make_faq(*, vendor, sources=(), **fields):
    fields.setdefault("question", "A question?")
    fields.setdefault("answer", "An answer.")
    faq = FAQ.objects.create(vendor=vendor, **fields)
    faq.sources.set(sources)
    return faq


def make_superuser(**fields):
    n = _n()
    return get_user_model().objects.create_superuser(
        fields.pop("username", f"admin{n}"), f"admin{n}@example.com", "pw", **fields
    )


def make_comparison(*, vendors=(), published=True, published_at=None, **fields):
    """A comparison with ``vendors`` as its columns, in the order given; with ``published``,
    published with them (call ``publish(comparison)`` again after adding criteria or FAQs)."""
    n = _n()
    fields.setdefault("title", f"Comparison {n}")
    fields.setdefault("slug", f"comparison-{n}")
    fields.setdefault("summary", f"Summary of comparison {n}.")
    comparison = Comparison.objects.create(**fields)
    for position, vendor in enumerate(vendors, start=1):
        ComparisonVendor.objects.create(comparison=comparison, vendor=vendor, position=position)
    if published:
        publish(comparison, at=published_at)
    return comparison


def make_criterion(*, comparison=None, **fields):
    n = _n()
    fields.setdefault("name", f"Criterion {n}")
    fields.setdefault("position", n)
    return Criterion.objects.create(comparison=comparison or make_comparison(), **fields)


def make_assessment(*, criterion=None, vendor=None, sources=(), **fields):
    assessment = Assessment.objects.create(
        criterion=criterion or make_criterion(), vendor=vendor or make_vendor(), **fields
    )
    assessment.sources.set(sources)
    return assessment


def make_staff_user(*, group, **fields):
    """A staff user in the named group (“Editor” or “Publisher”, created by a migration)."""
    n = _n()
    user = get_user_model().objects.create_user(
        fields.pop("username", f"staff{n}"), f"staff{n}@example.com", "pw", is_staff=True, **fields
    )
    user.groups.add(role_group(group))
    return user


def role_group(name):
    """The Editor or Publisher group the data migration creates, recreated if a transactional
    test's flush has removed it."""
    import importlib

    from django.contrib.auth.models import Group, Permission

    if not Group.objects.filter(name=name).exists():
        migration = importlib.import_module("vendors.migrations.0004_editor_and_publisher_groups")
        migration.build_groups(Group, Permission)
    return Group.objects.get(name=name)
