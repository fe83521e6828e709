"""Whatever is published, a cached page is the page a render would give now: every page
rendered on demand, after each kind of publish, against the same address rendered uncached.
A page that does not record something it shows (infra/freshness.py) fails here."""

import pytest

from editorial import services
from tests import factories as f
from tests.infra.test_cache_keys import site as site  # the fixture
from vendors.models import Fact, Score, Vendor

pytestmark = pytest.mark.django_db

ON_DEMAND = [
    "/?sort=name",
    "/?sort=-axis-performance",
    "/?w-performance=3",
    "/?page=1",
    "/vendors/?lane=inference-specialist",
    "/vendors/?lane=hyperscaler-custom-silicon",
    "/vendors/?min_total=3",
    "/vendors/?q=groq",
    "/vendors/?sort=name",
    "/lanes/inference-specialist/?page=1",
    "/compare/vendors/cerebras/groq/",
    "/compare/vendors/aws-trainium/google-tpu/",
    "/compare/?from=rankings",
    "/search/?q=SRAM",
    "/search/?q=HBM3e",
    "/search/?q=grok",
    "/search/?q=memory&kind=fact",
    "/search/?q=Inference",
    "/chips/?sort=name",
    "/chips/compare/?chips=a&chips=b",
    "/chips/fit/?params=70&bits=16",
    "/api/v1/vendors/?page=1",
    "/api/v1/vendors/groq/?fields=all",
    "/api/v1/lanes/?x=1",
    "/api/v1/comparisons/?x=1",
    "/feeds/changes/?x=1",
    "/vendors/groq/?ref=feed",
    "/vendors/cerebras/changes/?x=1",
    "/data/rankings.csv?x=1",
]


def reword_groq():
    groq = Vendor.objects.get(slug="groq")
    Fact.objects.filter(vendor=groq).update(value="230 MB SRAM on each chip")
    services.publish(obj=groq, user=None, note="Memory reworded.")


def score_groq():
    groq = Vendor.objects.get(slug="groq")
    Score.objects.filter(vendor=groq, axis__slug="performance").update(value=5)
    services.publish(obj=groq, user=None, note="Scored again.")


def swap_cerebras_scores():
    """Its scores move and its total stays: lists print each axis's score."""
    cerebras = Vendor.objects.get(slug="cerebras")
    Score.objects.filter(vendor=cerebras, axis__slug="performance").update(value=4)
    Score.objects.filter(vendor=cerebras, axis__slug="software").update(value=2)
    services.publish(obj=cerebras, user=None, note="Scores moved.")


def rename_cerebras():
    cerebras = Vendor.objects.get(slug="cerebras")
    cerebras.name = "Cerebras Systems"
    cerebras.save()
    services.publish(obj=cerebras, user=None, note="Renamed.")


def move_tpu_to_inference():
    tpu = Vendor.objects.get(slug="google-tpu")
    tpu.lane = Vendor.objects.get(slug="groq").lane
    tpu.save()
    services.publish(obj=tpu, user=None, note="Lane moved.")


def add_vendor():
    lane = Vendor.objects.get(slug="groq").lane
    vendor = f.make_vendor(slug="sambanova", name="SambaNova", lane=lane, published=False)
    f.make_fact(vendor=vendor, value="520 MB SRAM, HBM3e behind it")
    f.publish(vendor)


def compare_cerebras_and_groq():
    """Our editors publish a comparison of exactly the pair: the generated page names it."""
    f.make_comparison(
        vendors=[Vendor.objects.get(slug=slug) for slug in ("cerebras", "groq")],
        title="Cerebras vs Groq",
        slug="cerebras-vs-groq",
    )


def unpublish_trainium():
    services.unpublish(obj=Vendor.objects.get(slug="aws-trainium"), user=None)


CHANGES = [
    reword_groq,
    score_groq,
    swap_cerebras_scores,
    rename_cerebras,
    move_tpu_to_inference,
    add_vendor,
    compare_cerebras_and_groq,
    unpublish_trainium,
]


def answers(visitor, settings, *, cached):
    settings.PAGE_CACHE_ENABLED = cached
    return {path: ((r := visitor.get(path)).status_code, r.content) for path in ON_DEMAND}


def test_every_page_rendered_on_demand_is_cached_as_a_render_now_would_give_it(site, visitor, settings):
    before = answers(visitor, settings, cached=True)  # every page cached
    for change in CHANGES:
        change()
        kept = answers(visitor, settings, cached=True)
        now = answers(visitor, settings, cached=False)
        stale = [path for path in ON_DEMAND if kept[path] != now[path]]
        assert stale == [], change.__name__
        assert any(now[path] != before[path] for path in ON_DEMAND), f"{change.__name__} showed nowhere"
        before = now
