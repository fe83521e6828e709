"""Stored documents of schema 1 upgrade to schema 2 without making any item look changed."""

import datetime as dt
import importlib

import pytest
from django.apps import apps

from editorial import services
from tests import factories as f
from vendors.models import VendorVersion

pytestmark = pytest.mark.django_db


def _as_schema_1(version):
    """The document as publishing wrote it before schema 2."""
    old = version.document
    del old["schema"]
    for kind in ("facts", "events", "scores"):
        for row in old[kind]:
            del row["verified_at"]
    for row in old["scores"]:
        del row["axis"]["slug"]
    for source in old["sources"].values():
        del source["problem_at"]
    type(version).objects.filter(pk=version.pk).update(document=old)


class _MovedApps:
    """Today's models under the labels the old migration asks for: Source moved to claims."""

    def get_model(self, app_label, model_name):
        if (app_label, model_name.lower()) == ("vendors", "source"):
            return apps.get_model("claims", "Source")
        return apps.get_model(app_label, model_name)


def _upgrade(app, name):
    importlib.import_module(f"{app}.migrations.{name}").forwards(_MovedApps(), None)


def test_a_profile_published_before_schema_2_is_not_changed_by_the_upgrade():
    source = f.make_source(problem="returned 404", problem_on=dt.date(2026, 11, 20))
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor, verified_on=dt.date(2026, 11, 25), sources=[source])
    f.make_score(vendor=vendor, axis=f.make_axis(slug="software"), sources=[source])
    _as_schema_1(f.publish(vendor))

    _upgrade("vendors", "0012_verified_at_and_problem_at")

    upgraded = VendorVersion.objects.live().get(item=vendor).document
    assert upgraded["schema"] == 2 and upgraded["scores"][0]["axis"]["slug"] == "software"
    assert upgraded["sources"][str(source.pk)]["problem_at"] == "2026-11-20T00:00:00Z"
    assert services.refresh_state(obj=vendor) is False  # no unpublished changes appear


def test_a_comparison_published_before_schema_2_is_not_changed_by_the_upgrade():
    comparison = f.make_comparison(vendors=[f.make_vendor(), f.make_vendor()])
    f.make_criterion(comparison=comparison, name="Software", axis=f.make_axis(slug="software"))
    version = f.publish(comparison)
    old = version.document
    del old["schema"]
    del old["criteria"][0]["axis"]["slug"]
    type(version).objects.filter(pk=version.pk).update(document=old)

    _upgrade("comparisons", "0009_document_schema_2")

    version.refresh_from_db()
    assert version.document["schema"] == 2 and version.document["criteria"][0]["axis"]["slug"] == "software"
    assert services.refresh_state(obj=comparison) is False
