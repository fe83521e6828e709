"""Writes: a reader sends a correction; an editor accepts or rejects it."""

from django.db import transaction
from django.utils import timezone

from vendors.models import Fact

from .models import Correction


def submit_correction(*, target, part, problem, source_url, email=""):
    """Store a reader's correction of ``target`` (corrections.selectors.Target) for the editors."""
    fact_id = target.fact_id(part)
    fact = Fact.objects.filter(pk=fact_id, vendor_id=target.vendor_id).first() if fact_id else None
    return Correction.objects.create(
        vendor_id=target.vendor_id,
        comparison_id=target.comparison_id,
        fact=fact,
        part=target.label(part),
        problem=problem.strip(),
        source_url=source_url,
        email=email,
    )


class AlreadyDecided(Exception):
    pass


@transaction.atomic
def decide(*, correction, user, accept, note=""):
    """Accept or reject an open correction, saying who and when. Deciding twice is refused."""
    locked = Correction.objects.select_for_update().get(pk=correction.pk)
    if locked.status != Correction.Status.NEW:
        raise AlreadyDecided(
            f"{locked.handled_by or 'Someone'} already {locked.get_status_display().lower()} it."
        )
    locked.status = Correction.Status.ACCEPTED if accept else Correction.Status.REJECTED
    locked.handled_by = user
    locked.handled_at = timezone.now()
    locked.editor_note = note.strip()
    locked.save(update_fields=["status", "handled_by", "handled_at", "editor_note"])
    return locked
