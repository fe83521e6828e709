"""EditorialAdmin: the working copy's change page, with its permissions, the edit guard and the merge."""

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.db import transaction
from reversion.admin import VersionAdmin
from reversion.models import Version

from infra.cache import content_changed

from .. import services
from ..admin_input import ValidatesInitial
from ..diff import describe_changes
from ..merge import merge_submission
from ..presence import clock, note_open
from ..revisions import latest_version_id, latest_version_id_of
from .forms import EditorialForm, PublishForm, ScheduleForm
from .history import RevisionHistory
from .listing import StateListing
from .steps import WorkflowSteps


class EditorialAdmin(RevisionHistory, WorkflowSteps, StateListing, ValidatesInitial, VersionAdmin):
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
        if obj is not None and services.live_version(obj) is not None:
            return self.has_publish_permission(request)
        return True

    def get_queryset(self, request):
        return services.with_state(super().get_queryset(request))

    # Saving the working copy.

    item_noun = None  # how the presence message names the item; the model's name when None

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method == "POST" and object_id:
            # Hold the row for the whole save: a second save waits, then sees this one's revision.
            with transaction.atomic():
                list(self.model.objects.select_for_update().filter(pk=unquote(object_id)).values_list("pk"))
                self._merge_with_saves_since_opening(request, object_id)
                response = super().changeform_view(request, object_id, form_url, extra_context)
        else:
            response = super().changeform_view(request, object_id, form_url, extra_context)
        if object_id and response.status_code == 200:
            self._say_who_else_has_it_open(request, object_id)
        return response

    def _merge_with_saves_since_opening(self, request, object_id):
        """Rebase the submitted form onto saves made since it was opened (editorial/merge.py)."""
        if "opened_revision" not in request.POST:
            return
        try:
            opened = int(request.POST["opened_revision"] or 0)
        except ValueError:
            return
        current = latest_version_id_of(self.model, unquote(object_id))
        request.editorial_guarded = True  # the form need not ask again: nobody saves while we hold the row
        if opened == current:
            return
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_change_permission(request, obj):
            return
        merge = merge_submission(model_admin=self, request=request, obj=obj, opened=opened, current=current)
        request.POST = merge.data
        request.editorial_merge = merge

    def _say_who_else_has_it_open(self, request, object_id):
        others = note_open(model=self.model, object_id=unquote(object_id), user=request.user)
        if request.method == "GET":
            noun = self.item_noun or self.opts.verbose_name
            for name, since in others:
                # Not led by the name: the admin capitalises a message's first letter.
                messages.info(request, f"Also here: {name} has this {noun} open since {clock(since)}.")

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if not getattr(request, "editorial_guarded", False) or not issubclass(form, EditorialForm):
            return form
        return type(
            form.__name__, (form,), {"merge": getattr(request, "editorial_merge", None), "guarded": True}
        )

    def get_formsets_with_inlines(self, request, obj=None):
        merge = getattr(request, "editorial_merge", None)
        for formset, inline in super().get_formsets_with_inlines(request, obj):
            yield (_marks_conflicts(formset, merge) if merge and merge.conflicts else formset), inline

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and obj.pk:
            live = services.live_version(obj)
            pending = services.pending_version(obj)
            basis = pending or live
            context.update(
                workflow_state=services.state(obj),
                live_version=live,
                pending_version=pending,
                can_publish=self.has_publish_permission(request),
                can_submit=self.has_change_permission(request, obj),
                pending_changes=(
                    describe_changes(obj, basis.source_version_id, latest_version_id(obj))
                    if basis and obj.has_unpublished_changes and _exists(basis.source_version_id)
                    else []
                ),
                publish_form=PublishForm(),
                schedule_form=ScheduleForm(),
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.refresh_state(obj=form.instance)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        content_changed()  # a live item deleted takes its versions with it

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        content_changed()

    def response_change(self, request, obj):
        response = super().response_change(request, obj)
        if (merge := getattr(request, "editorial_merge", None)) is not None:
            messages.success(request, merge.message())
        if services.live_version(obj) is not None and obj.has_unpublished_changes:
            messages.info(
                request,
                "Visitors still see the live version: these changes wait for a publisher "
                "(Publish changes, Schedule changes or Discard changes).",
            )
        return response

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


def _marks_conflicts(formset_class, merge):
    """The inline's formset with each conflicting row's fields showing both values."""

    class MarksConflicts(formset_class):
        def clean(self):
            super().clean()
            for index, form in enumerate(self.forms):
                for name, text in merge.errors_for(self.prefix, index).items():
                    form.add_error(name if name in form.fields else None, text)

    MarksConflicts.__name__ = formset_class.__name__
    return MarksConflicts


def _exists(version_id):
    return bool(version_id) and Version.objects.filter(pk=version_id).exists()
