"""Writes on vendor profiles that are not the workflow's own (those live in editorial.services)."""

from django.db import transaction
from django.utils import timezone

from editorial import services as workflow
from editorial.revisions import record_revision

from .models import Event, Fact, Score, Vendor

VERIFIED_COMMENT = "Marked verified today."


@transaction.atomic
def mark_verified(*, user, facts=None, events=None, scores=None, vendors=None, today=None):
    """Stamp today's date and ``user`` as verified: on the rows of the ``facts``, ``events``
    and ``scores`` querysets given, or on every fact, event and score of the ``vendors``
    queryset.

    Each vendor touched gets a revision (its history says who verified it, and a change
    form opened before is refused rather than saved over the new dates), and its live
    page shows the new dates on the next request without publishing any pending content
    change (see editorial.services.refresh_verification for the rule on changed facts).

    Returns ({model: rows marked}, pks of the vendors touched).
    """
    today = today or timezone.localdate()
    stamp = {"verified_on": today, "verified_by": user}
    counts = {}
    if vendors is not None:
        vendor_pks = list(vendors.values_list("pk", flat=True))
        for model in (Fact, Event, Score):
            counts[model] = model.objects.filter(vendor__in=vendor_pks).update(**stamp)
        counts[Vendor] = len(vendor_pks)
    else:
        vendor_pks = set()
        for model, rows in ((Fact, facts), (Event, events), (Score, scores)):
            if rows is None:
                continue
            pks = list(rows.values_list("pk", flat=True))
            vendor_pks.update(
                model.objects.filter(pk__in=pks).order_by().values_list("vendor", flat=True).distinct()
            )
            counts[model] = model.objects.filter(pk__in=pks).update(**stamp)
        vendor_pks = sorted(vendor_pks)
    for vendor in Vendor.objects.filter(pk__in=vendor_pks):
        record_revision(vendor, user=user, comment=VERIFIED_COMMENT)
        workflow.refresh_verification(obj=vendor, user=user)
    Vendor.objects.filter(pk__in=vendor_pks).update(updated_at=timezone.now())
    return counts, vendor_pks
