"""Editors and Publishers see the corrections queue and decide corrections; Publishers may
also delete spam. Nobody adds one in the admin: readers send them."""

from django.db import migrations


def grant(Group, Permission):
    """Also used by tests after a flush removed the groups' permissions (tests/factories.py)."""

    def perms(actions):
        return Permission.objects.filter(
            content_type__app_label="corrections", codename__in=[f"{a}_correction" for a in actions]
        )

    for name, actions in (("Editor", ["view", "change"]), ("Publisher", ["view", "change", "delete"])):
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.add(*perms(actions))


def grant_roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    config = apps.get_app_config("corrections")
    config.models_module = True
    create_permissions(config, verbosity=0)
    config.models_module = None
    grant(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("corrections", "0001_corrections"),
        ("vendors", "0004_editor_and_publisher_groups"),
    ]

    operations = [migrations.RunPython(grant_roles, migrations.RunPython.noop)]
