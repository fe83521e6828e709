"""The benchmark's synthetic catalogue and the pages measured on it.

Vendors dressed like the reference profile (facts for every attribute with cited sources,
events, scores, FAQs), published in bulk with the same document builder publishing uses.
Imported by bench/load.py once Django is set up."""

import datetime as dt
import functools

CHUNK = 500  # vendors written in one transaction


def grow(to_size):
    """Add synthetic vendors until ``to_size`` vendors are live, each fully dressed and published."""
    from django.db import transaction
    from django.utils import timezone

    from vendors.models import Attribute, Axis, Lane, VendorVersion

    have = VendorVersion.objects.live().count()
    lanes, axes = list(Lane.objects.all()), list(Axis.objects.filter(is_active=True))
    attributes = list(Attribute.objects.all())
    now = timezone.now() - dt.timedelta(minutes=1)
    for start in range(have, to_size, CHUNK):
        with transaction.atomic():
            vendors = _vendors(range(start, min(start + CHUNK, to_size)), lanes)
            source_of = _datasheets(vendors)
            _dress(vendors, attributes=attributes, axes=axes, source_of=source_of, on=now.date())
            _chips(vendors, source_of=source_of, on=now.date())
            _publish(vendors, at=now)
    _announce_bulk_writes()


def _vendors(numbers, lanes):
    from vendors.models import Vendor

    return Vendor.objects.bulk_create(
        Vendor(
            name=f"Synthetic chip {n:05}",
            slug=f"synthetic-{n:05}",
            company=f"Synthetic Company {n}",
            lane=lanes[n % len(lanes)],
            summary="A synthetic vendor for the benchmark.",
            alternative_blurb="Teams that need a benchmark.",
            has_unpublished_changes=False,
        )
        for n in numbers
    )


def _datasheets(vendors):
    """{vendor's pk: the one source every claim of that vendor cites}."""
    from claims.models import Source

    sources = Source.objects.bulk_create(
        Source(title=f"Datasheet of {v.name}", publisher="Example", url=f"https://example.com/{v.slug}")
        for v in vendors
    )
    return {v.pk: s for v, s in zip(vendors, sources, strict=True)}


def _dress(vendors, *, attributes, axes, source_of, on):
    """Like the reference profile: a cited fact for every attribute, events, scores and FAQs."""
    from vendors.models import FAQ, Event, Fact, FactCitation, Score

    facts = Fact.objects.bulk_create(
        Fact(vendor=v, attribute=a, value=f"{a.name} of {v.name}", verified_on=on, position=i)
        for v in vendors
        for i, a in enumerate(attributes)
    )
    FactCitation.objects.bulk_create(
        FactCitation(cited=f, source=source_of[f.vendor_id])  # type: ignore[misc]  # built by citation_table: mypy sees the abstract Citation
        for f in facts
    )
    Event.objects.bulk_create(
        Event(vendor=v, date=dt.date(2026, m, 1), precision="month", text=f"Milestone {m}.", position=m)
        for v in vendors
        for m in (3, 6, 9)
    )
    Score.objects.bulk_create(
        Score(vendor=v, axis=a, value=1 + (v.pk + a.pk) % 5) for v in vendors for a in axes
    )
    FAQ.objects.bulk_create(
        FAQ(vendor=v, question=f"Question {q}?", answer="An answer.", position=q)
        for v in vendors
        for q in (1, 2, 3)
    )


def _chips(vendors, *, source_of, on):
    """One chip a vendor (so 10, 1,000 and 10,000 chips), dressed like the demo's: memory,
    bandwidth and compute per chip, and a per-system scale, each citing the datasheet."""
    from chips.models import Spec, SpecCitation

    specs = Spec.objects.bulk_create(
        Spec(vendor=v, chip=f"Synthetic X{v.pk}", verified_on=on, position=i, **given)
        for v in vendors
        for i, given in enumerate(
            (
                {"kind": "memory", "quantity": 16 + v.pk % 300, "unit": "GB"},
                {"kind": "bandwidth", "quantity": 1 + v.pk % 9, "unit": "TB/s"},
                {"kind": "compute", "quantity": 1 + v.pk % 20, "unit": "PFLOPS", "precision": "FP8"},
                {"kind": "scale", "quantity": 8 * (1 + v.pk % 16), "unit": "chips", "scope": "system"},
            )
        )
    )
    SpecCitation.objects.bulk_create(
        SpecCitation(cited=s, source=source_of[s.vendor_id])  # type: ignore[misc]  # built by citation_table: mypy sees the abstract Citation
        for s in specs
    )


def _publish(vendors, *, at):
    """Each vendor's first version, written in bulk with the document builder publishing uses."""
    from editorial.registry import publication_for
    from vendors.documents import document_of
    from vendors.models import Vendor, VendorVersion, VersionScore
    from vendors.publishing import vendor_documents, write_version_chips

    publication = publication_for(Vendor)
    documents = vendor_documents(Vendor.objects.filter(pk__in=[v.pk for v in vendors]))
    versions = VendorVersion.objects.bulk_create(
        VendorVersion(
            item_id=pk,
            number=1,
            published_at=at,
            document=document,
            history=[
                {
                    "number": 1,
                    "published_at": at.isoformat(),
                    "changes": [],
                    "note": "",
                    "first": True,
                    **publication.history_entry(document),
                }
            ],
            **publication.columns(document),
        )
        for pk, document in documents.items()
    )
    VersionScore.objects.bulk_create(
        VersionScore(version=version, axis_id=score["axis"]["id"], value=score["value"])
        for version in versions
        for score in version.document["scores"]
    )
    for version in versions:  # what /chips/ sorts and filters on, as a publish writes it
        write_version_chips(version, document_of(version).chips)


def _announce_bulk_writes():
    """What the workflow would have done for versions it wrote one by one."""
    # Site search indexes versions as the workflow writes them; these were written in bulk.
    from discovery.search import index_all

    index_all()
    # Written straight to the tables, not through the workflow: announce it as a publish would,
    # or every server would keep serving the smaller catalogue's pages.
    from infra.cache import everything_changed

    everything_changed()
    # As autovacuum would soon after on a live site: fresh statistics, and a visibility map
    # that lets counts and deep pages read the indexes alone.
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def pages(size):
    last = max(1, -(-size // 50))
    return {
        "trivial view": "/bench/trivial/",
        "profile": "/vendors/aws-trainium/",
        "change log": "/vendors/aws-trainium/changes/",
        "rankings, page 1": "/",
        f"rankings, page {last}": f"/?page={last}",
        "rankings by an axis": "/?sort=-axis-software",
        "reader weights": "/?w-performance=3&w-software=3&w-access=0",
        "lane": "/lanes/inference-specialist/",
        "vendor list": "/vendors/",
        "vendor list, filtered": "/vendors/?lane=inference-specialist&min_total=10&q=e",
        "editorial comparison": "/compare/google-tpu-vs-aws-trainium-vs-nvidia-gpu/",
        "any-N comparison": "/compare/vendors/aws-trainium/google-tpu/nvidia/",
        "comparisons": "/compare/",
        "search": "/search/?q=HBM3e",
        "search, misspelt": "/search/?q=trainum",
        "chips": "/chips/",
        "chips, filtered and sorted": "/chips/?min_memory=128&precision=FP8&sort=-bandwidth",
        "chip comparison": "/chips/compare/?chips=trainium3,tpu7x,mi355x",
        "what fits": "/chips/fit/?params=405&bits=16",
    }


def queries_and_bytes(urls):
    """Each page's query count (page cache off) and its size, through Django's test client, asked
    a second time: the first renders the rows its lists repeat and keeps them (infra/rows/)."""
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    _test_environment()
    client, found = Client(), {}
    with override_settings(PAGE_CACHE_ENABLED=False):
        for name, url in urls.items():
            client.get(url)
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            found[name] = (len(queries), len(response.content))
    return found


@functools.cache
def _test_environment():
    """Django's test environment (the test client records templates and context), set up once."""
    from django.test.utils import setup_test_environment

    setup_test_environment()
