"""Nobody retypes: a save made after someone else's is merged with theirs, field by field.

The change form carries the revision it was opened at (django-reversion; EditorialForm's
hidden ``opened_revision``). When someone else has saved since, the submitted data is
rebased before the admin binds its forms to it (editorial/workflow/saving.py), as a
three-way merge of

- *base*: the revision the form was opened at (the item and every row it follows),
- *theirs*: what is saved now (the working copy, read under the row lock), and
- *yours*: what the form submits,

for the item's own fields and for each row of each inline, matched by primary key:

- a field only you changed keeps yours; a field only they changed takes theirs (your form
  still held the old value); a field you both changed to the same value is no conflict;
- a field you both changed to different values is a **conflict**: nothing is saved, the
  form is shown again with both values beside the field and your input kept, and it now
  carries the current revision, so saving again applies yours on purpose;
- rows they added stay; rows you added are added;
- a row they deleted that you left as it was stays deleted; a row they deleted that you
  edited is a conflict: the form shows your row again as a new row, so saving again keeps
  your edit (tick Delete to let their delete stand); a row you both deleted is gone;
- a row you deleted that they edited is a conflict: Delete stays ticked, so saving again
  deletes it on purpose (untick it to keep their edit).

File uploads are not merged: an upload is always yours, no upload keeps what is saved.

The steps live beside this module: ``values`` reads a value the same way whichever shape it
comes in, ``rebase`` merges one field (and the item's own fields), ``inline`` the rows of one
inline, and ``result`` holds what the merge found.
"""

from collections.abc import Iterable
from typing import Any

from django import forms
from django.db.models import Model
from django.forms.models import BaseModelFormSet
from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from reversion.models import Version

from ..diff import snapshot, version_chain
from ..presence import clock
from .inline import InlineRebase
from .rebase import Rebase
from .result import Conflict, Merge, in_words

__all__ = ["Conflict", "Merge", "merge_submission"]


def merge_submission(
    *,
    obj: Model,
    opened: int,
    current: int,
    submitted: QueryDict,
    files: MultiValueDict[str, Any],
    form_class: type[forms.ModelForm],
    inline_formsets: Iterable[tuple[str, BaseModelFormSet]],
) -> Merge:
    """Rebase ``submitted``, a change form opened at revision ``opened``, onto ``obj`` as saved at
    ``current`` (read under the row lock).

    ``form_class`` is the item's form, ``inline_formsets`` each inline's prefix and unbound
    formset showing its rows as saved now. ``submitted`` is left as it is: the merged data is
    a new QueryDict, which carries ``current`` as the revision it was opened at.
    """
    merge = _start(submitted, saved_since=version_chain(obj, after=opened))
    base = snapshot(opened) if _is_version_of(obj, opened) else None
    rebase = Rebase(merge, base, files)
    rebase.own_fields(obj, form_class)
    for prefix, theirs_formset in inline_formsets:
        if f"{prefix}-TOTAL_FORMS" in merge.data:
            InlineRebase(rebase, theirs_formset, prefix).run()
    merge.data["opened_revision"] = str(current)
    return merge


def _start(submitted: QueryDict, *, saved_since: list[Any]) -> Merge:
    """A merge not yet begun, on a copy of ``submitted``: who saved since the form was opened
    (the versions ``saved_since``), and when."""
    users = list(dict.fromkeys(str(v.revision.user) if v.revision.user else "someone" for v in saved_since))
    who = in_words(users) or "someone"
    at = clock(saved_since[-1].revision.date_created) if saved_since else ""
    return Merge(data=submitted.copy(), by=f"{who} at {at}" if at else who, who=who, at=at or "just now")


def _is_version_of(obj: Model, version_id: int) -> bool:
    """Whether ``version_id`` is one of ``obj``'s revisions (and not pruned, nor forged)."""
    return bool(version_id) and Version.objects.get_for_object(obj).filter(pk=version_id).exists()
