"""Migrations 0006-0008: assessments move from the vendor to its comparison row, old revisions too."""

import json

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from reversion.models import Revision, Version

from comparisons.models import Assessment
from tests import factories as f

BEFORE = [("comparisons", "0005_slug_help_text")]
AFTER = [("comparisons", "0008_assessment_entry_required")]


def version(revision, model, pk, serialized_data):
    """A revision's row as django-reversion stores it."""
    return Version.objects.create(
        revision=revision,
        object_id=str(pk),
        content_type=ContentType.objects.get_for_model(model),
        db="default",
        format="json",
        serialized_data=serialized_data,
        object_repr=str(pk),
    )


def recorded(revision, obj):
    """``obj`` recorded in ``revision``: for the rows whose table the migration leaves as it was."""
    return version(revision, type(obj), obj.pk, serializers.serialize("json", [obj]))


def recorded_assessment(revision, pk, fields):
    """An assessment recorded before the migration: it named the vendor."""
    data = [{"model": "comparisons.assessment", "pk": pk, "fields": fields}]
    return version(revision, Assessment, pk, json.dumps(data))


@pytest.mark.django_db(transaction=True)
def test_assessments_move_to_their_vendor_rows_and_an_old_revision_still_reverts():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        OldAssessment = old.get_model("comparisons", "Assessment")
        # Drafts: a publish records a revision following every table, and at this schema sources
        # and chips have their tables of before the move to claims and chips (vendors 0021-0022).
        a, b, gone = (f.make_vendor(name=name, published=False) for name in ("Alpha", "Beta", "Gone"))
        comparison = f.make_comparison(vendors=[a, b], published=False)
        price = f.make_criterion(comparison=comparison, name="Price")
        row_a, row_b = comparison.entries.all()
        kept = OldAssessment.objects.create(criterion_id=price.pk, vendor_id=a.pk, value="Cheap")
        OldAssessment.objects.create(criterion_id=price.pk, vendor_id=b.pk, value="Dear")
        # A vendor taken out of the comparison left this one behind: shown nowhere.
        orphan = OldAssessment.objects.create(criterion_id=price.pk, vendor_id=gone.pk, value="Lost")

        # A revision recorded before: the comparison, its row for Alpha, the criterion, an assessment.
        revision = Revision.objects.create(comment="Before the migration", date_created=timezone.now())
        for obj in (comparison, row_a, price):
            recorded(revision, obj)
        fields = {"criterion": price.pk, "vendor": a.pk, "value": "Was cheap", "mark": None, "reason": "",
                  "vendor_stated": False}  # fmt: skip
        recorded_assessment(revision, kept.pk, fields)
        recorded_assessment(revision, orphan.pk, {**fields, "vendor": gone.pk, "value": "Lost then"})
    finally:
        executor.loader.build_graph()
        executor.migrate(AFTER)
        # Then every later migration, so that the tests after this one find the schema they expect.
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert [(x.entry, x.comparison, x.value) for x in Assessment.objects.order_by("pk")] == [
        (row_a, comparison, "Cheap"),
        (row_b, comparison, "Dear"),
    ]
    stored = Version.objects.filter(
        revision=revision, content_type=ContentType.objects.get_for_model(Assessment)
    )
    assert [json.loads(v.serialized_data)[0]["fields"] for v in stored] == [
        {"criterion": price.pk, "comparison": comparison.pk, "entry": row_a.pk, "value": "Was cheap",
         "mark": None, "reason": "", "vendor_stated": False},
    ]  # fmt: skip

    revision.revert()
    assert Assessment.objects.get(pk=kept.pk).value == "Was cheap"
