from django.db import migrations


def forwards(apps, schema_editor):
    """Every stored comparison document says its schema (2); its sources may carry the moment
    their checks found a problem (none is stored on comparisons: they are not verified rows)."""
    ComparisonVersion = apps.get_model("comparisons", "ComparisonVersion")
    batch = []
    for version in ComparisonVersion.objects.only("pk", "document").iterator(chunk_size=500):
        document = version.document
        if not document or document.get("schema") == 2:
            continue
        document["schema"] = 2
        for source in document.get("sources", {}).values():
            source.setdefault("archive_url", "")
            source.setdefault("problem_at", None)
        batch.append(version)
    ComparisonVersion.objects.bulk_update(batch, ["document"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0008_assessment_entry_required"),
        ("vendors", "0012_verified_at_and_problem_at"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
