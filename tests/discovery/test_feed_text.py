"""Markup typed into a profile or a publish note reaches a feed reader as text, never as HTML."""

import datetime as dt
import html
import xml.etree.ElementTree as ET

import feedparser
import pytest
from django.utils import timezone

from editorial import services
from tests import factories as f
from tests.xss import PAYLOADS, read_html
from vendors.models import Vendor

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
FEEDS = ["/feeds/changes/", "/vendors/typed-chip/feed/", "/lanes/inference/feed/"]
VENDOR_TEXT = [
    "name",
    "company",
    "summary",
    "what_it_is",
    "best_for",
    "watch_out",
    "verdict",
    "alternative_blurb",
]


def publish_typed(payload):
    """A profile published plainly, then with ``payload`` in every text field an editor fills
    and in the publish note, through the editors' services; and a comparison titled with it."""
    lane = f.make_lane(name="Inference", slug="inference")
    vendor = f.make_vendor(name="Typed Chip", slug="typed-chip", lane=lane, published=False)
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value="96 GB")
    f.make_event(vendor=vendor, text="Launched.")
    f.make_score(vendor=vendor, reason="Solid.")
    f.make_faq(vendor=vendor, question="Why?", answer="Because.")
    f.publish(vendor, at=timezone.now() - dt.timedelta(days=2), note="First.")
    Vendor.objects.filter(pk=vendor.pk).update(**dict.fromkeys(VENDOR_TEXT, payload))
    vendor.facts.update(value=payload)
    vendor.events.update(text=payload)
    vendor.scores.update(reason=payload)
    vendor.faqs.update(question=payload, answer=payload)
    vendor.refresh_from_db()
    services.refresh_state(obj=vendor)
    f.publish(vendor, note=payload)
    other = f.make_vendor(slug="other-chip", lane=lane)
    comparison = f.make_comparison(title=payload, vendors=[vendor, other], published=False)
    f.publish(comparison, note=payload)


def shown(detail):
    """What a reader puts on screen for an Atom text construct: HTML as it is, text escaped."""
    if detail.type in ("text/html", "application/xhtml+xml"):
        return detail.value
    return html.escape(detail.value)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markup_typed_into_a_profile_reaches_feed_readers_as_the_characters_typed(client, payload):
    publish_typed(payload)
    for url in FEEDS:
        response = client.get(url)
        assert response.status_code == 200
        # Unsanitized, as the plainest reader would take it: nothing here relies on feedparser's cleaning.
        feed = feedparser.parse(response.content, sanitize_html=False)
        assert not feed.bozo, feed.bozo_exception
        quoted = []
        for entry in feed.entries:
            for detail in (entry.title_detail, entry.summary_detail):
                tags, text = read_html(shown(detail))
                assert tags == [], (url, detail.value)
                quoted.append(text)
        # The payload is there, shown as typed: a change line reads "Memory: 96 GB -> <payload>".
        assert any(f"-> {payload}" in text for text in quoted), url


def test_each_feed_names_its_author_and_sends_summaries_as_text(client):
    publish_typed(PAYLOADS[1])
    for url in FEEDS:
        root = ET.fromstring(client.get(url).content)
        assert root.findtext(f"{ATOM}author/{ATOM}name") == "chipsite", url
        summaries = root.findall(f"{ATOM}entry/{ATOM}summary")
        assert summaries and {summary.get("type") for summary in summaries} == {"text"}, url
        assert feedparser.parse(client.get(url).content).feed.author == "chipsite"
