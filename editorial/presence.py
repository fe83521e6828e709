"""Who else has a change page open: “editor2 has this profile open since 19:13”.

Each opening of an item's change page is noted in the shared cache (Redis in production,
so every app server sees it). While the page stays open its script (static/js/working-copy.js)
notes it again every HEARTBEAT_SECONDS, and says when the page closes (``note_left``); an
editor counts as present until then, or PRESENCE_SECONDS after the last word from their page
(a browser without the script: after they last opened or saved it).
"""

import datetime as dt

from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_SECONDS = 30
PRESENCE_SECONDS = 3 * HEARTBEAT_SECONDS  # three heartbeats missed: the page is gone


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


def note_left(*, model, object_id, user):
    """``user`` closed the item's page: nobody is told they still have it open."""
    key = _key(model, object_id)
    opens = cache.get(key) or {}
    if opens.pop(str(user.pk), None) is not None:
        cache.set(key, opens, timeout=PRESENCE_SECONDS)


def clock(moment, *, now=None):
    """19:13 today, else the admin's date and time."""
    from .services import when

    local, today = timezone.localtime(moment), timezone.localtime(now or timezone.now()).date()
    return local.strftime("%H:%M") if local.date() == today else when(moment)
