"""Builders for test data: each returns a saved object with sensible defaults."""

import datetime as dt
import itertools
import re
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from chips.models import Availability, Spec
from claims.models import Source
from comparisons.models import Assessment, Comparison, ComparisonVendor, Criterion
from editorial import services
from vendors.models import FAQ, Attribute, Axis, Event, Fact, Lane, Score, Vendor

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
    if fields.get("problem_on") and "problem_at" not in fields:
        # A problem found on a day, as the checks record it: that day's start (UTC).
        fields["problem_at"] = dt.datetime.combine(fields["problem_on"], dt.time.min, tzinfo=dt.UTC)
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


def make_spec(*, vendor, sources=(), **fields):
    """A spec of ``vendor``: by default 144 GB of memory per chip of a chip named after the vendor."""
    fields.setdefault("chip", f"{vendor.name} Chip")
    fields.setdefault("kind", "memory")
    fields.setdefault("quantity", 144)
    fields.setdefault("unit", "GB")
    fields.setdefault("verified_on", dt.date(2026, 11, 1))
    spec = Spec(vendor=vendor, **fields)
    spec.full_clean(exclude=["vendor"])  # a factory never makes a spec the form would refuse
    spec.save()
    spec.sources.set(sources)
    return spec


def make_availability(*, vendor, sources=(), **fields):
    """An availability date of ``vendor``'s chip: by default generally available in October 2025."""
    fields.setdefault("chip", f"{vendor.name} Chip")
    fields.setdefault("stage", "ga")
    fields.setdefault("month", dt.date(2025, 10, 1))
    fields.setdefault("verified_on", dt.date(2026, 11, 1))
    row = Availability(vendor=vendor, **fields)
    row.full_clean(exclude=["vendor"])
    row.save()
    row.sources.set(sources)
    return row


def make_price(*, vendor, sources=(), **fields):
    """A price of ``vendor``'s chip: by default $2.50 on demand per chip-hour at “Example Cloud”."""
    from chips.models import Price

    fields.setdefault("chip", f"{vendor.name} Chip")
    fields.setdefault("provider", "Example Cloud")
    fields.setdefault("offer", "One chip, on demand")
    fields.setdefault("kind", "on-demand")
    fields.setdefault("amount", Decimal("2.50"))
    fields.setdefault("currency", "USD")
    fields.setdefault("per", "chip-hour")
    fields.setdefault("verified_on", dt.date(2026, 11, 1))
    row = Price(vendor=vendor, **fields)
    row.full_clean(exclude=["vendor"])
    row.save()
    row.sources.set(sources)
    return row


def make_result(*, vendor, sources=(), **fields):
    """A measured result of ``vendor``'s chip: by default 8,000 tokens/s on an 8-chip server."""
    from chips.models import Result

    fields.setdefault("chip", f"{vendor.name} Chip")
    fields.setdefault("system", "8-chip server")
    fields.setdefault("chips_in_system", 8)
    fields.setdefault("suite", "MLPerf Inference")
    fields.setdefault("suite_version", "v5.0")
    fields.setdefault("workload", "Llama 2 70B")
    fields.setdefault("scenario", "Offline")
    fields.setdefault("metric", "throughput")
    fields.setdefault("value", Decimal("8000"))
    fields.setdefault("unit", "tokens/s")
    fields.setdefault("verified_on", dt.date(2026, 11, 1))
    row = Result(vendor=vendor, **fields)
    row.full_clean(exclude=["vendor"])
    row.save()
    row.sources.set(sources)
    return row


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
    """An assessment of ``vendor``, put in the criterion's comparison if it is not there yet."""
    criterion = criterion or make_criterion()
    entry, _ = ComparisonVendor.objects.get_or_create(
        comparison=criterion.comparison,
        vendor=vendor or make_vendor(),
        defaults={"position": criterion.comparison.entries.count() + 1},
    )
    assessment = Assessment.objects.create(
        comparison=criterion.comparison, criterion=criterion, entry=entry, **fields
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
        importlib.import_module("corrections.migrations.0002_editor_and_publisher_may_decide").grant(
            Group, Permission
        )
        importlib.import_module("chips.migrations.0002_content_types_and_tables").grant(Group, Permission)
        importlib.import_module("chips.migrations.0006_price_and_result_permissions").grant(Group, Permission)
    return Group.objects.get(name=name)


# --- The admin's change forms, as a browser sends them back (tests/vendors) -----------------
# They build POST data only; nothing is saved until the test posts it.


def admin_change_url(obj):
    opts = obj._meta
    return f"/admin/{opts.app_label}/{opts.model_name}/{obj.pk}/change/"


def admin_inline_rows(prefix, rows, initial=0):
    """A formset's management form plus its rows as ``prefix-i-field`` keys."""
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{key}": value for key, value in row.items()})
    return data


def admin_rows_on_page(response):
    """Every inline row of a change page as rendered, i.e. what the browser sends back unchanged:
    ({prefix: [row, ...]}, {prefix: initial form count})."""
    from django import forms

    def sent(field, value):  # an empty multi-select sends nothing; an empty input sends ""
        if value is None:
            return [] if isinstance(field, forms.ModelMultipleChoiceField) else ""
        return value

    from claims.admin.evidence import PARTS, EvidenceField

    def fields_sent(form):
        row = {}
        for name, field in form.fields.items():
            value = form[name].value()
            if isinstance(field, EvidenceField):  # a group of three inputs per cited source
                for part in PARTS:
                    row[f"{name}-{part}"] = [str(entry[part]) for entry in value or []]
            else:
                row[name] = sent(field, value)
        return row

    rows, initial = {}, {}
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        initial[formset.prefix] = formset.initial_form_count()
        rows[formset.prefix] = [fields_sent(form) for form in formset.forms]
    return rows, initial


VENDOR_ADMIN_INLINES = ["facts", "events", "scores", "faqs", "specs", "availability", "prices", "results"]
VENDOR_ADMIN_TEXT = ["name", "slug", "company", "logo_alt", "summary", "what_it_is", "best_for", "watch_out",
                     "verdict", "alternative_blurb"]  # fmt: skip


def vendor_admin_post(vendor, *, rows=None, initial=None, **overrides):
    """The vendor change form as its page posts it back: the vendor's own fields as saved
    (unless overridden), the revision the page was opened at, and the six inline formsets
    (``rows`` and ``initial`` as admin_rows_on_page returns them; empty when not given)."""
    from editorial.revisions import latest_version_id

    rows, initial = rows or {}, initial or {}
    data = {name: getattr(vendor, name) or "" for name in VENDOR_ADMIN_TEXT}
    data |= {"lane": vendor.lane_id, "opened_revision": latest_version_id(vendor)}
    for prefix in VENDOR_ADMIN_INLINES:
        data.update(admin_inline_rows(prefix, rows.get(prefix, []), initial.get(prefix, 0)))
    return data | overrides


# --- Many published vendors at once, for data-size tests (tests/vendors/test_views.py) --------


def make_published_vendors(count, *, lanes, axes=(), attribute=None):
    """``count`` live vendors written in bulk, spread over ``lanes``: each with one verified
    fact (under ``attribute``) and a score on every axis in ``axes``, and a first published
    version live since a day ago, as make_vendor then publish would leave them, in a
    handful of queries per hundred vendors instead of some forty per vendor.

    The version's document and columns come from the app's own publication (vendors/
    publishing.py), from the rows written here; no revision is recorded.
    """
    from editorial.registry import publication_for
    from vendors.models import VendorVersion, VersionScore
    from vendors.publishing import vendor_documents

    publication = publication_for(Vendor)
    attribute = attribute or make_attribute()
    axes = list(axes)
    numbers = [_n() for _ in range(count)]
    vendors = Vendor.objects.bulk_create(
        Vendor(
            name=f"Bulk vendor {n}",
            slug=f"bulk-vendor-{n}",
            company=f"Company {n}",
            lane=lanes[i % len(lanes)],
            summary=f"Summary of vendor {n}.",
            has_unpublished_changes=False,
        )
        for i, n in enumerate(numbers)
    )
    Fact.objects.bulk_create(
        Fact(vendor=vendor, attribute=attribute, value="A value", verified_on=dt.date(2026, 11, 1))
        for vendor in vendors
    )
    Score.objects.bulk_create(
        Score(vendor=vendor, axis=axis, value=1 + (i + j) % 5)
        for i, vendor in enumerate(vendors)
        for j, axis in enumerate(axes)
    )
    published_at = timezone.now() - dt.timedelta(days=1)
    # The documents come from publishing's own bulk builder: the same schema, built once.
    documents = vendor_documents(Vendor.objects.filter(pk__in=[vendor.pk for vendor in vendors]))
    versions = [
        VendorVersion(
            item=vendor,
            number=1,
            published_at=published_at,
            document=documents[vendor.pk],
            **publication.columns(documents[vendor.pk]),
        )
        for vendor in vendors
    ]
    versions = VendorVersion.objects.bulk_create(versions)
    VersionScore.objects.bulk_create(
        VersionScore(version=version, axis_id=score["axis"]["id"], value=score["value"])
        for version in versions
        for score in version.document["scores"]
    )
    return vendors


# --- Driving the workflow and the one-page editors as a browser does ---------------------


def admin_workflow_url(item, step):
    """The admin's publishing button ``step`` (publish, schedule, discard, ...) for ``item``."""
    opts = item._meta
    return f"/admin/{opts.app_label}/{opts.model_name}/{item.pk}/workflow/{step}/"


def admin_post_vendor_page(client, vendor, *, edit=None, **fields):
    """GET the vendor's change page, let ``edit`` change its inline rows, POST it all back."""
    rows, initial = admin_rows_on_page(client.get(admin_change_url(vendor)))
    if edit:
        edit(rows)
    return client.post(
        admin_change_url(vendor), vendor_admin_post(vendor, rows=rows, initial=initial, **fields)
    )


def comparison_admin_fields(comparison, **overrides):
    """The comparison change form's own fields, as saved unless overridden."""
    from editorial.revisions import latest_version_id

    data = {
        name: getattr(comparison, name) or "" for name in ["title", "slug", "summary", "intro", "verdict"]
    }
    data["verified_on"] = comparison.verified_on.isoformat() if comparison.verified_on else ""
    data["sources"] = [source.pk for source in comparison.sources.all()]
    data["opened_revision"] = latest_version_id(comparison)
    return data | overrides


def inline_scripts(html):
    """Script elements the strict CSP would refuse: inline code. A script with ``src`` loads a
    file from the site, and a JSON-LD block is data the browser never runs."""
    return re.findall(r'<script(?![^>]*\bsrc=)(?![^>]*type="application/ld\+json")[^>]*>', html)
