"""vendors 0021-0022, claims 0001-0002, chips 0001-0002: sources move to claims and chips to
chips without losing a row, and what points at them by label (content types, the roles'
permissions, revisions) follows."""

import datetime as dt
import json

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from reversion.models import Revision, Version

from chips.models import Spec, SpecCitation
from claims.models import Source
from tests import factories as f

OLD = [("vendors", "0020_sram_bandwidth"), ("comparisons", "0010_citation_evidence")]
BEFORE = [*OLD, ("claims", None), ("chips", None)]  # None: none of the app's migrations


@pytest.mark.django_db(transaction=True)
def test_sources_and_chips_move_app_with_every_row_their_permissions_and_revisions():
    f.role_group("Editor")  # the roles, whatever an earlier test's flush left
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(OLD).apps
        OldSource = old.get_model("vendors", "Source")
        OldSpec = old.get_model("vendors", "Spec")
        OldSpecCitation = old.get_model("vendors", "SpecCitation")
        vendor = f.make_vendor(name="AWS Trainium", published=False)  # no revision: its table is old
        source = OldSource.objects.create(title="Trainium3 docs", url="https://aws.example/trainium3")
        spec = OldSpec.objects.create(
            vendor_id=vendor.pk,
            chip="Trainium3",
            kind="memory",
            quantity="144",
            unit="GiB",
            scope="chip",
            verified_on=dt.date(2026, 11, 30),
        )
        OldSpecCitation.objects.create(cited_id=spec.pk, source_id=source.pk, quote="144 GiB of HBM3e")
        # A revision recorded before the move names the spec by its old label.
        old_type = ContentType.objects.get(app_label="vendors", model="spec")
        revision = Revision.objects.create(comment="Before the move", date_created=timezone.now())
        fields = {"vendor": vendor.pk, "chip": "Trainium3", "kind": "memory", "quantity": "96", "unit": "GB",
                  "scope": "chip", "precision": "", "sparse": False, "vendor_stated": False, "position": 0,
                  "verified_on": None, "verified_at": None, "verified_by": None}  # fmt: skip
        recorded = Version.objects.create(
            revision=revision,
            object_id=str(spec.pk),
            content_type=old_type,
            db="default",
            format="json",
            serialized_data=json.dumps([{"model": "vendors.spec", "pk": spec.pk, "fields": fields}]),
            object_repr="Trainium3",
        )
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

    moved_source = Source.objects.get(pk=source.pk)
    assert (moved_source.title, moved_source.url) == ("Trainium3 docs", "https://aws.example/trainium3")
    moved = Spec.objects.get(pk=spec.pk)
    assert (moved.vendor, moved.chip, moved.quantity, moved.unit) == (vendor, "Trainium3", 144, "GiB")
    citation = SpecCitation.objects.get(cited=moved)
    assert (citation.source, citation.quote) == (moved_source, "144 GiB of HBM3e")
    assert {Source._meta.db_table, Spec._meta.db_table} == {"claims_source", "chips_spec"}

    # The content type is the same row under its new label: what pointed at it still does.
    recorded.refresh_from_db()
    assert recorded.content_type_id == old_type.pk
    assert (recorded.content_type.app_label, recorded.content_type.model) == ("chips", "spec")
    assert recorded.field_dict["quantity"] == 96  # the old revision reads as the moved model
    assert json.loads(recorded.serialized_data)[0]["model"] == "chips.spec"

    editor = Group.objects.get(name="Editor")
    held = set(editor.permissions.values_list("content_type__app_label", "codename"))
    assert {("claims", "add_source"), ("claims", "change_source"), ("chips", "change_spec")} <= held
    assert ("claims", "delete_source") not in held  # as before the move: a Publisher's
