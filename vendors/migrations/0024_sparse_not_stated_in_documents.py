"""Published profiles' chip specs say “not stated” (null) where their sparsity was false by
default, as chips.0003 did for the working rows: a false there said nothing, and would now read
“dense”. A figure published as sparse stays sparse."""

from django.db import migrations


def _rewrite(apps, change):
    """Apply ``change`` (spec dict -> whether it changed it) to every published chip spec."""
    VendorVersion = apps.get_model("vendors", "VendorVersion")
    changed = []
    for version in VendorVersion.objects.only("pk", "document").iterator(chunk_size=200):
        specs = [
            spec for chip in (version.document or {}).get("chips") or [] for spec in chip.get("specs") or []
        ]
        if [change(spec) for spec in specs].count(True):
            changed.append(version)
    VendorVersion.objects.bulk_update(changed, ["document"], batch_size=200)


def _not_stated(spec):
    if spec.get("sparse") is False:
        spec["sparse"] = None
        return True
    return False


def _as_before(spec):
    """Back: false for not stated, and a cluster limit (unknown to the earlier code) a scale."""
    touched = False
    if "sparse" in spec and spec["sparse"] is None:
        spec["sparse"] = False
        touched = True
    if spec.get("kind") == "cluster":
        spec["kind"] = "scale"
        touched = True
    return touched


def not_stated(apps, schema_editor):
    _rewrite(apps, _not_stated)


def back_to_false(apps, schema_editor):
    _rewrite(apps, _as_before)


class Migration(migrations.Migration):
    dependencies = [("vendors", "0023_quote_checks"), ("chips", "0004_sparse_not_stated")]

    operations = [migrations.RunPython(not_stated, back_to_false)]
