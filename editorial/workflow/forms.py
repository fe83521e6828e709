"""The working copy's form, with the edit guard, and the publish and schedule forms."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from .. import services
from ..diff import describe_changes, version_chain
from ..document_diff import plain
from ..revisions import latest_version_id
from .saving import submission_for

SAVE_FIELDSET = ["revision_comment", "opened_revision", "created_at", "updated_at"]
GUARD_FIELDS = {"revision_comment", "opened_revision"}


class EditorialForm(forms.ModelForm):
    """The working copy's form: a comment for the history, and the edit guard."""

    opened_revision = forms.IntegerField(widget=forms.HiddenInput, required=False)
    revision_comment = forms.CharField(
        label="Comment on this change",
        required=False,
        max_length=200,
        help_text="Optional. Shown in the history next to this revision (editors only).",
    )

    def __init__(self, data=None, files=None, *args, **kwargs):
        # While EditorialAdmin saves this item, it has checked the revision under the row lock
        # and, when someone saved since the form was opened, merged the submission with theirs
        # (editorial/merge/): the form binds the merged data, not the request's.
        self.submission = submission_for(kwargs.get("instance")) if data is not None else None
        self.merge = self.submission.merge if self.submission is not None else None
        if self.merge is not None:
            data = self.merge.data
        super().__init__(data, files, *args, **kwargs)
        self.fields["opened_revision"].initial = latest_version_id(self.instance)

    @property
    def changed_data(self):
        # The comment and the guard are about the save, not the item: keep them out of its log.
        return [name for name in super().changed_data if name not in GUARD_FIELDS]

    def clean(self):
        cleaned = super().clean()
        if self.merge is not None and self.merge.conflicts:
            for name, text in self.merge.errors_for(None, None).items():
                if name in self.fields:
                    self.add_error(name, text)
            raise ValidationError(self.merge.conflict_message(), code="edit_conflict")
        if self.submission is None:
            self._check_nobody_saved_since_opening(cleaned)
        return cleaned

    def _check_nobody_saved_since_opening(self, cleaned):
        """A read-only check of a submission EditorialAdmin did not check under the row lock:
        one without the revision it was opened at is refused when the item has one."""
        if self.instance.pk is None:
            return
        opened = cleaned.get("opened_revision") or 0
        current = latest_version_id(self.instance)
        if opened == current:
            return
        newer = version_chain(self.instance, after=opened)
        who = newer[-1].revision if newer else None
        changes = [plain(line) for line in describe_changes(self.instance, opened or None, current)]
        by = f" ({who.user})" if who and who.user else ""
        at = f" at {services.when(who.date_created)}" if who else ""
        raise ValidationError(
            "Someone else%(by)s saved this %(name)s%(when)s after you opened it, so your save was "
            "refused and their change kept. Open the page again to see it, then redo your edit. "
            "What they changed: %(changes)s",
            params={
                "name": self._meta.model._meta.verbose_name,
                "by": by,
                "when": at,
                "changes": "; ".join(changes) or "nothing visible (it was saved again unchanged)",
            },
            code="edit_conflict",
        )


def moment_field(label):
    return forms.DateTimeField(
        label=label,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text="In the site's time zone, 24-hour.",
    )


def public_note_field(label="Public note"):
    """The note readers see beside a version in the change log, whether published or scheduled."""
    return forms.CharField(
        label=label,
        max_length=300,
        required=False,
        help_text="Optional. Readers see it in the change log, e.g. “Neuron added vLLM”.",
    )


class ScheduleForm(forms.Form):
    at = moment_field("Publish at")
    note = public_note_field("Public note, shown when it goes live")

    def clean_at(self):
        at = self.cleaned_data["at"]
        if at <= timezone.now():
            raise ValidationError("Pick a time still to come; to publish now, use “Publish changes”.")
        return at


class UnpublishAtForm(forms.Form):
    """When to take a live item off the site (services.schedule_unpublish checks it is to come)."""

    at = moment_field("Unpublish at")


class SubmitForm(forms.Form):
    message = forms.CharField(
        label="Message to the publishers",
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 40}),
        help_text="Optional: what to look at, what you were unsure of.",
    )


class RequestChangesForm(forms.Form):
    comment = forms.CharField(
        label="What should change",
        max_length=2000,
        required=False,  # services.request_changes says why an empty one is refused
        widget=forms.Textarea(attrs={"rows": 3, "cols": 40}),
        help_text="Required. The editor who submitted it sees it on this page.",
    )


class ResolveForm(forms.Form):
    comment_id = forms.IntegerField(widget=forms.HiddenInput)


class PublishForm(forms.Form):
    note = public_note_field()
