"""Assessments hang off the comparison's vendor row instead of off the vendor.

Each assessment gets the row of its comparison that holds its vendor; one whose vendor had left
the comparison could no longer be shown or edited, and is dropped. The revisions recorded
before keep working: their assessments are rewritten the same way, from the rows recorded in
the same revision, so reverting to one restores what the page showed then.
"""

import json

from django.db import migrations


def _by_pk(versions, label):
    rows = {}
    for version in versions:
        for obj in json.loads(version.serialized_data):
            if obj["model"] == label:
                rows[obj["pk"]] = obj["fields"]
    return rows


def rows_to_entries(apps, schema_editor):
    Assessment = apps.get_model("comparisons", "Assessment")
    ComparisonVendor = apps.get_model("comparisons", "ComparisonVendor")
    entries = {(e.comparison_id, e.vendor_id): e.pk for e in ComparisonVendor.objects.all()}
    orphans = []
    for assessment in Assessment.objects.select_related("criterion"):
        comparison = assessment.criterion.comparison_id
        entry = entries.get((comparison, assessment.vendor_id))
        if entry is None:
            orphans.append(assessment.pk)
            continue
        assessment.comparison_id, assessment.entry_id = comparison, entry
        assessment.save(update_fields=["comparison", "entry"])
    Assessment.objects.filter(pk__in=orphans).delete()
    _rewrite_revisions(apps, schema_editor, forward=True)


def entries_to_rows(apps, schema_editor):
    Assessment = apps.get_model("comparisons", "Assessment")
    for assessment in Assessment.objects.select_related("entry"):
        assessment.vendor_id = assessment.entry.vendor_id
        assessment.save(update_fields=["vendor"])
    _rewrite_revisions(apps, schema_editor, forward=False)


def _rewrite_revisions(apps, schema_editor, *, forward):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Version = apps.get_model("reversion", "Version")
    assessment_type = ContentType.objects.filter(app_label="comparisons", model="assessment").first()
    if assessment_type is None:
        return  # a fresh database: nothing recorded yet
    revisions = Version.objects.filter(content_type=assessment_type).values_list("revision_id", flat=True)
    for revision in sorted(set(revisions)):
        versions = list(Version.objects.filter(revision_id=revision))
        criteria = _by_pk(versions, "comparisons.criterion")
        rows = _by_pk(versions, "comparisons.comparisonvendor")
        for version in versions:
            if version.content_type_id != assessment_type.pk or version.format != "json":
                continue
            data = json.loads(version.serialized_data)
            fields = data[0]["fields"]
            if forward:
                comparison = criteria.get(fields.get("criterion"), {}).get("comparison")
                entry = next(
                    (
                        pk
                        for pk, row in rows.items()
                        if row["comparison"] == comparison and row["vendor"] == fields.get("vendor")
                    ),
                    None,
                )
                if entry is None:
                    version.delete()  # its vendor had left the comparison: it showed nowhere
                    continue
                fields.pop("vendor", None)
                fields.update(comparison=comparison, entry=entry)
            else:
                row = rows.get(fields.pop("entry", None))
                fields.pop("comparison", None)
                if row is None:
                    version.delete()
                    continue
                fields["vendor"] = row["vendor"]
            version.serialized_data = json.dumps(data)
            version.save(update_fields=["serialized_data"])


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0006_assessment_entry"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("reversion", "0002_add_index_on_version_for_content_type_and_db"),
    ]

    operations = [migrations.RunPython(rows_to_entries, entries_to_rows)]
