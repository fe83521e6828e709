"""Comparisons' citations point at claims.Source (state only: the foreign keys already point
at the table, which keeps its rows)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0001_initial"),
        ("comparisons", "0010_citation_evidence"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="assessmentcitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="comparisoncitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="comparisonfaqcitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="assessment",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True,
                        related_name="+",
                        through="comparisons.AssessmentCitation",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="comparison",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True,
                        related_name="comparisons",
                        through="comparisons.ComparisonCitation",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="comparisonfaq",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True,
                        related_name="+",
                        through="comparisons.ComparisonFAQCitation",
                        to="claims.source",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
