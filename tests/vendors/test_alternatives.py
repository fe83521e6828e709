"""Each alternative on a profile says why, in words built from the two pages' scores and
cited facts (vendors/alternatives.py), and says nothing when the data gives no reason."""

import re
from html import unescape

import pytest

from tests import factories as f
from vendors.demo import load_demo

pytestmark = pytest.mark.django_db


def reasons_of(html, name):
    """The reasons listed under the alternative called ``name``."""
    found = re.search(rf'<ul class="reasons-why" aria-label="Why {re.escape(name)}">(.*?)</ul>', html, re.S)
    return (
        [unescape(re.sub(r"<[^>]+>", "", item)) for item in re.findall(r"<li>(.*?)</li>", found.group(1))]
        if found
        else []
    )


@pytest.fixture
def lane_of_two():
    lane = f.make_lane(name="inference specialist")
    software, access = f.make_axis(name="Software"), f.make_axis(name="Access")
    where = f.make_attribute(name="Where to get it")
    source = f.make_source()
    this = f.make_vendor(name="This chip", lane=lane)
    other = f.make_vendor(name="Other chip", lane=lane)
    f.make_score(vendor=this, axis=software, value=3)
    f.make_score(vendor=other, axis=software, value=4)
    f.make_score(vendor=this, axis=access, value=4)
    f.make_score(vendor=other, axis=access, value=2)
    f.make_fact(vendor=this, attribute=where, value="Its own cloud only", sources=[source])
    fact = f.make_fact(
        vendor=other, attribute=where, value="Sold to anyone, and on three clouds", sources=[source]
    )
    f.publish(this)
    f.publish(other)
    return this, other, fact


def test_an_alternative_that_scores_higher_says_on_which_axis_and_by_how_much(client, lane_of_two):
    this, other, _ = lane_of_two
    html = client.get(this.get_absolute_url()).content.decode()
    reasons = reasons_of(html, "Other chip")
    assert reasons[0] == "scores higher on Software (4 vs 3)"
    assert not any("Access" in reason for reason in reasons)  # it scores lower there: no reason


def test_an_alternative_gives_its_own_cited_fact_and_links_to_it(client, lane_of_two):
    this, other, fact = lane_of_two
    html = client.get(this.get_absolute_url()).content.decode()
    assert "Where to get it: Sold to anyone, and on three clouds" in reasons_of(html, "Other chip")
    assert f'href="{other.get_absolute_url()}#fact-{fact.pk}"' in html
    # From the other side: where this one scores higher, then its own differing fact.
    back = client.get(other.get_absolute_url()).content.decode()
    assert reasons_of(back, "This chip") == [
        "scores higher on Access (4 vs 2)",
        "Where to get it: Its own cloud only",
    ]


def test_an_uncited_fact_or_a_missing_score_gives_no_reason(client):
    lane = f.make_lane()
    where = f.make_attribute(name="Where to get it")
    this = f.make_vendor(name="Plain one", lane=lane)
    other = f.make_vendor(name="Plain two", lane=lane)
    f.make_fact(vendor=other, attribute=where, value="Everywhere, they say")  # no source
    f.make_score(vendor=other, value=5)  # this one has no score to compare with
    f.publish(other)
    html = client.get(this.get_absolute_url()).content.decode()
    assert "Plain two" in html
    assert reasons_of(html, "Plain two") == []


def test_every_alternative_on_the_demo_profile_reads_from_the_published_data(client):
    load_demo()
    html = client.get("/vendors/aws-trainium/").content.decode()
    section = html[
        html.index('id="alternatives"') : html.index("</section>", html.index('id="alternatives"'))
    ]
    reasons = re.findall(r'<ul class="reasons-why" aria-label="Why ([^"]+)">', section)
    assert len(reasons) == 8  # every other demo vendor has a cited “Where to get it”
    google = reasons_of(html, "Google TPU")
    assert google == [
        "Where to get it: Google Cloud only, via Compute Engine or Google Kubernetes Engine (GKE), "
        "including reserved 'All Capacity' mode."
    ]


def test_a_publish_that_changes_an_alternatives_reasons_renders_the_profiles_giving_them_again():
    from vendors.documents import VendorDocument
    from vendors.pages import page_keys

    vendor = f.make_vendor()
    where = f.make_attribute(name="Where to get it")
    memory = f.make_attribute(name="Memory")
    fact = f.make_fact(vendor=vendor, attribute=where, value="One cloud", sources=[f.make_source()])
    other = f.make_fact(vendor=vendor, attribute=memory, value="96 GB", sources=[f.make_source()])
    first = f.publish(vendor)
    other.value = "144 GB"
    other.save()
    second = f.publish(vendor)
    fact.value = "Two clouds"
    fact.save()
    third = f.publish(vendor)
    first.refresh_from_db()
    second.refresh_from_db()

    key = f"alternative-{vendor.pk}"
    assert VendorDocument.parse(third.document).facts[0].value == "Two clouds"
    assert key not in page_keys(first, second)  # Memory: not what a reason is made of
    assert key in page_keys(second, third)
