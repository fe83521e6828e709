"""How EditorialAdmin hands a merged submission to the forms of the save it holds the row for.

The merge itself works on data and knows no admin (editorial/merge/). Django's admin builds
the item's form from ``request.POST`` with no hook for other data: for the locked save,
``saving()`` scopes the submission (as django-reversion's ``create_revision()`` scopes a
revision), and the item's EditorialForm, its inlines and the page read it from there. The
request is never rewritten.
"""

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass

from ..merge import Merge


@dataclass(frozen=True)
class Submission:
    """A change form posted for one item, checked under the row lock against what is saved now."""

    label: str  # the item's model, "vendors.vendor"
    pk: str
    merge: Merge | None = None  # None when nobody saved since the form was opened

    def is_for(self, obj) -> bool:
        if obj is None or obj.pk is None:
            return False
        return (self.label, self.pk) == (obj._meta.label_lower, str(obj.pk))


_submission: ContextVar[Submission | None] = ContextVar("editorial_submission", default=None)


@contextlib.contextmanager
def saving(submission: Submission | None):
    """While the admin saves ``submission``: the item's EditorialForm and its inlines bind the
    merged data instead of the request's, the form does not check the revision again (the
    admin did, under the row lock), and the page shows the conflicts."""
    token = _submission.set(submission)
    try:
        yield submission
    finally:
        _submission.reset(token)


def submission_for(obj) -> Submission | None:
    """The submission being saved for ``obj``, if the admin is saving one."""
    submission = _submission.get()
    return submission if submission is not None and submission.is_for(obj) else None
