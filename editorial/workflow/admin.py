"""EditorialAdmin: the working copy's change page, with its permissions, the edit guard and the merge."""

from dataclasses import replace

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.urls import path
from reversion.admin import VersionAdmin

from infra.admin_input import ValidatesInitial

from .. import pages, selectors, services
from ..merge import merge_submission
from ..models import Comment
from ..presence import HEARTBEAT_SECONDS, clock, note_left, note_open
from ..registry import publication_for
from ..revisions import latest_version_id_of
from .forms import PublishForm, RequestChangesForm, ScheduleForm, SubmitForm, UnpublishAtForm
from .history import RevisionHistory
from .listing import StateListing
from .preview import SideBySide
from .saving import Submission, saving, submission_for
from .steps import WorkflowSteps


class EditorialAdmin(
    RevisionHistory, SideBySide, WorkflowSteps, StateListing, ValidatesInitial, VersionAdmin
):
    """Publishing, roles, revisions and the edit guard for a ModelAdmin whose form is an EditorialForm."""

    change_form_template = "admin/editorial/change_form.html"

    # Permissions.

    def _codename(self, action):
        return f"{self.opts.app_label}.{action}_{self.opts.model_name}"

    def has_publish_permission(self, request, obj=None):
        return request.user.has_perm(self._codename("publish"))

    def has_revert_permission(self, request, obj=None):
        return request.user.has_perm(self._codename("revert"))

    def has_delete_permission(self, request, obj=None):
        if not super().has_delete_permission(request, obj):
            return False
        if obj is not None and selectors.live_version(obj) is not None:
            return self.has_publish_permission(request)
        return True

    def get_queryset(self, request):
        return selectors.with_state(super().get_queryset(request))

    # Saving the working copy.

    item_noun: str | None = None  # how the presence message names the item; the model's name when None

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/presence/",
                self.admin_site.admin_view(self.presence_view),
                name="{}_{}_presence".format(*info),
            ),
            *super().get_urls(),
        ]

    def presence_view(self, request, object_id):
        """The open change page's heartbeat (who else has it open, as JSON), or ``leave``."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        if request.POST.get("leave"):
            note_left(model=self.model, object_id=unquote(object_id), user=request.user)
            return HttpResponse(status=204)
        others = note_open(model=self.model, object_id=unquote(object_id), user=request.user)
        return JsonResponse({"others": self._also_here(others)})

    def _also_here(self, others):
        """“Also here: editor2 has this profile open since 19:13.”, for each of ``others``."""
        noun = self.item_noun or self.opts.verbose_name
        # Not led by the name: the admin capitalises a message's first letter.
        return [f"Also here: {name} has this {noun} open since {clock(since)}." for name, since in others]

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method == "POST" and object_id:
            # Hold the row for the whole save: a second save waits, then sees this one's revision.
            with transaction.atomic():
                list(self.model.objects.select_for_update().filter(pk=unquote(object_id)).values_list("pk"))
                with saving(self._check_submission(request, unquote(object_id))):
                    response = super().changeform_view(request, object_id, form_url, extra_context)
        else:
            response = super().changeform_view(request, object_id, form_url, extra_context)
        if object_id and response.status_code == 200:
            self._say_who_else_has_it_open(request, object_id)
        return response

    def _check_submission(self, request, pk):
        """Compare the revision the form was opened at with the one saved now (the row is held);
        when someone saved since, merge the submission with theirs (editorial/merge.py).
        None when the form does not say which revision it was opened at: the form refuses it."""
        try:
            opened = int(request.POST["opened_revision"] or 0)
        except (KeyError, ValueError):
            return None
        submission = Submission(label=self.opts.label_lower, pk=str(pk))
        current = latest_version_id_of(self.model, pk)
        if opened == current:
            return submission
        obj = self.get_object(request, pk)
        if obj is None or not self.has_change_permission(request, obj):
            return submission  # the admin answers with its own redirect or 403
        merge = merge_submission(
            obj=obj,
            opened=opened,
            current=current,
            submitted=request.POST,
            files=request.FILES,
            form_class=self.get_form(request, obj, change=True),
            inline_formsets=self._formsets_as_saved(request, obj),
        )
        return replace(submission, merge=merge)

    def _formsets_as_saved(self, request, obj):
        """(prefix, unbound formset) for each inline: its rows as saved now."""
        for formset_class, inline in self.get_formsets_with_inlines(request, obj):
            prefix = formset_class.get_default_prefix()
            kwargs = self.get_formset_kwargs(request, obj, inline, prefix)
            for key in ("data", "files", "save_as_new"):
                kwargs.pop(key, None)
            yield prefix, formset_class(**kwargs)

    def _say_who_else_has_it_open(self, request, object_id):
        others = note_open(model=self.model, object_id=unquote(object_id), user=request.user)
        if request.method == "GET":
            for text in self._also_here(others):
                messages.info(request, text)

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        submission = submission_for(obj)
        if "data" in kwargs and submission is not None and submission.merge is not None:
            kwargs["data"] = submission.merge.data.copy()  # the inline's rows merged with theirs
        return kwargs

    def get_inline_formsets(self, request, formsets, inline_instances, obj=None):
        """Show each conflict on an inline row beside its field (or on the row), both values."""
        submission = submission_for(obj)
        if submission is not None and submission.merge is not None and submission.merge.conflicts:
            for formset in formsets:
                for index, form in enumerate(formset.forms):
                    for name, text in submission.merge.errors_for(formset.prefix, index).items():
                        form.add_error(name if name in form.fields else None, text)
        return super().get_inline_formsets(request, formsets, inline_instances, obj)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context["presence_heartbeat_seconds"] = HEARTBEAT_SECONDS  # static/js/working-copy.js
        if obj is not None and obj.pk:
            live = selectors.live_version(obj)
            pending = selectors.pending_version(obj)
            context.update(
                workflow_state=selectors.state(obj),
                live_version=live,
                pending_version=pending,
                can_publish=self.has_publish_permission(request),
                can_submit=self.has_change_permission(request, obj),
                pending_changes=selectors.unpublished_changes(obj, live=live, pending=pending),
                publish_form=PublishForm(),
                schedule_form=ScheduleForm(auto_id="id_schedule_%s"),  # beside the publish form's fields
                submit_form=SubmitForm(),
                request_changes_form=RequestChangesForm(),
                unpublish_at_form=UnpublishAtForm(),
                unpublishing_at=selectors.unpublishing_at(live=live, pending=pending),
                comments=list(Comment.objects.on(obj).select_related("author", "resolved_by")),
                # Never published: nothing to compare with, so what it holds, in a few lines.
                new_item_summary=(
                    publication_for(obj).summary(publication_for(obj).document(obj))
                    if live is None and pending is None and self.has_publish_permission(request)
                    else []
                ),
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.refresh_state(obj=form.instance)

    def delete_model(self, request, obj):
        with pages.deleting([obj]):  # a live item deleted takes its versions with it
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with pages.deleting(queryset):
            super().delete_queryset(request, queryset)

    def response_change(self, request, obj):
        response = super().response_change(request, obj)
        if (submission := submission_for(obj)) is not None and submission.merge is not None:
            messages.success(request, submission.merge.message())
        if selectors.live_version(obj) is not None and obj.has_unpublished_changes:
            messages.info(request, self._waiting_message(request, obj))
        return response

    def _waiting_message(self, request, obj):
        """What a save of a live item's working copy leaves to do, naming only the steps the
        user may take: a publisher's, or an editor's submit for review."""
        waiting = "Visitors still see the live version: these changes wait for a publisher"
        if self.has_publish_permission(request):
            return f"{waiting} (Publish changes, Schedule changes or Discard changes)."
        if obj.review_requested_at:
            return f"{waiting}, who sees them waiting for review."
        return f"{waiting}. Submit them for review when they are ready."

    # Saving: the revision's comment is the editor's own (empty when none is given); the admin's
    # automatic log message stays in its own log (LogEntry), and a compare page lists what changed.

    def log_change(self, request, object, message):
        entry = super().log_change(request, object, message)
        self._keep_editor_comment(request)
        return entry

    def log_addition(self, request, object, message):
        entry = super().log_addition(request, object, message)
        self._keep_editor_comment(request)
        return entry

    def _keep_editor_comment(self, request):
        from reversion import is_active, set_comment

        if is_active():
            set_comment((request.POST.get("revision_comment") or "").strip()[:200])
