"""Hostile or mistyped admin input answers 400 with a reason, never a 500.

NUL bytes in any query parameter are refused site-wide (infra.middleware.AdminInputMiddleware),
before they can reach PostgreSQL; this mixin covers what Django's admin does not check itself:
an add form's initial values from the query string (``?lane=abc``).
"""

from typing import TYPE_CHECKING, Any

from django.core.exceptions import BadRequest, FieldDoesNotExist, ValidationError
from django.db.models import ForeignObjectRel
from django.db.models.fields.related import RelatedField

if TYPE_CHECKING:
    from django.contrib import admin

    ModelAdminPart = admin.ModelAdmin[Any]  # what ValidatesInitial is mixed into
else:
    ModelAdminPart = object


class ValidatesInitial(ModelAdminPart):
    """An add form prefilled from the query string refuses values its fields cannot hold, so
    that rendering the form never queries with them."""

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        for name, value in initial.items():
            try:
                field = self.opts.get_field(name)
            except FieldDoesNotExist:
                continue
            target = field.target_field if isinstance(field, RelatedField | ForeignObjectRel) else field
            for item in value if isinstance(value, list) else [value]:
                if item in ("", None):
                    continue
                try:
                    target.to_python(item)
                except ValidationError as error:
                    raise BadRequest(
                        f"“{name}” cannot start as “{item[:40]}”: {error.messages[0]}"
                    ) from error
        return initial
