"""Writes: a reader sends a correction; an editor accepts or rejects it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from vendors.models import Fact

from .models import Correction

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from .selectors import Target


def submit_correction(
    *, target: Target, part: str, problem: str, source_url: str, email: str = ""
) -> Correction:
    """Store a reader's correction of ``target`` (corrections.selectors.Target) for the editors."""
    fact_id = target.fact_id(part)
    fact = None
    if fact_id and target.vendor_id is not None:  # a profile's fact, never one named on another page
        fact = Fact.objects.filter(pk=fact_id, vendor_id=target.vendor_id).first()
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


class NoteRequired(ValueError):
    pass


def check_note(note: str) -> str:
    """The editor's note on a decision, stripped; NoteRequired when there is none."""
    if not note.strip():
        raise NoteRequired("Write why in the note: it is kept with the decision, for the other editors.")
    return note.strip()


@transaction.atomic
def decide(*, correction: Correction, user: User, accept: bool, note: str) -> Correction:
    """Accept or reject an open correction, saying who, when and why (``note``, required).
    Deciding twice is refused."""
    locked = Correction.objects.select_for_update().get(pk=correction.pk)
    if locked.status != Correction.Status.NEW:
        raise AlreadyDecided(
            f"{locked.handled_by or 'Someone'} already {locked.get_status_display().lower()} it."
        )
    note = check_note(note)
    locked.status = Correction.Status.ACCEPTED if accept else Correction.Status.REJECTED
    locked.handled_by = user
    locked.handled_at = timezone.now()
    locked.editor_note = note
    locked.save(update_fields=["status", "handled_by", "handled_at", "editor_note"])
    return locked
