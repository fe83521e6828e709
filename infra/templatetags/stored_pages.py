"""``{% failing_renders as failing %}``: for superusers, the stored pages whose renders have
failed for more than FAILING_FOR (visitors get the previous bytes meanwhile), for the admin
index's notice."""

import datetime as dt
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone

from infra.stored.retries import failing_since

register = template.Library()
FAILING_FOR = dt.timedelta(minutes=10)


@register.simple_tag(takes_context=True)
def failing_renders(context: Any) -> dict[str, Any] | None:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not (user.is_active and user.is_superuser):
        return None
    count = failing_since(timezone.now() - FAILING_FOR).count()
    if not count:
        return None
    return {
        "count": count,
        "minutes": int(FAILING_FOR.total_seconds() // 60),
        "url": reverse("admin:infra_storedpage_changelist") + "?render=failed",
    }
