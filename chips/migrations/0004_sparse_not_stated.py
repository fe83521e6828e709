"""chips 0003's data step, a migration of its own: on PostgreSQL, rows updated in the same
transaction as an ALTER TABLE of their table leave "pending trigger events" that refuse it."""

from django.db import migrations, models


def sparse_not_stated(apps, schema_editor):
    """``sparse`` was false unless ticked: that said nothing, so false becomes “not stated”
    (null). A figure an editor ticked as sparse stays sparse."""
    for name in ("Spec", "VersionSpec"):
        apps.get_model("chips", name).objects.filter(sparse=False).update(sparse=None)


def sparse_false(apps, schema_editor):
    """Back: not stated is false again, and a cluster limit (a kind the earlier code lacks) is
    the one count of chips it knew."""
    for name in ("Spec", "VersionSpec"):
        rows = apps.get_model("chips", name).objects
        rows.filter(sparse__isnull=True).update(sparse=False)
        rows.filter(kind="cluster").update(kind="scale")


class Migration(migrations.Migration):
    # The data step commits before the constraint's ALTER TABLE (and, backwards, after it).
    atomic = False
    dependencies = [("chips", "0003_quote_checks")]

    operations = [
        migrations.RunPython(sparse_not_stated, sparse_false),
        migrations.AddConstraint(
            model_name="spec",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("kind", "compute"),
                    models.Q(("precision", ""), ("sparse__isnull", True)),
                    _connector="OR",
                ),
                name="spec_precision_only_for_compute",
                violation_error_message="Only a compute figure has a precision or sparsity.",
            ),
        ),
    ]
