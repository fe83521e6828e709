"""The newsroom's rules in the admin, shared by every editorial ModelAdmin (vendors, comparisons).

- The admin edits the working copy. Saving never changes what visitors see: the item
  then reads “Live + unpublished changes”, and its page shows the diff against the live
  version. Publishing, scheduling, discarding and unpublishing are buttons and actions
  that call editorial.services; only users with the model's ``publish_<model>``
  permission may use them, and an Editor's forged POST is refused with a 403.
- An Editor submits for review; Publishers see what waits on the admin index.
- Revisions: every admin save records the whole item (django-reversion), with an
  optional comment; the history compares any two. Reverting (``revert_<model>``)
  loads an old revision into the working copy and never touches the live page.
- Nobody retypes: the form carries the revision it was opened at; a save made on top of
  someone else's is merged with theirs (editorial/merge/) and the message says so; only
  a field you both changed is a conflict, shown beside the field with both values. The
  row is locked by the view for the whole save, so two saves cannot both pass the check.
- Presence: opening a change page says who else opened it in the last few minutes
  (editorial/presence.py).

admin.py holds EditorialAdmin and its saving; forms.py the working copy's form; saving.py how
the admin hands a merged submission to its forms; steps.py the workflow's buttons; history.py
revisions, compare and revert; listing.py the state column, the state filter and the actions.
"""

from .admin import EditorialAdmin
from .forms import SAVE_FIELDSET, EditorialForm, PublishForm, ScheduleForm
from .listing import StateFilter
from .steps import STEPS

__all__ = [
    "SAVE_FIELDSET",
    "STEPS",
    "EditorialAdmin",
    "EditorialForm",
    "PublishForm",
    "ScheduleForm",
    "StateFilter",
]
