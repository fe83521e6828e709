"""How the public pages scale: queries and time at 10 and at 1,000 published vendors.

Every vendor is published through the workflow, so the pages read published versions
exactly as visitors' requests do.

Run with ``make bench``. It builds a throwaway SQLite database (or uses DATABASE_URL's
server with a test_ database), fills it twice, and prints, for each page, the number of
queries at each size and the ratio of median render times. Ratios, not seconds: the
machine's speed cancels out.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chipsite.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

import datetime as dt  # noqa: E402

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

SIZES = (10, 1000)
RUNS = 15


def fill(count, *, start):
    from claims.models import Source
    from editorial.services import publish
    from vendors.models import FAQ, Attribute, Axis, Event, Fact, FactCitation, Lane, Score, Vendor

    lanes = list(Lane.objects.all())
    axes = list(Axis.objects.all())
    attributes = list(Attribute.objects.all())
    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    vendors = Vendor.objects.bulk_create(
        Vendor(
            name=f"Bench vendor {n:04}",
            slug=f"bench-{n:04}",
            company=f"Company {n}",
            lane=lanes[n % len(lanes)],
            summary="A summary.",
        )
        for n in range(start, start + count)
    )
    sources = Source.objects.bulk_create(
        Source(title=f"Doc {v.slug}", url=f"https://example.com/{v.slug}") for v in vendors
    )
    facts = Fact.objects.bulk_create(
        Fact(vendor=v, attribute=a, value="A value", verified_on=now.date(), position=i)
        for v in vendors
        for i, a in enumerate(attributes)
    )
    FactCitation.objects.bulk_create(
        FactCitation(cited=f, source=sources[(f.vendor_id - vendors[0].pk) % len(sources)])  # type: ignore[misc]  # built by citation_table: mypy sees the abstract Citation
        for f in facts
    )
    Event.objects.bulk_create(
        Event(vendor=v, date=dt.date(2026, 1, 1), precision="month", text="Something changed.")
        for v in vendors
    )
    Score.objects.bulk_create(
        Score(vendor=v, axis=a, value=1 + (v.pk + a.pk) % 5) for v in vendors for a in axes
    )
    FAQ.objects.bulk_create(FAQ(vendor=v, question="Q?", answer="A.") for v in vendors)
    # Visitors read published versions: publish each through the workflow, as a publisher would.
    for vendor in vendors:
        publish(obj=vendor, user=None, at=now)


def measure(client, url):
    connection.queries_log.clear()  # a request resets the log; start from empty
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    timings = []
    for _ in range(RUNS):
        began = time.perf_counter()
        client.get(url)
        timings.append(time.perf_counter() - began)
    return len(queries), statistics.median(timings)


def main():
    from django.conf import settings
    from django.test import Client

    from vendors.demo import load_demo

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        load_demo()
        client = Client()
        pages = {
            "rankings": "/",
            "rankings by Software": "/?sort=-axis-software",
            "vendor list": "/vendors/",
            "vendor list, filtered": "/vendors/?lane=inference-specialist&min_total=5&q=e",
            "vendor list, page 2": "/vendors/?page=2",
            "lane": "/lanes/inference-specialist/",
            "profile (AWS Trainium)": "/vendors/aws-trainium/",
            "editorial comparison": "/compare/google-tpu-vs-aws-trainium-vs-nvidia-gpu/",
            "any-N comparison": "/compare/vendors/aws-trainium/google-tpu/nvidia/",
        }
        results = {}
        added = 0
        for size in SIZES:
            fill(size - added, start=added)
            added = size
            results[size] = {name: measure(client, url) for name, url in pages.items()}
        small, large = SIZES
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        print(f"Pages at {small + 9} and {large + 9} published vendors ({engine})")
        print(f"{'page':26} {'queries':>14} {'time ratio':>11}")
        for name in pages:
            q1, t1 = results[small][name]
            q2, t2 = results[large][name]
            print(f"{name:26} {q1:>6} -> {q2:<6} {t2 / t1:>10.2f}x")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
