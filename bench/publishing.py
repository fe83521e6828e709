"""Publishes for the stored-pages benchmark (bench/stored.py), each through the site's own
services in this process, as an editor's click would make them, and the waits that follow:
until the task worker has run what the publish enqueued. Imported once Django is set up."""

import re
import time

AXIS_NOTE = " (benchmark edit {n})"


def editor():
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username="bench-publisher").first()
    return user or get_user_model().objects.create_superuser("bench-publisher", "b@example.com", "bench-pw")


def vendor(slug):
    from vendors.models import Vendor

    return Vendor.objects.get(slug=slug)


def first(queryset):
    """The queryset's first row; the demo always has one."""
    row = queryset.first()
    assert row is not None, f"the demo has no {queryset.model.__name__}"
    return row


def committed(change):
    """Run ``change()`` in one transaction; returns the moment it committed (time.monotonic),
    taken before the render task is enqueued (on_commit callbacks run in order)."""
    from django.db import transaction

    moment = []
    with transaction.atomic():
        transaction.on_commit(lambda: moment.append(time.monotonic()))
        change()
    return moment[0]


def fact_change(slug, value):
    """One fact of the vendor gets ``value``, and the vendor is published (a new version)."""
    from editorial import services
    from vendors.models import Fact

    def change():
        item = vendor(slug)
        fact = first(Fact.objects.filter(vendor=item).order_by("position", "pk"))
        fact.value = value
        fact.save()
        services.publish(obj=item, user=editor())

    return committed(change)


def score_change(slug):
    """One score of the vendor moves by one (so its total moves), and the vendor is published."""
    from editorial import services
    from vendors.models import Score

    def change():
        item = vendor(slug)
        score = first(Score.objects.filter(vendor=item).order_by("pk"))
        score.value = score.value + 1 if score.value < 5 else score.value - 1
        score.save()
        services.publish(obj=item, user=editor())

    return committed(change)


def verification(slug):
    """ "Mark verified today" on every fact, event and score of the vendor (vendors.services)."""
    from vendors import services
    from vendors.models import Vendor

    return committed(lambda: services.mark_verified(user=editor(), vendors=Vendor.objects.filter(slug=slug)))


def new_vendor(n):
    """A new vendor, with one fact, published for the first time."""
    from editorial import services
    from vendors.models import Attribute, Fact, Lane, Vendor

    def change():
        item = Vendor.objects.create(
            name=f"Bench new chip {n}",
            slug=f"bench-new-{n}",
            company=f"Bench Company {n}",
            lane=first(Lane.objects.order_by("position", "pk")),
            summary="A vendor the benchmark publishes.",
            alternative_blurb="Teams that need a benchmark.",
        )
        Fact.objects.create(vendor=item, attribute=first(Attribute.objects.order_by("pk")), value="New")
        services.publish(obj=item, user=editor())

    return committed(change)


def axis_edit(n):
    """An axis's description edited, as the admin saves it (vendors/admin/reference.py): the
    stored pages that read the axes are rendered again."""
    from types import SimpleNamespace

    from django.contrib import admin

    from infra.stored import changed
    from vendors.admin.reference import AxisAdmin
    from vendors.models import Axis

    def change():
        axis = first(Axis.objects.filter(is_active=True).order_by("position", "pk"))
        axis.description = axis.description.split(" (benchmark edit")[0] + AXIS_NOTE.format(n=n)
        axis.save()
        axis_admin = admin.site._registry[Axis]
        assert isinstance(axis_admin, AxisAdmin)
        changed(axis_admin.pages_showing(SimpleNamespace(changed_data=["description"])))

    return committed(change)


def queue_empty():
    """Nothing left on the queue publishes use: the periodic worker's sweep may still be running
    beside it, as it would be on a live site."""
    from django_tasks_db.models import DBTaskResult

    return not DBTaskResult.objects.filter(status__in=["READY", "RUNNING"], queue_name="default").exists()


def drain(timeout=3600):
    """Wait until the worker has run every task a publish queued; the seconds it took."""
    began = time.monotonic()
    while not queue_empty():
        if time.monotonic() - began > timeout:
            raise SystemExit(f"The task worker left tasks queued for {timeout} s.")
        time.sleep(0.05)
    return time.monotonic() - began


def settle(timeout=3600):
    """Wait until both workers are idle and no stored page is due: the publish's render has run,
    and so has the sweep that builds what it left due (the whole-site file, the chips'
    downloads), asked for now rather than at its next turn (STORED_PAGES_SWEEP_SECONDS); the
    seconds it took. A page still due after ``timeout`` is an error."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from infra.models import StoredPage
    from infra.periodic import PERIODIC_QUEUE
    from infra.stored.rendering import render_due

    began = time.monotonic()
    drain(timeout)
    if StoredPage.objects.filter(until__lte=timezone.now()).exists():
        render_due.using(queue_name=PERIODIC_QUEUE).enqueue()
    while (
        DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).exists()
        or StoredPage.objects.filter(until__lte=timezone.now()).exists()
    ):
        if time.monotonic() - began > timeout:
            raise SystemExit(f"The workers were still busy, or pages still due, after {timeout} s.")
        time.sleep(0.1)
    return time.monotonic() - began


def render_tasks(since):
    """The render_showing tasks enqueued since ``since`` (a datetime): (seconds each ran, counts)."""
    from django_tasks_db.models import DBTaskResult

    found = DBTaskResult.objects.filter(task_path__endswith="render_showing", enqueued_at__gte=since)
    return [
        ((row.finished_at - row.started_at).total_seconds(), row.return_value or {})
        for row in found.order_by("enqueued_at")
        if row.started_at and row.finished_at
    ]


def snapshot():
    """Every stored page's (etag, rendered_at, until), by path."""
    from infra.models import StoredPage

    rows = StoredPage.objects.values_list("path", "etag", "rendered_at", "until")
    return {path: rest for path, *rest in rows}


def freshness_across_servers(static_root):
    """A publish through one app server's admin is served by another on the very next request
    (pages on demand: the keys they show, infra/freshness.py)."""
    import urllib.parse
    import urllib.request
    from http.cookiejar import CookieJar

    from load import Server, free_port

    from editorial import services
    from vendors.models import Vendor

    editor()
    vendor = Vendor.objects.get(slug="aws-trainium")
    # Each by its own port and host: not SITE_URL's, so the profile is rendered on demand and
    # cached with the keys it shows, which is what this check is about.
    a = Server(cache=True, static_root=static_root, port=free_port())
    b = Server(cache=True, static_root=static_root, port=free_port())
    try:
        page = b.url + "/vendors/aws-trainium/"
        before = urllib.request.urlopen(page).read().decode()  # noqa: S310 (loopback)
        urllib.request.urlopen(page).read()  # noqa: S310  now cached on b's side
        marker = f"Freshness check {time.time():.0f}"
        vendor.summary = marker
        vendor.save()
        services.refresh_state(obj=vendor)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        login = opener.open(a.url + "/admin/login/").read().decode()
        token = csrf_token(login)
        data = {
            "csrfmiddlewaretoken": token,
            "username": "bench-publisher",
            "password": "bench-pw",
            "next": "/admin/",
        }
        opener.open(a.url + "/admin/login/", urllib.parse.urlencode(data).encode())
        change = opener.open(f"{a.url}/admin/vendors/vendor/{vendor.pk}/change/").read().decode()
        token = csrf_token(change)
        opener.open(
            f"{a.url}/admin/vendors/vendor/{vendor.pk}/workflow/publish/",
            urllib.parse.urlencode({"csrfmiddlewaretoken": token, "note": ""}).encode(),
        )
        after = urllib.request.urlopen(page).read().decode()  # noqa: S310
        return marker not in before and marker in after
    finally:
        a.stop()
        b.stop()


def csrf_token(page):
    """The CSRF token in an admin page's form."""
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert found, "no CSRF token in the page"
    return found.group(1)
