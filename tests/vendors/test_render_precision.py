"""Issue 44, item 4: a publish renders again the stored pages whose bytes it changes, and few
others. Each kind of publish is made on a catalogue of live vendors in three lanes with every
page stored; the pages it rendered are counted beside those whose bytes changed, and a full
render afterwards finds no page it left out of date."""

import pytest

from infra.stored import DEFERRED, every_path, rendering
from tests.factories import make_attribute, make_axis, make_lane, make_published_vendors

pytestmark = pytest.mark.django_db(transaction=True)

VENDORS = 30
# A publish may render up to this many times the pages whose bytes it changed...
PRECISION = 1.5
# ... and this many more, whatever the catalogue's size: the sitemap's index (it dates each part
# by its newest publish, which a second publish the same day leaves as it was), the API's list of
# comparisons (it reads every entry, prints the names of compared vendors only), and the citation
# files of the version a publish supersedes (the page of that version gains a banner; they do not).
SLACK = 4


@pytest.fixture
def catalogue(stored_pages):
    """VENDORS live vendors, a fact and two scores each, over three lanes; every page stored."""
    lanes = [make_lane(name=f"Lane {n}", slug=f"lane-{n}") for n in range(3)]
    axes = [
        make_axis(name="Performance", slug="performance", description="Throughput per chip."),
        make_axis(name="Software", slug="software", description="How complete the stack is."),
        make_axis(name="Efficiency", slug="efficiency", description="Work per watt."),
    ]
    vendors = make_published_vendors(VENDORS, lanes=lanes, axes=axes, attribute=make_attribute(name="Memory"))
    rendering.render_expired.call()
    return {"lanes": lanes, "axes": axes, "vendors": vendors}


@pytest.fixture
def renders(monkeypatch):
    """Every render a change makes: the addresses rendered, and those whose bytes changed."""
    found = {"rendered": set(), "changed": set()}
    render = rendering.render

    def noting(paths, **kwargs):
        report = render(paths, **kwargs)
        found["rendered"].update(report.rendered, report.unchanged, report.removed)
        found["changed"].update(report.rendered, report.removed)
        return report

    monkeypatch.setattr(rendering, "render", noting)
    return found


def built_from_everything():
    """The pages every change leaves to the worker's sweep (the whole-site file and what dates
    it): without a worker the change's own render builds them, so they are not its to count."""
    from infra.models import StoredPageKey

    return set(StoredPageKey.objects.filter(key=DEFERRED).values_list("page__path", flat=True))


def assert_precise_and_fresh(found):
    left_out = built_from_everything()
    rendered, changed = found["rendered"] - left_out, found["changed"] - left_out
    assert changed, "the change changed no page"
    assert len(rendered) <= PRECISION * len(changed) + SLACK, (
        len(rendered),
        len(changed),
        sorted(rendered - changed),
    )
    stale = set(rendering._render(list(every_path())).rendered) - left_out
    assert stale == set(), "pages whose bytes changed but were not rendered"


def publish_vendor(vendor):
    from editorial import services

    services.publish(obj=vendor, user=None, note="An edit.")


def test_an_axis_description_renders_only_the_pages_that_print_it(catalogue, renders, admin_client):
    from django.forms.models import model_to_dict

    axis = catalogue["axes"][0]
    data = model_to_dict(axis, fields=["name", "slug", "description", "position", "is_active"])
    response = admin_client.post(
        f"/admin/vendors/axis/{axis.pk}/change/", {**data, "description": "Tokens per second per chip."}
    )
    assert response.status_code == 302
    assert_precise_and_fresh(renders)


def test_a_score_publish_renders_about_the_pages_its_total_and_rank_change(catalogue, renders):
    from vendors.models import Score

    vendor = catalogue["vendors"][4]
    score = Score.objects.filter(vendor=vendor).order_by("pk").first()
    score.value = 5 if score.value < 5 else 1
    score.save()
    publish_vendor(vendor)
    assert_precise_and_fresh(renders)


def test_a_new_vendor_renders_about_the_pages_it_appears_on(catalogue, renders):
    from tests.factories import make_fact, make_score, make_vendor

    vendor = make_vendor(name="Newcomer", slug="newcomer", lane=catalogue["lanes"][1], published=False)
    make_fact(vendor=vendor, value="96 GB")
    make_score(vendor=vendor, axis=catalogue["axes"][0], value=4)
    publish_vendor(vendor)
    assert_precise_and_fresh(renders)


def test_a_fact_edit_renders_about_the_pages_that_print_the_fact(catalogue, renders):
    from vendors.models import Fact

    vendor = catalogue["vendors"][7]
    Fact.objects.filter(vendor=vendor).update(value="128 GB")
    publish_vendor(vendor)
    assert_precise_and_fresh(renders)


@pytest.fixture
def chip_vendor(catalogue):
    """Vendor 7 of the catalogue with a chip (a spec), republished once today and every page
    stored: a later publish the same day is what an editor's second edit makes."""
    from tests.factories import make_spec

    vendor = catalogue["vendors"][7]
    make_spec(vendor=vendor, chip="Precision X1")
    make_spec(vendor=catalogue["vendors"][8], chip="Precision Y1")
    for other in catalogue["vendors"][7:9]:
        publish_vendor(other)
    rendering.render_expired.call()
    return vendor


def vendor_pages(vendor, *names):
    return {f"/vendors/{vendor.slug}/{name}" for name in names}


CHIP_PAGES = {"/chips/", "/chips/precision-x1/", "/chips/trends/", "/chips/trends.csv"}


def assert_never_stale(found, settings):
    """Every page whose bytes a render now (the page cache off) gives anew was rendered by the change."""
    settings.PAGE_CACHE_ENABLED = False
    stale = set(rendering._render(list(every_path())).rendered) - built_from_everything()
    assert stale == set(), "pages whose bytes changed but were not rendered"


def rendered_again(found):
    left_out = built_from_everything()
    return found["rendered"] - left_out, found["changed"] - left_out


def test_a_fact_edit_leaves_the_chip_pages_and_the_old_citation_files_alone(chip_vendor, renders, settings):
    from vendors.models import Fact, VendorVersion

    superseded = VendorVersion.objects.live().get(item=chip_vendor).number
    Fact.objects.filter(vendor=chip_vendor).update(value="256 GB")
    publish_vendor(chip_vendor)
    rendered, changed = rendered_again(renders)
    assert vendor_pages(chip_vendor, "", "changes/", "feed/") <= changed
    assert not rendered & CHIP_PAGES, sorted(rendered & CHIP_PAGES)
    old_citations = vendor_pages(chip_vendor, f"v/{superseded}/cite.bib", f"v/{superseded}/cite.json")
    assert not rendered & old_citations
    assert len(rendered) <= PRECISION * len(changed), sorted(rendered - changed)
    assert_never_stale(renders, settings)


def test_mark_verified_today_renders_neither_the_change_log_nor_the_chip_pages(
    chip_vendor, renders, settings
):
    from vendors import services
    from vendors.models import Vendor

    vendors = Vendor.objects.filter(pk=chip_vendor.pk)
    services.mark_verified(user=None, vendors=vendors)  # the day moves: the chip pages print it
    rendering.render_expired.call()
    renders["rendered"].clear(), renders["changed"].clear()
    services.mark_verified(user=None, vendors=vendors)  # later the same day: only the moment moves
    rendered, changed = rendered_again(renders)
    assert vendor_pages(chip_vendor, "") <= changed
    unchanged_log = vendor_pages(chip_vendor, "changes/", "feed/") | {
        f"/api/v1/vendors/{chip_vendor.slug}/versions/"
    }
    assert not rendered & (unchanged_log | CHIP_PAGES), sorted(rendered & (unchanged_log | CHIP_PAGES))
    assert len(rendered) <= PRECISION * len(changed), sorted(rendered - changed)
    assert_never_stale(renders, settings)
