"""The two newsroom roles, with their permissions.

Editor: write and change drafts and profile content, sources and comparisons; cannot
publish, schedule, unpublish, revert or delete anything published (enforced in the admin).
Publisher: everything an editor can, plus publishing, reverting and deleting.
"""

from django.db import migrations

CONTENT = ["vendor", "fact", "event", "score", "faq", "source"]
COMPARISON = ["comparison"]
COMPARISON_PARTS = ["comparisonvendor", "criterion", "assessment", "comparisonfaq"]
REFERENCE = ["lane", "attribute", "axis", "sitesettings"]
# Sources moved to the claims app (vendors 0021): their permissions are found under either label,
# whichever the database holds when this runs (in this migration, or later from tests).
SOURCES = ["source"]


def create_groups(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None

    build_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def build_groups(Group, Permission):
    """Create or refresh both groups; also used by tests after a flush removed them."""

    def perms(app_label, models, actions):
        codenames = [f"{action}_{model}" for model in models for action in actions]
        return list(Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames))

    editor, _ = Group.objects.get_or_create(name="Editor")
    editor.permissions.set(
        perms("vendors", CONTENT, ["add", "change", "view"])
        + perms("vendors", ["fact", "event", "score", "faq"], ["delete"])
        + perms("vendors", REFERENCE, ["view"])
        + perms("claims", SOURCES, ["add", "change", "view"])
        + perms("comparisons", COMPARISON, ["add", "change", "view"])
        + perms("vendors", ["vendor"], ["delete"])  # drafts only: the admin refuses published ones
        + perms("comparisons", COMPARISON, ["delete"])
        + perms("comparisons", COMPARISON_PARTS, ["add", "change", "view", "delete"])
    )
    publisher, _ = Group.objects.get_or_create(name="Publisher")
    publisher.permissions.set(
        list(editor.permissions.all())
        + perms("vendors", CONTENT, ["delete"])
        + perms("claims", SOURCES, ["delete"])
        + perms("vendors", REFERENCE, ["add", "change", "delete"])
        + list(
            Permission.objects.filter(
                codename__in=["publish_vendor", "revert_vendor", "publish_comparison", "revert_comparison"]
            )
        )
    )


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["Editor", "Publisher"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("vendors", "0003_workflow"),
        ("comparisons", "0003_workflow"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
