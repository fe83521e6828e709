"""claims.Source's table takes the app's name (vendors_source -> claims_source); the foreign
keys pointing at it follow, and no row moves."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0001_initial"),
        ("comparisons", "0011_sources_in_claims"),
        ("vendors", "0021_sources_in_claims"),
    ]

    operations = [
        migrations.AlterModelTable(name="source", table=None),
    ]
