"""What /chips/ sorts a derived figure by: each indexed spec says whether it is exact and until
when it may be an input (chips.prices.usable_until), and so does each indexed price.

The specs indexed before are filled in from their versions' documents, row by row in the order
they were written (a chip's specs in its document's order): exact when no qualifier bounds it,
usable until the end of its freshness window when it cites a source and was verified. A
source's problem is not read here (the live document carries those); the next publish writes
the exact value."""

import datetime as dt

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def fill_specs(apps, schema_editor):
    VersionChip = apps.get_model("chips", "VersionChip")
    VersionSpec = apps.get_model("chips", "VersionSpec")
    zone = timezone.get_current_timezone()
    days = dt.timedelta(days=settings.FRESHNESS_DAYS + 1)
    for chip in VersionChip.objects.select_related("version").iterator(chunk_size=500):
        documents = chip.version.document.get("chips", [])
        specs = next((given["specs"] for given in documents if given["slug"] == chip.slug), [])
        rows = list(VersionSpec.objects.filter(chip=chip).order_by("pk"))
        for row, spec in zip(rows, specs, strict=False):
            row.exact = not spec.get("qualifier")
            verified = spec.get("verified_on")
            if verified and spec.get("sources"):
                day = dt.date.fromisoformat(verified) + days
                row.usable_until = dt.datetime.combine(day, dt.time.min, tzinfo=zone)
        VersionSpec.objects.bulk_update(rows, ["exact", "usable_until"])


class Migration(migrations.Migration):

    dependencies = [
        ('chips', '0006_price_and_result_permissions'),
    ]

    operations = [
        migrations.AddField(
            model_name='versionprice',
            name='usable_until',
            field=models.DateTimeField(help_text='Until when it is cited and fresh (chips.prices.usable_until); null: not now.', null=True),
        ),
        migrations.AddField(
            model_name='versionspec',
            name='exact',
            field=models.BooleanField(default=True, help_text='No qualifier bounds it (“up to”, “over”).'),
        ),
        migrations.AddField(
            model_name='versionspec',
            name='usable_until',
            field=models.DateTimeField(blank=True, help_text='Until when it may be an input to a derived figure (chips.prices.usable_until); null: not now, or written before this was kept.', null=True),
        ),
        migrations.RunPython(fill_specs, migrations.RunPython.noop),
    ]
