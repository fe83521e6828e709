from django.db import migrations, models


def index_published_versions(apps, schema_editor):
    # Versions published before chips were search results: indexed again, their chips with them.
    from discovery.search import index_all

    index_all(entry_model=apps.get_model("discovery", "SearchEntry"), get_model=apps.get_model)


class Migration(migrations.Migration):
    dependencies = [
        ("discovery", "0002_sqlite_full_text"),
    ]

    operations = [
        migrations.AlterField(
            model_name="searchentry",
            name="kind",
            field=models.CharField(
                choices=[
                    ("vendor", "Vendors"),
                    ("chip", "Chips"),
                    ("comparison", "Comparisons"),
                    ("fact", "Facts"),
                    ("event", "What changed"),
                    ("faq", "Questions"),
                ],
                max_length=20,
            ),
        ),
        migrations.RunPython(index_published_versions, migrations.RunPython.noop),
    ]
