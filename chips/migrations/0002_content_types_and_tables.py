"""The chips' content types follow them to the chips app (so permissions, groups, admin log
entries and revisions keep pointing at the same rows), the roles keep every permission on specs
and availability dates (vendors 0016 and 0018 gave them), and the tables take the app's name
(vendors_spec -> chips_spec, ...): no row moves."""

import json

from django.db import migrations

MODELS = [
    "spec",
    "availability",
    "speccitation",
    "availabilitycitation",
    "versionchip",
    "versionspec",
    "stalespec",
    "staleavailability",
]
ACTIONS = ["add", "change", "view", "delete"]  # an Editor may delete a spec or a date, as a fact


def grant(Group, Permission):
    """Give both roles every permission on specs and availability dates; also used by tests
    after a flush (tests/factories.py)."""
    rows = list(
        Permission.objects.filter(
            content_type__app_label="chips",
            codename__in=[f"{action}_{model}" for model in ("spec", "availability") for action in ACTIONS],
        )
    )
    for group in Group.objects.filter(name__in=["Editor", "Publisher"]):
        group.permissions.add(*rows)


def content_types_to(app_label):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        other = "vendors" if app_label == "chips" else "chips"
        for model in MODELS:
            old = ContentType.objects.filter(app_label=other, model=model).first()
            if old is None:
                continue
            # A content type made for the new label by an earlier post_migrate holds nothing yet.
            ContentType.objects.filter(app_label=app_label, model=model).delete()
            old.app_label = app_label
            old.save(update_fields=["app_label"])
        if app_label == "chips":
            from django.contrib.auth.management import create_permissions

            # A new database has none yet: they are made now, so the roles can be given them.
            app_config = apps.get_app_config("chips")
            app_config.models_module = True
            create_permissions(app_config, verbosity=0)
            app_config.models_module = None
            grant(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))

    return move


def revisions_name(app_label):
    """A revision keeps each row as JSON naming its model ("vendors.spec"): the rows of the moved
    models are named by their new label, so revisions, comparisons of them and merges read them."""

    def rename(apps, schema_editor):
        Version = apps.get_model("reversion", "Version")
        other = "vendors" if app_label == "chips" else "chips"
        # The content types have moved already (forward) or not yet (backward): either way the
        # rows are found by model name, under both labels.
        rows = Version.objects.filter(content_type__model__in=MODELS, format="json")
        for version in rows.iterator():
            data = json.loads(version.serialized_data)
            renamed = False
            for item in data:
                app, _, model = item["model"].partition(".")
                if app == other and model in MODELS:
                    item["model"] = f"{app_label}.{model}"
                    renamed = True
            if renamed:  # as Django's JSON serializer writes it
                version.serialized_data = json.dumps(data, ensure_ascii=False)
                version.save(update_fields=["serialized_data"])

    return rename


class Migration(migrations.Migration):
    dependencies = [
        ("chips", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("reversion", "0002_add_index_on_version_for_content_type_and_db"),
    ]

    operations = [
        migrations.RunPython(content_types_to("chips"), content_types_to("vendors")),
        migrations.RunPython(revisions_name("chips"), revisions_name("vendors")),
        *(
            migrations.AlterModelTable(name=name, table=None)
            for name in (
                "spec",
                "availability",
                "speccitation",
                "availabilitycitation",
                "versionchip",
                "versionspec",
            )
        ),
    ]
