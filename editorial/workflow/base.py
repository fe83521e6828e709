"""What EditorialAdmin's parts (history, preview, steps, listing) may use of the admin they are
mixed into, as the type checker sees it.

At run time each part is a plain class and EditorialAdmin puts them before django-reversion's
VersionAdmin; to mypy each part is a ModelAdmin with the workflow's permissions and
VersionAdmin's views (django-reversion ships no type information).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib import admin
    from django.http import HttpRequest, HttpResponse
    from django.template.response import TemplateResponse

    class EditorialAdminPart(admin.ModelAdmin[Any]):
        def has_publish_permission(self, request: HttpRequest, obj: Any = None) -> bool: ...
        def has_revert_permission(self, request: HttpRequest, obj: Any = None) -> bool: ...
        def recover_view(
            self, request: HttpRequest, version_id: int, extra_context: dict[str, Any] | None = None
        ) -> HttpResponse: ...
        def recoverlist_view(
            self, request: HttpRequest, extra_context: dict[str, Any] | None = None
        ) -> TemplateResponse: ...

else:
    EditorialAdminPart = object
