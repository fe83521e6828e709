"""Probes for load balancers and orchestrators: never cached, never redirected to HTTPS.

- ``/healthz``: the process is alive and answers. Touches neither database nor cache, so a
  database outage does not get healthy app servers restarted.
- ``/readyz``: the database and the cache both answer; 503 with what failed otherwise, so a
  load balancer sends visitors elsewhere until they are back.
"""

from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_safe


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache():
    ping = getattr(cache, "ping", None)  # the Redis backend's, which raises when Redis is down
    if ping:
        ping()
    else:
        cache.set("readyz", "ok", 5)
        if cache.get("readyz") != "ok":
            raise RuntimeError("the cache did not keep a value")


CHECKS = {"database": _database, "cache": _cache}


@require_safe
@never_cache
@csp_override({})
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")


@require_safe
@never_cache
@csp_override({})
def readyz(request):
    results = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as error:  # noqa: BLE001 - any failure means "not ready", said in words
            results[name] = f"failed: {type(error).__name__}"
        else:
            results[name] = "ok"
    ready = all(result == "ok" for result in results.values())
    response = JsonResponse({"ready": ready, **results}, status=200 if ready else 503)
    # The outage itself is logged once (infra.outage, infra.cache_backends): not once per probe.
    response._has_been_logged = True
    return response
