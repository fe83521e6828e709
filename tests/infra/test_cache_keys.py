"""Cached pages are keyed by what they show (infra/freshness.py): a publish drops the pages
that show what it changed, on the next request, and leaves every other page warm."""

import multiprocessing
import time

import pytest
from django.utils import timezone

from editorial import services
from infra import freshness
from tests import factories as f
from vendors.models import Fact, Score, Vendor

pytestmark = pytest.mark.django_db

HYPERSCALER_FILTER = "/vendors/?lane=hyperscaler-custom-silicon"
INFERENCE_FILTER = "/vendors/?lane=inference-specialist"
PAIR = "/compare/vendors/aws-trainium/google-tpu/"
GROQ_PAIR = "/compare/vendors/cerebras/groq/"
HBM_SEARCH = "/search/?q=HBM3e"
SRAM_SEARCH = "/search/?q=SRAM"


@pytest.fixture
def site(settings):
    """Four scored vendors in two lanes, each with a cited memory fact; pages cached, the page
    store on (an any-N comparison is not one of its addresses)."""
    settings.PAGE_CACHE_ENABLED = True
    lanes = {
        "hyperscaler": f.make_lane(name="Hyperscaler custom silicon", slug="hyperscaler-custom-silicon"),
        "inference": f.make_lane(name="Inference specialist", slug="inference-specialist"),
    }
    memory = f.make_attribute(name="Memory", slug="memory")
    axis = f.make_axis(name="Performance", slug="performance")
    software = f.make_axis(name="Software", slug="software")
    for slug, name, lane, value in (
        ("aws-trainium", "AWS Trainium", "hyperscaler", "144 GB HBM3e"),
        ("google-tpu", "Google TPU", "hyperscaler", "192 GB HBM3e"),
        ("groq", "Groq", "inference", "230 MB SRAM"),
        ("cerebras", "Cerebras", "inference", "44 GB SRAM"),
    ):
        vendor = f.make_vendor(slug=slug, name=name, lane=lanes[lane], published=False)
        source = f.make_source(title=f"{name} data sheet")
        f.make_fact(
            vendor=vendor, attribute=memory, value=value, sources=[source], verified_on=timezone.localdate()
        )
        f.make_score(vendor=vendor, axis=axis, value=3, sources=[source])
        f.make_score(vendor=vendor, axis=software, value=3, sources=[source])
        f.publish(vendor)


def reword_groq(value="230 MB SRAM on each chip"):
    """Groq's memory reworded and its score raised (its row in lists changes too), published."""
    groq = Vendor.objects.get(slug="groq")
    Fact.objects.filter(vendor=groq).update(value=value)
    Score.objects.filter(vendor=groq, axis__slug="performance").update(value=4)
    services.publish(obj=groq, user=None, note="Memory reworded, performance scored again.")


def cache_state(visitor, path):
    response = visitor.get(path)
    assert response.status_code == 200, path
    return response.get("X-Page-Cache")


def test_an_any_n_comparison_is_a_cache_hit_the_second_time(site, stored_pages, visitor):
    first = visitor.get(PAIR)
    assert first.status_code == 200 and first["X-Page-Cache"] == "miss"
    second = visitor.get(PAIR)
    assert second["X-Page-Cache"] == "hit"
    assert second.content == first.content
    assert "X-Stored-Page" not in second  # the store does not keep it: the cache does


def test_an_address_the_store_does_not_keep_never_reads_the_store(site, stored_pages, visitor, monkeypatch):
    """A warm any-N comparison is the cache's alone: no look in the store (a file or a bucket)."""
    from infra.stored import store

    visitor.get(PAIR)
    read = []
    monkeypatch.setattr(store, "read", lambda path: read.append(path))
    assert cache_state(visitor, PAIR) == "hit"
    assert read == []
    visitor.get("/vendors/groq/")
    assert read and set(read) == {"/vendors/groq/"}  # a stored address is looked for there


def test_a_publish_of_groq_leaves_pages_that_do_not_show_it_warm(site, visitor):
    for path in (HYPERSCALER_FILTER, INFERENCE_FILTER, PAIR, HBM_SEARCH, SRAM_SEARCH):
        assert cache_state(visitor, path) == "miss", path
        assert cache_state(visitor, path) == "hit", path
    lane_before = visitor.get(INFERENCE_FILTER).content

    reword_groq()

    # Neither the hyperscaler lane, nor Trainium and TPU, nor a search that never finds Groq.
    for path in (HYPERSCALER_FILTER, PAIR, HBM_SEARCH):
        assert cache_state(visitor, path) == "hit", path
    # Groq's lane and a search that finds it are rendered again, once, with the new words.
    for path in (INFERENCE_FILTER, SRAM_SEARCH):
        assert cache_state(visitor, path) == "miss", path
        assert cache_state(visitor, path) == "hit", path
    assert "on each chip" in visitor.get(SRAM_SEARCH).content.decode()  # (SRAM itself is marked)
    assert visitor.get(INFERENCE_FILTER).content != lane_before  # Groq's new total


def test_a_search_that_the_publish_makes_find_groq_is_rendered_again(site, visitor):
    assert "Groq" not in visitor.get(HBM_SEARCH).content.decode()
    reword_groq("230 MB SRAM, no HBM3e")
    response = visitor.get(HBM_SEARCH)
    assert response["X-Page-Cache"] == "miss"
    assert "Groq" in response.content.decode()


def test_a_comparison_is_rendered_again_when_one_of_its_vendors_is_published(site, visitor):
    visitor.get(GROQ_PAIR)
    reword_groq()
    response = visitor.get(GROQ_PAIR)
    assert response["X-Page-Cache"] == "miss"
    assert "230 MB SRAM on each chip" in response.content.decode()


def test_a_draft_never_reaches_a_cached_page(site, visitor):
    assert cache_state(visitor, INFERENCE_FILTER) == "miss"
    groq = Vendor.objects.get(slug="groq")
    Fact.objects.filter(vendor=groq).update(value="A draft value")
    services.refresh_state(obj=groq)  # saved in the working copy, not published
    response = visitor.get(GROQ_PAIR)
    assert "A draft value" not in response.content.decode()
    assert cache_state(visitor, INFERENCE_FILTER) == "hit"
    assert "A draft value" not in visitor.get(SRAM_SEARCH.replace("SRAM", "draft")).content.decode()


def test_a_page_that_names_nothing_it_shows_goes_at_every_change(site, visitor):
    """A page whose render records no key but the site's is taken to show everything."""
    assert cache_state(visitor, "/search/") == "miss"
    assert cache_state(visitor, "/search/") == "hit"
    freshness.changed(["vendor-0"])  # a change it cannot know it does not show
    assert cache_state(visitor, "/search/") == "miss"


def test_a_renamed_lane_drops_every_cached_page(site, admin_client, visitor):
    assert cache_state(visitor, HYPERSCALER_FILTER) == "miss"
    assert cache_state(visitor, PAIR) == "miss"
    lane = Vendor.objects.get(slug="groq").lane
    data = {"name": "Inference chips", "slug": lane.slug, "description": "", "position": lane.position}
    assert admin_client.post(f"/admin/vendors/lane/{lane.pk}/change/", data).status_code == 302
    assert cache_state(visitor, HYPERSCALER_FILTER) == "miss"  # every page names the lanes
    assert cache_state(visitor, PAIR) == "miss"


def _change_elsewhere(keys):
    """Another app server numbers a change (its own process, the shared Redis)."""
    freshness.changed(keys)


def test_with_redis_a_change_on_another_server_drops_only_the_copies_that_show_it(redis_cache, site, visitor):
    layer = redis_cache.local
    visitor.get(PAIR)  # starts this process's listener
    for _ in range(100):
        if layer.subscribed:
            break
        time.sleep(0.02)
    assert layer.subscribed
    for path in (PAIR, GROQ_PAIR):
        visitor.get(path)
        assert cache_state(visitor, path) == "hit"
    groq = Vendor.objects.get(slug="groq")

    # The other process touches Redis only, and leaves as a forked child does (os._exit), so it
    # never closes this test's database connection (its transaction is this test's).
    keys = [f"vendor-{groq.pk}"]
    other = multiprocessing.get_context("fork").Process(target=_change_elsewhere, args=(keys,))
    other.start()
    other.join(timeout=30)
    assert other.exitcode == 0

    for _ in range(100):
        if all(set(page.keys).isdisjoint(keys) for page in layer.pages.values()):
            break
        time.sleep(0.02)
    assert cache_state(visitor, PAIR) == "hit"  # its copy here stays
    assert cache_state(visitor, GROQ_PAIR) == "miss"  # dropped here on the channel's word


def test_with_redis_a_publish_renders_its_stored_pages_and_drops_its_cached_ones(
    redis_cache, site, stored_pages, visitor, django_capture_on_commit_callbacks
):
    """The stored profile and the cached comparison both show the publish on the next request;
    the render's end is announced on Redis's channel as every server expects it."""
    from infra.stored import render_expired

    render_expired.call()
    assert visitor.get("/vendors/groq/")["X-Stored-Page"] == "hit"
    visitor.get(GROQ_PAIR)
    assert cache_state(visitor, GROQ_PAIR) == "hit"
    with django_capture_on_commit_callbacks(execute=True):  # as the publish's commit runs them
        reword_groq()
    profile = visitor.get("/vendors/groq/")
    assert profile["X-Stored-Page"] == "hit" and "230 MB SRAM on each chip" in profile.content.decode()
    assert cache_state(visitor, GROQ_PAIR) == "miss"
