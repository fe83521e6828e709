from django import template
from django.urls import reverse

from ..models import Correction

register = template.Library()


@register.simple_tag(takes_context=True)
def open_corrections(context):
    """How many readers' corrections wait for an editor, for those who may decide them."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.has_perm("corrections.view_correction"):
        return None
    return {
        "count": Correction.objects.open().count(),
        "url": reverse("admin:corrections_correction_changelist"),  # opens on the new ones
    }
