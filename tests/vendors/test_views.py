"""The public pages as a visitor meets them."""

import datetime as dt
import re
from html import unescape
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    make_attribute,
    make_axis,
    make_fact,
    make_faq,
    make_lane,
    make_score,
    make_source,
    make_vendor,
)
from vendors.demo import REFERENCE, load_demo
from vendors.models import Vendor

pytestmark = pytest.mark.django_db

REFERENCE_TEXT = Path(REFERENCE).with_name("reference_profile.txt").read_text()


def visible_text(html):
    """The page's text as a reader sees it: tags dropped, whitespace collapsed."""
    html = re.sub(r"<(script|style|title|head)[^>]*>.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"</?(a|time|strong|em|span|sup|code|abbr)\b[^>]*>", "", html)
    text = unescape(re.sub(r"<[^>]+>", " ", html))
    return re.sub(r"\s+", " ", text).strip()


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


class TestReferenceProfile:
    @pytest.fixture
    def page(self, client):
        load_demo()
        response = client.get("/vendors/aws-trainium/")
        assert response.status_code == 200
        return response.content.decode()

    def test_every_value_of_the_reference_appears_in_order(self, page):
        text = visible_text(page)
        position = 0
        skipped = {
            # Chrome lines the page words as a link or a table, checked separately below.
            "Scored 1 to 5 on the same five axes as every vendor in the AI chip companies analysis.",
            "Ready to Find the Right AI Tools?",
            "Browse our data-driven rankings to find the best AI tools for your team.",
            "In the same lane (hyperscaler custom silicon):",
            "In other lanes:",
            "Key Takeaways",
        }
        for line in REFERENCE_TEXT.splitlines():
            line = line.strip()
            if not line or line in skipped or set(line) <= set("|- "):
                continue
            if line.startswith("|"):
                pieces = [cell.strip() for cell in line.strip("|").split("|")]
            elif line.startswith("- ") and " — " in line:
                pieces = line[2:].split(" — ", 1)  # key takeaways: label, then text
            elif line.startswith("- ") and line.endswith(")") and ":" not in line:
                name, lane = re.match(r"- (.+) \((.+)\)", line).groups()
                pieces = [name, lane]
            elif line.startswith("- "):
                pieces = [line[2:]]
            else:
                pieces = [line]
            for piece in pieces:
                found = text.lower().find(squeeze(piece).lower(), position)
                assert found >= 0, f"not found in order: {piece!r}"
                position = found

    def test_sections_in_the_reference_order(self, page):
        headings = re.findall(r"<h2[^>]*>(.*?)</h2>", page)
        assert headings == [
            "Key takeaways",
            "At a glance",
            "What changed in 2026",
            "Scores",
            "Verdict",
            "Alternatives",
            "Head-to-head comparisons",
            "Frequently asked questions",
            "Sources",
            "Ready to Find the Right AI Tools?",
        ]
        assert len(re.findall(r"<h1[^>]*>", page)) == 1
        assert page.index("New to custom AI silicon?") < page.index("Frequently asked questions")

    def test_scores_total_18_of_25_and_link_to_the_rankings(self, page):
        text = visible_text(page)
        assert "Total / 25" in text
        assert re.search(r"Total / 25 .*?4 .*?4 .*?3 .*?3 .*?4 .*?18", text)
        assert f'<a href="{reverse("vendors:rankings")}">AI chip companies analysis</a>' in page
        assert "<svg" in page and "Scores out of 5: Performance 4, Scale-up 4" in page

    def test_facts_verified_and_vendor_stated_note(self, page):
        assert "Facts verified 2026-10-31. Vendor performance figures are as stated by the vendor." in page
        assert page.count('class="stated"') == 2  # Memory and Scale-up are AWS's own figures


def test_footnote_markers_link_to_existing_source_entries(client):
    load_demo()
    page = client.get("/vendors/google-tpu/").content.decode()
    targets = re.findall(r'<sup class="fn"><a href="#(source-\d+)"', page)
    assert len(targets) > 20
    for target in set(targets):
        assert f'<li id="{target}">' in page
    sources = re.findall(r'<li id="source-(\d+)">', page)
    assert sources == [str(n) for n in range(1, len(sources) + 1)]
    # Numbered in the order a reader meets them: the first fact cites source 1.
    assert targets[0] == "source-1"


def test_a_fact_cites_its_own_sources_and_vendor_stated_is_marked(client):
    vendor = make_vendor()
    first, second = make_source(title="Spec sheet"), make_source(title="Launch blog")
    memory = make_attribute(name="Memory")
    make_fact(vendor=vendor, attribute=memory, value="144 GB", vendor_stated=True, sources=[first])
    make_fact(vendor=vendor, attribute=memory, value="4.9 TB/s", sources=[second, first])
    page = client.get(vendor.get_absolute_url()).content.decode()
    row = re.search(r"<th scope=\"row\">Memory</th>(.*?)</tr>", page, re.S).group(1)
    assert row.index("144 GB") < row.index("4.9 TB/s")  # one row, both claims, editor's order
    assert re.search(r'144 GB <span class="stated".*?href="#source-1"', row)
    assert re.search(r'4.9 TB/s<sup class="fn"><a href="#source-1".*?href="#source-2"', row)
    assert page.count('<li id="source-') == 2


def test_unscored_vendor_shows_no_scores_and_no_total(client):
    vendor = make_vendor()
    make_axis(name="Performance")
    page = client.get(vendor.get_absolute_url()).content.decode()
    assert "Not scored yet" in page
    assert "Total /" not in page


def test_partial_scores_show_every_active_axis(client):
    vendor = make_vendor()
    scored = make_axis(name="Performance")
    make_axis(name="Software")
    make_axis(name="Retired axis", is_active=False)
    make_score(vendor=vendor, axis=scored, value=4, reason="Fast on **large** jobs.")
    page = client.get(vendor.get_absolute_url()).content.decode()
    assert "Total / 10" in page
    assert "not scored" in page
    assert "Retired axis" not in page
    assert "<strong>large</strong>" in page


def test_alternatives_list_published_vendors_only_by_lane(client):
    lane, other_lane = make_lane(name="inference specialist"), make_lane(name="open hardware")
    vendor = make_vendor(lane=lane)
    make_vendor(name="Groq", lane=lane, alternative_blurb="fast token serving")
    make_vendor(name="Tenstorrent", lane=other_lane)
    make_vendor(name="Secret draft", lane=lane, published=False)
    text = visible_text(client.get(vendor.get_absolute_url()).content.decode())
    assert "In the same lane (inference specialist) Groq: fast token serving" in text
    assert "In other lanes Tenstorrent (open hardware)" in text
    assert "Secret draft" not in text


def test_editor_markdown_never_runs_as_html(client):
    vendor = make_vendor(summary="<script>alert(1)</script>", verdict='<img src=x onerror="alert(1)">')
    make_faq(vendor=vendor, question="<b>Q</b>?", answer="[x](javascript:alert(1))")
    page = client.get(vendor.get_absolute_url()).content.decode()
    assert "<script>alert(1)" not in page
    assert "<img src=x" not in page
    assert "<b>Q</b>" not in page
    assert 'href="javascript' not in page


class TestDraftsNeverLeak:
    @pytest.fixture
    def vendors(self):
        lane = make_lane(slug="inference-specialist")
        live = make_vendor(name="Live Chip", lane=lane)
        draft = make_vendor(name="Draft Chip", lane=lane, published=False)
        scheduled = make_vendor(
            name="Scheduled Chip",
            lane=lane,
            status=Vendor.Status.PUBLISHED,
            published_at=timezone.now() + dt.timedelta(days=2),
        )
        return live, draft, scheduled

    @pytest.mark.parametrize("index", [1, 2])
    def test_draft_and_scheduled_profiles_are_404_for_visitors(self, client, vendors, index):
        response = client.get(vendors[index].get_absolute_url())
        assert response.status_code == 404
        assert "Page not found" in response.content.decode()

    @pytest.mark.parametrize("url", ["/", "/vendors/", "/lanes/inference-specialist/", "/vendors/?q=Chip"])
    def test_absent_from_every_list(self, client, vendors, url):
        page = client.get(url).content.decode()
        assert "Live Chip" in page
        assert "Draft Chip" not in page
        assert "Scheduled Chip" not in page

    def test_lane_count_counts_published_vendors_only(self, client, vendors):
        assert "1 vendor<" in client.get("/lanes/").content.decode()

    def test_editor_previews_a_draft_with_banner_and_private_no_store(
        self, client, vendors, django_user_model
    ):
        editor = django_user_model.objects.create_user("ed", password="pw", is_staff=True)
        editor.user_permissions.add(Permission.objects.get(codename="change_vendor"))
        client.force_login(editor)
        response = client.get(vendors[1].get_absolute_url())
        assert response.status_code == 200
        assert "Draft: not public." in response.content.decode()
        assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
        assert '<meta name="robots" content="noindex">' in response.content.decode()

    def test_staff_without_permission_gets_404(self, client, vendors, django_user_model):
        client.force_login(django_user_model.objects.create_user("st", password="pw", is_staff=True))
        assert client.get(vendors[1].get_absolute_url()).status_code == 404

    def test_published_page_has_no_banner_and_no_private_header(self, admin_client, vendors):
        response = admin_client.get(vendors[0].get_absolute_url())
        assert "Draft: not public." not in response.content.decode()
        assert "no-store" not in response.get("Cache-Control", "")


def test_alternatives_stay_short_however_many_vendors_a_lane_has(client):
    lane, crowded = make_lane(name="merchant GPU"), make_lane(name="inference specialist", slug="inference")
    vendor = make_vendor(lane=lane)
    for n in range(9):
        make_vendor(name=f"Same {n}", lane=lane)
        make_vendor(name=f"Other {n}", lane=crowded)
    text = visible_text(client.get(vendor.get_absolute_url()).content.decode())
    assert "Same 5" in text and "Same 6" not in text
    assert "Other 5" in text and "Other 6" not in text
    assert "All 9 other vendors in merchant GPU" in text
    assert "More in inference specialist." in text
