from django.db import migrations


def forwards(apps, schema_editor):
    """Every stored comparison document says its schema (2), with what a document built now
    holds (its sources' problem moments, its axis criteria's slugs), so no comparison looks
    changed by the upgrade."""
    ComparisonVersion = apps.get_model("comparisons", "ComparisonVersion")
    Axis = apps.get_model("vendors", "Axis")
    Source = apps.get_model("vendors", "Source")
    slugs = dict(Axis.objects.values_list("pk", "slug"))
    problems = {str(pk): at for pk, at in Source.objects.values_list("pk", "problem_at") if at}
    batch = []
    for version in ComparisonVersion.objects.only("pk", "document").iterator(chunk_size=500):
        document = version.document
        if not document or document.get("schema") == 2:
            continue
        document["schema"] = 2
        for pk, source in document.get("sources", {}).items():
            source.setdefault("archive_url", "")
            source["problem_at"] = problems[pk].isoformat().replace("+00:00", "Z") if pk in problems else None
        for criterion in document.get("criteria", []):
            if criterion.get("axis"):
                criterion["axis"].setdefault("slug", slugs.get(criterion["axis"]["id"], ""))
        batch.append(version)
    ComparisonVersion.objects.bulk_update(batch, ["document"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0008_assessment_entry_required"),
        ("vendors", "0012_verified_at_and_problem_at"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
