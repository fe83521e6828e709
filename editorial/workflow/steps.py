"""The workflow's buttons on a change page: each posts to <pk>/workflow/<step>/ and calls a service."""

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone

from .. import services
from .forms import PublishForm, ScheduleForm

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


class WorkflowSteps:
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
