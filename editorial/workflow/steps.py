"""The workflow's buttons on a change page: each posts to <pk>/workflow/<step>/ and calls a service."""

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone

from .. import services
from .base import EditorialAdminPart
from .forms import PublishForm, RequestChangesForm, ResolveForm, ScheduleForm, SubmitForm, UnpublishAtForm

# step: (permission, service, its form or None, message)
Step = tuple[str, Callable[..., object], type[forms.Form] | None, str]
STEPS: dict[str, Step] = {
    "publish": ("publish", services.publish, PublishForm, "Published: visitors see it now."),
    "schedule": ("publish", services.publish, ScheduleForm, "Scheduled: it goes live at %(at)s."),
    "discard": (
        "publish",
        services.discard_changes,
        None,
        "Unpublished changes discarded: back to the live version.",
    ),
    "unpublish": ("publish", services.unpublish, None, "Unpublished: visitors no longer see it."),
    "cancel": (
        "publish",
        services.cancel_schedule,
        None,
        "Schedule cancelled; the changes wait in the working copy.",
    ),
    "submit": (
        "change",
        services.submit_for_review,
        SubmitForm,
        "Submitted for review: a publisher will see it waiting.",
    ),
    "request-changes": (
        "publish",
        services.request_changes,
        RequestChangesForm,
        "Sent back with your comment: it no longer waits for review.",
    ),
    "schedule-unpublish": (
        "publish",
        services.schedule_unpublish,
        UnpublishAtForm,
        "Unpublishing scheduled: it stays live until %(at)s.",
    ),
    "cancel-unpublish": (
        "publish",
        services.cancel_unpublish,
        None,
        "Scheduled unpublishing cancelled: it stays live.",
    ),
    "resolve": ("change", services.resolve_comment, ResolveForm, "Comment marked resolved."),
}


class WorkflowSteps(EditorialAdminPart):
    """For EditorialAdmin: publish, schedule, discard, unpublish, cancel and submit, one button each."""

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
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
        permission, service, form_class, message = STEPS[step]
        allowed = (
            self.has_publish_permission(request)
            if permission == "publish"
            else self.has_change_permission(request, obj)
        )
        if not allowed:
            raise PermissionDenied("Only a publisher may publish, schedule, send back, discard or unpublish.")
        change_url = reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])
        kwargs = {"obj": obj, "user": request.user}
        if form_class is not None:
            form = form_class(request.POST)
            if not form.is_valid():
                for errors in form.errors.values():
                    messages.error(request, " ".join(str(error) for error in errors))
                return redirect(change_url)
            kwargs |= {name: value for name, value in form.cleaned_data.items() if value is not None}
        try:
            service(**kwargs)
        except services.WorkflowError as error:
            messages.error(request, str(error))
            return redirect(change_url)
        messages.success(request, message % {"at": services.when(kwargs.get("at") or timezone.now())})
        return redirect(change_url)
