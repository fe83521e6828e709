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
  someone else's is merged with theirs (editorial/merge.py) and the message says so; only
  a field you both changed is a conflict, shown beside the field with both values. The
  row is locked by the view for the whole save, so two saves cannot both pass the check.
- Presence: opening a change page says who else opened it in the last few minutes
  (editorial/presence.py).
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from reversion.admin import VersionAdmin
from reversion.models import Version

from infra.cache import content_changed

from . import services
from .admin_input import ValidatesInitial
from .diff import describe_changes, version_chain
from .merge import merge_submission
from .presence import clock, note_open
from .revisions import latest_version_id, latest_version_id_of

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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opened_revision"].initial = latest_version_id(self.instance)

    @property
    def changed_data(self):
        # The comment and the guard are about the save, not the item: keep them out of its log.
        return [name for name in super().changed_data if name not in GUARD_FIELDS]

    merge = None  # what EditorialAdmin found rebasing this submission (editorial/merge.py)
    guarded = False  # EditorialAdmin compared the revisions under the row lock already

    def clean(self):
        cleaned = super().clean()
        if self.merge is not None:
            if self.merge.conflicts:
                for name, text in self.merge.errors_for(None, None).items():
                    if name in self.fields:
                        self.add_error(name, text)
                raise ValidationError(self.merge.conflict_message(), code="edit_conflict")
            return cleaned
        if not self.guarded:
            self._check_nobody_saved_since_opening(cleaned)
        return cleaned

    def _check_nobody_saved_since_opening(self, cleaned):
        """A read-only check; EditorialAdmin.changeform_view holds the row lock around it."""
        if self.instance.pk is None:
            return
        opened = cleaned.get("opened_revision") or 0
        current = latest_version_id(self.instance)
        if opened == current:
            return
        newer = version_chain(self.instance, after=opened)
        who = newer[-1].revision if newer else None
        changes = describe_changes(self.instance, opened or None, current)
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


class ScheduleForm(forms.Form):
    at = forms.DateTimeField(
        label="Publish at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text="In the site's time zone, 24-hour.",
    )
    note = forms.CharField(label="Public note", max_length=300, required=False)

    def clean_at(self):
        at = self.cleaned_data["at"]
        if at <= timezone.now():
            raise ValidationError("Pick a time still to come; to publish now, use “Publish changes”.")
        return at


class PublishForm(forms.Form):
    note = forms.CharField(
        label="Public note",
        max_length=300,
        required=False,
        help_text="Optional. Readers see it in the change log, e.g. “Neuron added vLLM”.",
    )


class StateFilter(admin.SimpleListFilter):
    """The items in one state, as the ``state`` annotation says (editorial.services.with_state)."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return services.State.choices

    def queryset(self, request, queryset):
        if self.value() in services.State.values:
            return queryset.filter(state=self.value())
        return queryset


STEPS = {
    # step: (permission, service, message)
    "publish": ("publish", services.publish, "Published: visitors see it now."),
    "schedule": ("publish", services.publish, "Scheduled: it goes live at %(at)s."),
    "discard": (
        "publish",
        services.discard_changes,
        "Unpublished changes discarded: back to the live version.",
    ),
    "unpublish": ("publish", services.unpublish, "Unpublished: visitors no longer see it."),
    "cancel": (
        "publish",
        services.cancel_schedule,
        "Schedule cancelled; the changes wait in the working copy.",
    ),
    "submit": (
        "change",
        services.submit_for_review,
        "Submitted for review: a publisher will see it waiting.",
    ),
}


class EditorialAdmin(ValidatesInitial, VersionAdmin):
    """Publishing, roles, revisions and the edit guard for a ModelAdmin whose form is an EditorialForm."""

    history_latest_first = True
    object_history_template = "admin/editorial/object_history.html"
    change_form_template = "admin/editorial/change_form.html"
    revision_form_template = "admin/editorial/revert.html"

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

    # The workflow's buttons: each posts to <pk>/workflow/<step>/.

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/history/compare/",
                self.admin_site.admin_view(self.compare_view),
                name="{}_{}_compare".format(*info),
            ),
            path(
                "<path:object_id>/workflow/<slug:step>/",
                self.admin_site.admin_view(self.workflow_view),
                name="{}_{}_workflow".format(*info),
            ),
            *super().get_urls(),
        ]

    def workflow_view(self, request, object_id, step):
        if request.method != "POST" or step not in STEPS:
            raise PermissionDenied
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            raise PermissionDenied
        permission, service, message = STEPS[step]
        allowed = (
            self.has_publish_permission(request)
            if permission == "publish"
            else self.has_change_permission(request, obj)
        )
        if not allowed:
            raise PermissionDenied("Only a publisher may publish, schedule, discard or unpublish.")
        change_url = reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])
        kwargs = {"obj": obj, "user": request.user}
        if step in ("publish", "schedule"):
            form = (ScheduleForm if step == "schedule" else PublishForm)(request.POST)
            if not form.is_valid():
                for errors in form.errors.values():
                    messages.error(request, " ".join(errors))
                return redirect(change_url)
            kwargs["note"] = form.cleaned_data.get("note", "")
            if step == "schedule":
                kwargs["at"] = form.cleaned_data["at"]
        try:
            service(**kwargs)
        except services.WorkflowError as error:
            messages.error(request, str(error))
            return redirect(change_url)
        messages.success(request, message % {"at": services.when(kwargs.get("at") or timezone.now())})
        return redirect(change_url)

    # History: revisions, and what changed between any two.

    def revision_view(self, request, object_id, version_id, extra_context=None):
        """Revert: show what loading the revision would change, then load it into the working copy."""
        if not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may revert to an earlier revision.")
        obj = self.get_object(request, unquote(object_id))
        version = Version.objects.get_for_object(obj).filter(pk=version_id).first() if obj else None
        if version is None:
            messages.error(request, "That revision is not one of this item's.")
            return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist")
        if request.method == "POST":
            services.revert_to(obj=obj, user=request.user, version_id=version.pk)
            messages.success(
                request,
                f"The revision of {services.when(version.revision.date_created)} is loaded into the working "
                "copy as unpublished changes. The live page is unchanged until a publisher publishes them.",
            )
            return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", obj.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "object": obj,
            "version": version,
            "title": f"Revert {obj} to the revision of {services.when(version.revision.date_created)}?",
            "changes": describe_changes(obj, latest_version_id(obj), version.pk),
        }
        return TemplateResponse(request, self.revision_form_template, context)

    def recover_view(self, request, version_id, extra_context=None):
        if not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may recover a deleted item.")
        return super().recover_view(request, version_id, extra_context)

    def recoverlist_view(self, request, extra_context=None):
        if not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may recover a deleted item.")
        return super().recoverlist_view(request, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        revision_url = f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_revision"
        context = {
            "revisions": [
                {"version": version, "url": reverse(revision_url, args=[object_id, version.pk])}
                for version in reversed(version_chain(obj))
            ]
            if obj
            else [],
            "can_revert": self.has_revert_permission(request),
            "compare_url": reverse(
                f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_compare",
                args=[object_id],
            ),
        }
        return super().history_view(request, object_id, {**context, **(extra_context or {})})

    def compare_view(self, request, object_id):
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        versions = {v.pk: v for v in version_chain(obj)}
        try:
            picked = sorted({int(request.GET.get(key, "")) for key in ("a", "b")})
        except ValueError:
            picked = []
        if len(picked) != 2 or not all(pk in versions for pk in picked):
            messages.error(request, "Pick two different revisions of this item to compare.")
            return redirect(
                f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_history", object_id
            )
        older, newer = versions[picked[0]], versions[picked[1]]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "object": obj,
            "title": f"What changed in {obj}",
            "older": older,
            "pair": [("Older", older), ("Newer", newer)],
            "changes": describe_changes(obj, older.pk, newer.pk),
            "can_revert": self.has_revert_permission(request),
        }
        return TemplateResponse(request, "admin/editorial/compare.html", context)

    # The list.

    def changelist_view(self, request, extra_context=None):
        """Without django-reversion's surrounding revision block: each action saves its items
        in revisions of their own, so no item's history shows another item's rows."""
        context = {"has_change_permission": self.has_change_permission(request), **(extra_context or {})}
        return admin.ModelAdmin.changelist_view(self, request, context)

    @admin.display(description="state", ordering="live_since")
    def state(self, obj):
        return services.state(obj)

    def get_list_display(self, request):
        return [*super().get_list_display(request), "state"]

    def get_list_filter(self, request):
        return [StateFilter, *super().get_list_filter(request)]

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

    # Actions.

    actions = ["publish_changes", "unpublish", "submit_for_review"]

    def _each(self, request, queryset, service, done):
        count, refused = 0, []
        for obj in queryset:
            try:
                service(obj=obj, user=request.user)
                count += 1
            except services.WorkflowError as error:
                refused.append(f"{obj}: {error}")
        messages.success(request, f"{done} {count} {self._noun(count)}.")
        for line in refused:
            messages.warning(request, line)

    @admin.action(description="Publish changes", permissions=["publish"])
    def publish_changes(self, request, queryset):
        self._each(
            request,
            queryset.filter(has_unpublished_changes=True),
            services.publish,
            "Published",
        )

    @admin.action(description="Unpublish (visitors no longer see it)", permissions=["publish"])
    def unpublish(self, request, queryset):
        self._each(request, queryset.filter(live_since__isnull=False), services.unpublish, "Unpublished")

    @admin.action(description="Submit for review", permissions=["change"])
    def submit_for_review(self, request, queryset):
        self._each(
            request, queryset.filter(has_unpublished_changes=True), services.submit_for_review, "Submitted"
        )

    def _noun(self, count):
        return self.opts.verbose_name if count == 1 else self.opts.verbose_name_plural


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
