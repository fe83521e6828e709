"""Writes on vendor profiles that are not the workflow's own (those live in editorial.services)."""

from __future__ import annotations

import datetime as dt
import functools
import operator
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F, Max, Model, Q, QuerySet
from django.utils import timezone

from chips.models import (
    Availability,
    AvailabilityCitation,
    Price,
    PriceCitation,
    Result,
    ResultCitation,
    Spec,
    SpecCitation,
)
from chips.services import recompute_sources_differ
from claims.models import Citation, Source, Verifiable
from editorial import services as workflow
from editorial.registry import publications
from editorial.revisions import record_revision

from .importing import ImportChanged, ImportFileError, Plan, PlannedRow, plan_import
from .models import Event, EventCitation, Fact, FactCitation, Score, ScoreCitation, Vendor
from .publishing import VERIFIED_KINDS

if TYPE_CHECKING:
    from django.contrib.auth.models import User

type ClaimModel = type[Fact] | type[Event] | type[Score]
# A CSV file's rows (vendors/importing/)
type ImportedModel = ClaimModel | type[Spec] | type[Availability] | type[Price] | type[Result]
# A claim kind's citation table (claims.models.citation_table builds most of them).
type CitationModel = type[Citation]

VERIFIED_COMMENT = "Marked verified today."


@transaction.atomic
def mark_verified(
    *,
    user: User,
    facts: QuerySet[Fact] | None = None,
    events: QuerySet[Event] | None = None,
    scores: QuerySet[Score] | None = None,
    specs: QuerySet[Spec] | None = None,
    availability: QuerySet[Availability] | None = None,
    prices: QuerySet[Price] | None = None,
    results: QuerySet[Result] | None = None,
    vendors: QuerySet[Vendor] | None = None,
    today: dt.date | None = None,
) -> tuple[dict[type[Model], int], list[int]]:
    """Stamp today's date and ``user`` as verified: on the rows of the ``facts``, ``events``,
    ``scores``, ``specs``, ``availability``, ``prices`` and ``results`` querysets given, or on
    every verified row (publishing.VERIFIED_KINDS) of the ``vendors`` queryset.

    Each vendor touched gets a revision (its history says who verified it, and a change
    form opened before is refused rather than saved over the new dates), and its live
    page shows the new dates on the next request without publishing any pending content
    change (see editorial.services.refresh_verification for the rule on changed facts).

    Returns ({model: rows marked}, pks of the vendors touched).
    """
    today = today or timezone.localdate()
    now = timezone.now()
    moment = now if timezone.localdate(now) == today else None  # a day in the past: its start
    stamp = {"verified_on": today, "verified_at": moment, "verified_by": user}
    counts: dict[type[Model], int] = {}
    if vendors is not None:
        vendor_pks = list(vendors.values_list("pk", flat=True))
        for model in VERIFIED_KINDS.values():
            counts[model] = model._default_manager.filter(Q(vendor__in=vendor_pks)).update(**stamp)
        counts[Vendor] = len(vendor_pks)
    else:
        touched: set[int] = set()
        chosen = {
            "facts": facts,
            "events": events,
            "scores": scores,
            "specs": specs,
            "availability": availability,
            "prices": prices,
            "results": results,
        }
        for kind, rows in chosen.items():
            if rows is None:
                continue
            model = VERIFIED_KINDS[kind]
            pks = list(rows.values_list("pk", flat=True))
            rows_of = model._default_manager.filter(pk__in=pks)
            touched.update(rows_of.order_by().values_list(F("vendor"), flat=True).distinct())
            counts[model] = rows_of.update(**stamp)
        vendor_pks = sorted(touched)
    for vendor in Vendor.objects.filter(pk__in=vendor_pks):
        record_revision(vendor, user=user, comment=VERIFIED_COMMENT)
        workflow.refresh_verification(obj=vendor, user=user)
    Vendor.objects.filter(pk__in=vendor_pks).update(updated_at=timezone.now())
    return counts, vendor_pks


@transaction.atomic
def import_rows(
    *,
    vendor: Vendor,
    rows: list[tuple[int, dict[str | None, Any]]],
    filename: str,
    user: User,
    expected_digest: str | None = None,
) -> Plan:
    """Write the new and changed rows of a CSV file (vendors/importing.py) into ``vendor``'s
    working copy, all or nothing.

    The file is planned again under a lock on the vendor: when that plan is not the one the
    editor previewed (``expected_digest``), ImportChanged is raised and nothing is written; a
    file with an error raises ImportFileError. Records one revision whose comment names the
    file and marks the profile as having unpublished changes, as an admin save does; it never
    publishes. A verified date in the file is a verification by ``user``, as one typed in the
    change form is. Returns the plan applied.
    """
    list(Vendor.objects.select_for_update().filter(pk=vendor.pk).values_list("pk"))
    plan = plan_import(vendor=vendor, rows=rows, filename=filename)
    _check_plan(plan, expected_digest=expected_digest)
    models: dict[str, tuple[ImportedModel, CitationModel]] = {
        "fact": (Fact, FactCitation),
        "spec": (Spec, SpecCitation),
        "availability": (Availability, AvailabilityCitation),
        "price": (Price, PriceCitation),
        "result": (Result, ResultCitation),
        "event": (Event, EventCitation),
        "score": (Score, ScoreCitation),
    }
    positions = {
        kind: models[kind][0].objects.filter(vendor=vendor).aggregate(last=Max("position"))["last"] or 0
        for kind in ("fact", "spec", "availability", "price", "result", "event")
    }
    # (row, unsaved item), created together below
    added: dict[str, list[tuple[PlannedRow, Fact | Event | Score | Spec | Availability | Price | Result]]] = {
        kind: [] for kind in models
    }
    for row in plan.to_write:
        model, citation = models[row.kind]
        values = dict(row.values)
        if values["verified_on"] != getattr(row.target, "verified_on", None):
            values["verified_by"] = user if values["verified_on"] else None
        if row.target is None:
            if row.kind in positions:
                positions[row.kind] += 1
                values["position"] = positions[row.kind]
            added[row.kind].append((row, model(vendor=vendor, **values)))
            continue
        for name, value in values.items():
            setattr(row.target, name, value)
        row.target.save()
        if row.sources_changed:
            citation.objects.filter(cited=row.target).delete()  # type: ignore[misc]  # built by citation_table: mypy sees the abstract Citation
            _cite(citation, [(row.target, source) for source in row.sources])
    for kind, pairs in added.items():
        model, citation = models[kind]
        # Each kind's list holds rows of its own model (a union of models cannot say so).
        items = model.objects.bulk_create(item for _, item in pairs)  # type: ignore[misc]
        _cite(
            citation,
            [(item, source) for (row, _), item in zip(pairs, items, strict=True) for source in row.sources],
        )
    written = len(plan.to_write)
    record_revision(
        vendor,
        user=user,
        comment=f"Imported {written} row{'s' if written != 1 else ''} from {filename}: "
        f"{plan.count('new')} new, {plan.count('changed')} changed.",
    )
    recompute_sources_differ(specs=vendor.specs.all())  # what the queue lists (chips/stated.py)
    workflow.refresh_verification(obj=vendor, user=user)
    workflow.refresh_state(obj=vendor)
    return plan


def _check_plan(plan: Plan, *, expected_digest: str | None) -> None:
    """Refuse a plan with errors, one other than the editor previewed, or one with nothing to write."""
    if plan.errors:
        raise ImportFileError(f"{len(plan.errors)} rows have errors: nothing was imported.")
    if expected_digest is not None and plan.digest != expected_digest:
        raise ImportChanged(
            "The profile changed after your preview (someone saved it): check the new preview."
        )
    if not plan.to_write:
        raise ImportFileError("Every row matches the profile already: there is nothing to import.")


def _cite(citation: CitationModel, pairs: list[tuple[Verifiable, Source]]) -> None:
    """Write the citations (claim, source) in one query; ``citation`` is the table of the
    claims' own kind, a pairing a union of models cannot express (hence the ignore)."""
    citation.objects.bulk_create(citation(cited=cited, source=source) for cited, source in pairs)  # type: ignore[misc]


def refresh_pages_citing(*, sources: list[int]) -> list[Model]:
    """After source checks found or cleared a problem, or found or missed a quote: the live (and
    scheduled) versions of every kind of item (profiles, comparisons: editorial.registry) citing
    any of ``sources`` take the sources' new problem moments and their citations' quote checks
    now, content untouched, as a verification does (editorial.services.refresh_verification).
    Returns the items refreshed."""
    citing = functools.reduce(operator.or_, (Q(document__sources__has_key=str(pk)) for pk in sources))
    now = timezone.now()
    refreshed: list[Model] = []
    for publication in publications():
        versions = publication.version_model.objects.filter(citing).filter(
            Q(superseded_at__isnull=True) | Q(superseded_at__gt=now)
        )
        pks = set(versions.values_list("item_id", flat=True))  # type: ignore[misc]  # each version model's own item
        for item in publication.model._default_manager.filter(pk__in=pks).order_by("pk"):
            workflow.refresh_verification(obj=item, user=None)
            refreshed.append(item)
    return refreshed
