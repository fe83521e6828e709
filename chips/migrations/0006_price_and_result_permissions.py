"""Editors and Publishers edit chips' prices and measured results, as they edit their specs.

Without these the vendor change page leaves out its prices and results sections for both roles
(an inline needs its model's permissions) and a merge of two editors' saves skips those rows.
"""

from django.db import migrations

ACTIONS = ["add", "change", "view", "delete"]  # as specs: an Editor may delete a row
MODELS = ["price", "result"]


def grant(Group, Permission):
    """Give both roles every permission on prices and results; also used by tests after a flush
    (tests/factories.py)."""
    rows = list(
        Permission.objects.filter(
            content_type__app_label="chips",
            codename__in=[f"{action}_{model}" for model in MODELS for action in ACTIONS],
        )
    )
    for group in Group.objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.add(*rows)


def add_permissions(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # The permissions of a model are otherwise made after the last migration has run.
    app_config = apps.get_app_config("chips")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    app_config.models_module = None
    grant(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_permissions(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    rows = Permission.objects.filter(
        content_type__app_label="chips", codename__in=[f"{a}_{m}" for m in MODELS for a in ACTIONS]
    )
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.remove(*rows)


class Migration(migrations.Migration):
    dependencies = [("chips", "0005_prices_and_results"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
