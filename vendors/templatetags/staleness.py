"""``{% stale_facts as stale %}``: the staleness queue's size, for the admin index.

``stale`` is None for a user who may view none of the verified kinds; otherwise it
has ``count`` (all kinds the user may view, one COUNT query per kind), ``parts`` (“3 facts,
1 event”), ``days`` (settings.FRESHNESS_DAYS) and ``url`` (the first kind's queue).
"""

from django import template
from django.conf import settings

from vendors.admin.staleness import plural, queue_counts, queue_nouns

register = template.Library()


@register.simple_tag(takes_context=True)
def stale_facts(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    kinds = queue_counts(user) if user is not None else []
    if not kinds:
        return None
    return {
        "count": sum(count for _, count, _ in kinds),
        "parts": ", ".join(plural(count, *queue_nouns(label)) for label, count, _ in kinds),
        "days": settings.FRESHNESS_DAYS,
        "url": next((url for _, count, url in kinds if count), kinds[0][2]),
    }


@register.simple_tag(takes_context=True)
def my_stale_rows(context):
    """How many of the rows this user last verified (of every verified kind) are stale now."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return None
    kinds = queue_counts(user, verified_by=user)
    count = sum(count for _, count, _ in kinds)
    if not count:
        return None
    return {
        "count": count,
        "parts": ", ".join(plural(n, *queue_nouns(label)) for label, n, _ in kinds if n),
        "url": next(url for _, n, url in kinds if n),
    }
