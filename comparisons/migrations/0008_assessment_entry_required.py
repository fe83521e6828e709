"""Assessments need their comparison's vendor row, once 0007 has filled it in.

A migration of its own: on PostgreSQL, altering a table whose rows the same transaction has just
updated fails ("pending trigger events").
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0007_assessment_entry_data"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="assessment", name="one_assessment_per_vendor"),
        migrations.RemoveField(model_name="assessment", name="vendor"),
        migrations.AlterField(
            model_name="assessment",
            name="comparison",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="assessments",
                to="comparisons.comparison",
            ),
        ),
        migrations.AlterField(
            model_name="assessment",
            name="entry",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="assessments",
                to="comparisons.comparisonvendor",
                verbose_name="vendor",
            ),
        ),
        migrations.AddConstraint(
            model_name="assessment",
            constraint=models.UniqueConstraint(
                fields=("criterion", "entry"),
                name="one_assessment_per_vendor",
                violation_error_message="This vendor already has an assessment on this criterion.",
            ),
        ),
    ]
