"""The side-by-side preview: the live page as visitors see it beside the working copy's, with
what the working copy changes marked on it (editorial.views frames both pages for this view
only) and listed above them. A new item has no live page: its working copy and what it holds."""

from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path

from .. import selectors
from ..registry import publication_for
from .base import EditorialAdminPart


class SideBySide(EditorialAdminPart):
    """For EditorialAdmin: ``<pk>/preview/``."""

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/preview/",
                self.admin_site.admin_view(self.side_by_side_view),
                name="{}_{}_preview".format(*info),
            ),
            *super().get_urls(),
        ]

    def side_by_side_view(self, request, object_id):
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_change_permission(request, obj):
            raise PermissionDenied
        live, pending = selectors.live_version(obj), selectors.pending_version(obj)
        publication = publication_for(obj)
        address = obj.get_absolute_url()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "object": obj,
            "title": f"{obj}: the working copy beside the live page",
            "state": selectors.state(obj),
            "live_version": live,
            "pending_version": pending,
            "live_url": f"{address}?live&frame" if live else "",
            "working_url": f"{address}?frame",
            "changes": selectors.unpublished_changes(obj, live=live, pending=pending),
            "new_item_summary": (
                publication.summary(publication.document(obj)) if live is None and pending is None else []
            ),
        }
        return TemplateResponse(request, "admin/editorial/preview.html", context)
