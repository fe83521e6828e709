"""Revisions in the admin: the history, what changed between any two, revert and recover."""

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from reversion.models import Version

from .. import services
from ..diff import content_of, describe_changes, snapshots, version_chain
from ..models import Comment
from ..revisions import latest_version_id
from .base import EditorialAdminPart


class RevisionHistory(EditorialAdminPart):
    """For EditorialAdmin: every save is a revision (django-reversion); any two compare, and a
    publisher may load an old one into the working copy (``revert_<model>``)."""

    history_latest_first = True
    object_history_template = "admin/editorial/object_history.html"
    revision_form_template = "admin/editorial/revert.html"

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/history/compare/",
                self.admin_site.admin_view(self.compare_view),
                name="{}_{}_compare".format(*info),
            ),
            *super().get_urls(),
        ]

    def revision_view(self, request, object_id, version_id, extra_context=None):
        """Revert: show what loading the revision would change, then load it into the working copy."""
        if not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may revert to an earlier revision.")
        obj = self.get_object(request, unquote(object_id))
        version = Version.objects.get_for_object(obj).filter(pk=version_id).first() if obj else None
        if obj is None or version is None:
            messages.error(request, "That revision is not one of this item's.")
            return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist")
        changes = describe_changes(obj, latest_version_id(obj), version.pk)
        if request.method == "POST":
            try:
                services.revert_to(obj=obj, user=request.user, version_id=version.pk)
            except services.WorkflowError as refused:
                messages.error(request, str(refused))
                return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_history", obj.pk)
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
            "changes": changes,
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
        chain = version_chain(obj) if obj else []
        contents = {pk: content_of(rows) for pk, rows in snapshots([v.pk for v in chain]).items()}
        working_copy = contents.get(chain[-1].pk) if chain else None  # every save is a revision
        context = {
            "revisions": [
                {
                    "version": version,
                    "url": reverse(revision_url, args=[object_id, version.pk]),
                    # Reverting to it would load nothing: no revert offered.
                    "same_as_working_copy": contents.get(version.pk) == working_copy,
                }
                for version in reversed(chain)
            ],
            "comments": list(Comment.objects.on(obj).select_related("author", "resolved_by")) if obj else [],
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
