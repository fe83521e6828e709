"""Editors and Publishers edit chips: the spec rows of a profile, as they edit its facts.

Without these the vendor change page leaves out its Chips section for both roles (an inline
needs its model's permissions) and a merge of two editors' saves skips the specs.
"""

from django.db import migrations

SPEC_ACTIONS = ["add", "change", "view", "delete"]  # as facts: an Editor may delete a row


def grant(Group, Permission):
    """Give both roles every permission on specs; also used by tests after a flush."""
    specs = list(
        Permission.objects.filter(
            content_type__app_label="vendors", codename__in=[f"{action}_spec" for action in SPEC_ACTIONS]
        )
    )
    for group in Group.objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.add(*specs)


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
    specs = Permission.objects.filter(content_type__app_label="vendors", codename__endswith="_spec")
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.remove(*specs)


class Migration(migrations.Migration):
    dependencies = [
        ("vendors", "0015_chips_and_specs"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
