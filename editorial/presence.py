"""Who else has a change page open: “editor2 has this profile open since 19:13”.

Each opening of an item's change page is noted in the shared cache (Redis in production,
so every app server sees it) for a few minutes; no JavaScript keeps it alive, so an editor
counts as present for PRESENCE_SECONDS after they last opened or saved the page.
"""

import datetime as dt

from django.core.cache import cache
from django.utils import timezone

PRESENCE_SECONDS = 5 * 60


def _key(model, object_id):
    return f"editorial:open:{model._meta.label_lower}:{object_id}"


def note_open(*, model, object_id, user, now=None):
    """Note that ``user`` has the item open; return the others who have, as [(name, since)]."""
    now = now or timezone.now()
    key = _key(model, object_id)
    recent = now.timestamp() - PRESENCE_SECONDS
    opens = {pk: seen for pk, seen in (cache.get(key) or {}).items() if seen["last"] >= recent}
    mine = opens.get(str(user.pk))
    opens[str(user.pk)] = {
        "name": user.get_username(),
        "since": mine["since"] if mine else now.timestamp(),
        "last": now.timestamp(),
    }
    cache.set(key, opens, timeout=PRESENCE_SECONDS)
    others = [seen for pk, seen in opens.items() if pk != str(user.pk)]
    return [
        (seen["name"], dt.datetime.fromtimestamp(seen["since"], tz=dt.UTC))
        for seen in sorted(others, key=lambda seen: seen["since"])
    ]


def clock(moment, *, now=None):
    """19:13 today, else the admin's date and time."""
    from .services import when

    local, today = timezone.localtime(moment), timezone.localtime(now or timezone.now()).date()
    return local.strftime("%H:%M") if local.date() == today else when(moment)
