"""Writes of chip specs beyond their forms: whether their sources differ (chips/stated.py).

``recompute_sources_differ`` is called after a spec or its citations are saved in the admin,
by the importer and by the demo loader: whenever a citation's words change. A source check
changes no citation's words (it records whether the page still holds them), so it need not.
"""

from __future__ import annotations

from collections.abc import Iterable

from .models import Spec


def differs(spec: Spec) -> bool:
    """Whether a citation of ``spec`` (prefetched) states another value (chips/stated.py)."""
    return any(row["differs"] for row in spec.stated)


def recompute_sources_differ(*, specs: Iterable[Spec | int]) -> int:
    """Set ``Spec.sources_differ`` on ``specs`` (rows or ids) from their citations' words as they
    are now; returns how many changed. An editor's note settles a difference on every surface
    but the flag stays true, so the note keeps its reason in view of the next editor."""
    ids = [spec if isinstance(spec, int) else spec.pk for spec in specs]
    rows = Spec.objects.filter(pk__in=[pk for pk in ids if pk is not None])
    rows = rows.prefetch_related("speccitation_set")
    changed = []
    for spec in rows:
        flag = differs(spec)
        if flag != spec.sources_differ:
            spec.sources_differ = flag
            changed.append(spec)
    Spec.objects.bulk_update(changed, ["sources_differ"])
    return len(changed)
