"""``{% stale_facts as stale %}``: the staleness queue's size, for the admin index.

``stale`` is None for a user who may not view facts; otherwise it has ``count`` (one
COUNT query), ``days`` (settings.FRESHNESS_DAYS) and ``url`` (the queue).
"""

from django import template
from django.conf import settings
from django.urls import reverse

from vendors.models import Fact

register = template.Library()


@register.simple_tag(takes_context=True)
def stale_facts(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not (user.has_perm("vendors.view_fact") or user.has_perm("vendors.change_fact")):
        return None
    return {
        "count": Fact.objects.stale().count(),
        "days": settings.FRESHNESS_DAYS,
        "url": reverse("admin:vendors_stalefact_changelist"),
    }
