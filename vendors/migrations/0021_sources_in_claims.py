"""Source leaves vendors for claims, the citation kernel, without losing a row: the state moves
(SeparateDatabaseAndState: the table is untouched here), and the content type follows, so
permissions, groups, admin log entries and revisions keep pointing at the same sources."""

import django.db.models.deletion
from django.db import migrations, models


def content_type_to(app_label):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        other = "vendors" if app_label == "claims" else "claims"
        old = ContentType.objects.filter(app_label=other, model="source").first()
        if old is not None:
            # A content type made for the new label by an earlier post_migrate holds nothing yet.
            ContentType.objects.filter(app_label=app_label, model="source").delete()
            old.app_label = app_label
            old.save(update_fields=["app_label"])
        if app_label == "claims":
            from django.contrib.auth.management import create_permissions

            # A new database has no permissions on sources yet: they are made now, not after
            # the last migration, so the roles can be given them.
            app_config = apps.get_app_config("claims")
            app_config.models_module = True
            create_permissions(app_config, verbosity=0)
            app_config.models_module = None
            grant_sources(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))

    return move


def grant_sources(Group, Permission):
    """The roles' permissions on sources, as vendors 0004 gave them (an Editor adds, changes and
    views sources; a Publisher may also delete one nothing cites): held whatever label they had."""
    sources = Permission.objects.filter(content_type__app_label="claims", content_type__model="source")
    roles = {"Editor": ["add", "change", "view"], "Publisher": ["add", "change", "view", "delete"]}
    for group in Group.objects.filter(name__in=roles):
        group.permissions.add(*sources.filter(codename__in=[f"{a}_source" for a in roles[group.name]]))


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0001_initial"),
        ("comparisons", "0011_sources_in_claims"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("vendors", "0020_sram_bandwidth"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="eventcitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="factcitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="speccitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="availabilitycitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="scorecitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="faqcitation",
                    name="source",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(class)s_set",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="fact",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True, related_name="facts", through="vendors.FactCitation", to="claims.source"
                    ),
                ),
                migrations.AlterField(
                    model_name="faq",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True, related_name="faqs", through="vendors.FAQCitation", to="claims.source"
                    ),
                ),
                migrations.AlterField(
                    model_name="availability",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True,
                        related_name="availability",
                        through="vendors.AvailabilityCitation",
                        to="claims.source",
                    ),
                ),
                migrations.AlterField(
                    model_name="spec",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True, related_name="specs", through="vendors.SpecCitation", to="claims.source"
                    ),
                ),
                migrations.AlterField(
                    model_name="score",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True, related_name="scores", through="vendors.ScoreCitation", to="claims.source"
                    ),
                ),
                migrations.AlterField(
                    model_name="event",
                    name="sources",
                    field=models.ManyToManyField(
                        blank=True, related_name="events", through="vendors.EventCitation", to="claims.source"
                    ),
                ),
                migrations.DeleteModel(
                    name="Source",
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to("claims"), content_type_to("vendors")),
    ]
