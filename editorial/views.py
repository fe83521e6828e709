"""Preview in one place: what a public page of a published item shows, and to whom.

Visitors get the live version. A user who may change the item sees its working copy
instead whenever that is not what visitors see (a draft, a scheduled item, unpublished
changes), with a banner that names its state; such responses are sent
``Cache-Control: private, no-store`` so no shared cache keeps them. ``?live`` shows
such a user the live version, as visitors see it.

The admin's side-by-side preview (editorial.workflow.preview) frames both: with ``?frame``,
a user who may preview gets either page framable by the site itself (``frame-ancestors
'self'``, private), and every other response stays unframable.
"""

from typing import TYPE_CHECKING

from django.conf import settings
from django.http import Http404
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.csp import CSP

from . import selectors
from .models import Editable

if TYPE_CHECKING:
    from django.views.generic import TemplateView as _PageView  # what the mixin is mixed into
else:
    _PageView = object


class PublishedPageMixin(_PageView):
    model: type[Editable]  # the working copy's model, e.g. Vendor: each view sets it

    def can_preview(self):
        opts = self.model._meta
        return self.request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")

    def get_page(self, *, live_version, slug):
        """(version, working copy to preview or None); 404 when neither may be shown."""
        working = None
        if self.can_preview() and "live" not in self.request.GET:
            # Every working copy (Vendor, Comparison) has a slug; Editable, their abstract base, does not.
            candidate = self.model._default_manager.filter(slug=slug).first()  # type: ignore[misc]
            if candidate is not None and (
                live_version is None
                or live_version.item_id != candidate.pk
                or candidate.has_unpublished_changes
                or selectors.pending_version(candidate) is not None
            ):
                working = candidate
        if working is None and live_version is None:
            raise Http404("No such published page.")
        return live_version, working

    def preview_context(self, working, live_version):
        if working is None:
            return {"is_preview": False}
        return {
            "is_preview": True,
            "preview_state": selectors.state(working),
            "has_live_version": live_version is not None and live_version.item_id == working.pk,
        }

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        framed = "frame" in self.request.GET and self.can_preview()
        if context.get("is_preview") or framed:
            add_never_cache_headers(response)
            patch_cache_control(response, private=True, no_store=True)
        if framed:
            # What the CSP middleware sends for this response, as @csp_override sets it.
            response._csp_config = {**settings.SECURE_CSP, "frame-ancestors": [CSP.SELF]}  # type: ignore[attr-defined]
            response.headers["X-Frame-Options"] = "SAMEORIGIN"
        return response
