"""Probes for load balancers and orchestrators: never cached, never redirected to HTTPS.

- ``/healthz``: the process is alive and answers. Touches neither database nor cache, so a
  database outage does not get healthy app servers restarted.
- ``/readyz``: can this server serve visitors? Only the database decides: without it every
  page is the 503 page, so the answer is 503 and a load balancer sends visitors elsewhere.
  Redis down is *degraded*, not down: pages are served uncached (infra/cache_backends.py fails
  open) and the rate limits count in each process (infra/ratelimit.py), so the answer stays
  200, its status "degraded" and its body names Redis and what fell back. (Sign-in pauses are
  counted in the database, infra/lockout.py, and hold without Redis.) Taking every server out of the pool
  because the shared cache went away would turn a slower site into no site.
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


# name: (check, what its failure costs). Only a REQUIRED failure makes the server not ready.
REQUIRED = "required"
CHECKS = {
    "database": (_database, REQUIRED),
    "cache": (
        _cache,
        "Redis (the shared cache) does not answer: pages are served uncached, and the API's and "
        "corrections' rate limits are counted by each process alone (its share of each limit)",
    ),
}


@require_safe
@never_cache
@csp_override({})
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")


@require_safe
@never_cache
@csp_override({})
def readyz(request):
    results, degraded, ready = {}, [], True
    for name, (check, cost) in CHECKS.items():
        try:
            check()
        except Exception as error:  # noqa: BLE001 - any failure is reported, said in words
            results[name] = f"failed: {type(error).__name__}"
            if cost == REQUIRED:
                ready = False
            else:
                degraded.append(cost)
        else:
            results[name] = "ok"
    status = "down" if not ready else "degraded" if degraded else "ok"
    body = {"ready": ready, "status": status, **results}
    if degraded:
        body["degraded"] = degraded
    response = JsonResponse(body, status=200 if ready else 503)
    # The outage itself is logged once (infra.outage, infra.cache_backends): not once per probe.
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own flag (log_response), not in the stubs
    return response
