"""Assessments get a place for the comparison's vendor row (filled in by 0007)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0005_slug_help_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="assessment",
            name="comparison",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="assessments",
                to="comparisons.comparison",
            ),
        ),
        migrations.AddField(
            model_name="assessment",
            name="entry",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="assessments",
                to="comparisons.comparisonvendor",
                verbose_name="vendor",
            ),
        ),
        migrations.AlterField(
            model_name="assessment",
            name="vendor",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="vendors.vendor"
            ),
        ),
    ]
