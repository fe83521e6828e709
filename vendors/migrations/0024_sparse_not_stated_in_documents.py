"""Published profiles' chip specs say “not stated” (null) where their sparsity was false by
default, as chips.0003 did for the working rows: a false there said nothing, and would now read
“dense”. A figure published as sparse stays sparse."""

from django.db import migrations


def _rewrite(apps, old, new):
    VendorVersion = apps.get_model("vendors", "VendorVersion")
    changed = []
    for version in VendorVersion.objects.only("pk", "document").iterator(chunk_size=200):
        document = version.document or {}
        touched = False
        for chip in document.get("chips") or []:
            for spec in chip.get("specs") or []:
                if "sparse" in spec and spec["sparse"] is old:
                    spec["sparse"] = new
                    touched = True
        if touched:
            changed.append(version)
    VendorVersion.objects.bulk_update(changed, ["document"], batch_size=200)


def not_stated(apps, schema_editor):
    _rewrite(apps, False, None)


def back_to_false(apps, schema_editor):
    _rewrite(apps, None, False)


class Migration(migrations.Migration):
    dependencies = [("vendors", "0023_quote_checks"), ("chips", "0003_quote_checks")]

    operations = [migrations.RunPython(not_stated, back_to_false)]
