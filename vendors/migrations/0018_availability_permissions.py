"""Editors and Publishers edit chips' availability dates, as they edit their specs.

Without these the vendor change page leaves out its Chip availability section for both roles
(an inline needs its model's permissions) and a merge of two editors' saves skips the dates.
"""

from django.db import migrations

ACTIONS = ["add", "change", "view", "delete"]  # as specs: an Editor may delete a row


def grant(Group, Permission):
    """Give both roles every permission on availability dates; also used by tests after a flush."""
    rows = list(
        Permission.objects.filter(
            content_type__app_label="vendors",
            codename__in=[f"{action}_availability" for action in ACTIONS],
        )
    )
    for group in Group.objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.add(*rows)


def add_permissions(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # The permissions of a model are otherwise made after the last migration has run.
    app_config = apps.get_app_config("vendors")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    app_config.models_module = None
    grant(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_permissions(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    rows = Permission.objects.filter(content_type__app_label="vendors", codename__endswith="_availability")
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.remove(*rows)


class Migration(migrations.Migration):
    dependencies = [("vendors", "0017_chip_availability")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
