"""The public pages as a visitor meets them."""

import datetime as dt
import re
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from claims.models import Source
from editorial import selectors, services
from tests.factories import (
    make_attribute,
    make_axis,
    make_comparison,
    make_event,
    make_fact,
    make_faq,
    make_lane,
    make_published_vendors,
    make_score,
    make_source,
    make_vendor,
    publish,
)
from tests.queries import asked
from vendors.demo import REFERENCE, load_demo
from vendors.models import Fact, SiteSettings

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
            # The reference's call to action speaks of "AI tools", a slip copied from another site:
            # the page's speaks of chips (test_the_call_to_action_speaks_of_chips_and_links_the_rankings).
            "Ready to Find the Right AI Tools?",
            "Browse our data-driven rankings to find the best AI tools for your team.",
            "In the same lane (hyperscaler custom silicon):",
            "In other lanes:",
            "Key Takeaways",
            # The reference heads its Dec 2025 and 2026 events "What changed in 2026"; the page
            # names the years they span (test_what_changed_names_the_years_its_events_span).
            "What changed in 2026",
            # The reference writes its date "2026-10-31"; the page writes every date one way
            # (test_every_date_a_reader_sees_reads_one_way, test_facts_verified_and_vendor_stated_note).
            "Facts verified 2026-10-31. Vendor performance figures are as stated by the vendor.",
            # The partner box names CTAIO's "TPU vs GPU" without its address, which the data
            # does not give: a callout that links nowhere is not shown (issue 23).
            "New to custom AI silicon? Our partner site CTAIO explains how TPUs, pods and GPU "
            "clusters differ in TPU vs GPU.",
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
                # A bare number (a score, the total) is found but keeps the place: the score
                # chart repeats the table's numbers after it, and the next number may be the
                # total, which the table alone shows.
                if not piece.isdigit():
                    position = found

    def test_sections_in_the_reference_order(self, page):
        headings = re.findall(r"<h2[^>]*>(.*?)</h2>", page)
        assert headings == [
            "Key takeaways",
            "At a glance",
            "Chips and their numbers",  # after the reference's at-a-glance: each chip's typed specs
            "What changed in 2025 and 2026",
            "Scores",
            "Verdict",
            "Alternatives",
            "Head-to-head comparisons",
            "Frequently asked questions",
            "Sources",
            "Change log",
            "Cite this page",  # after the reference's sections: the citation to copy (issue 11)
            "Ready to find the right AI chip?",
        ]
        assert len(re.findall(r"<h1[^>]*>", page)) == 1

    def test_scores_total_18_of_25_and_link_to_the_rankings(self, page):
        text = visible_text(page)
        assert "Total / 25" in text
        # One row per axis, the total last (a phone shows it without scrolling sideways); a
        # score never verified carries the stale mark (tests/vendors/test_never_verified.py).
        numbers = visible_text(re.sub(r'<span class="stale"[^>]*>[^<]*</span>', "", page))
        assert "Performance 4 Scale-up 4 Software 3 Access 3 2026 momentum 4 Total / 25 18" in numbers
        assert f'<a href="{reverse("vendors:rankings")}">AI chip companies analysis</a>' in page
        assert "<svg" in page and "Scores out of 5: Performance 4, Scale-up 4" in page

    def test_the_call_to_action_speaks_of_chips_and_links_the_rankings(self, page):
        cta = page.split('<aside class="cta"', 1)[1].split("</aside>", 1)[0]
        assert visible_text(cta).endswith(
            "Ready to find the right AI chip? "
            "Browse our rankings to compare AI-chip vendors, scored on the same five axes. See the rankings"
        )
        assert f'<a class="button" href="{reverse("vendors:rankings")}">See the rankings</a>' in cta
        assert "AI tools" not in page

    def test_the_answers_write_aws_in_capitals(self, page):
        # The reference's "The main caveat: aWS-only" was a slip of its capitalisation.
        assert "The main caveat: AWS-only, and Neuron is a smaller ecosystem than CUDA." in page
        assert "aWS" not in page

    def test_every_date_a_reader_sees_reads_one_way(self, page):
        # Source titles are the sources' own words ("(MarketScreener, 2025-12-02)"); every other
        # date is the site's, written "31 Oct 2026", and ISO only for machines (datetime="...").
        text = visible_text(page)
        for title in sorted(Source.objects.values_list("title", flat=True), key=len, reverse=True):
            text = text.replace(title, "")
        assert re.findall(r"\b\d{4}-\d{2}-\d{2}\b", text) == []
        assert "Facts verified 31 Oct 2026." in text and "Accessed 30 Nov 2026." in text
        assert '<time datetime="2026-10-31">31 Oct 2026</time>' in page
        assert '<time datetime="2026-11-30">30 Nov 2026</time>' in page

    def test_facts_verified_and_vendor_stated_note(self, page):
        text = visible_text(page)
        # Every fact of the reference was verified on 2026-10-31: one date, nothing unverified,
        # and the date ends its sentence (no space before the full stop).
        assert "Facts verified 31 Oct 2026. Vendor performance figures are as stated by the vendor." in text
        assert "not yet verified" not in text
        # Every claim of the reference has a source that gives it as AWS's (trainium_sources.json).
        glance = page.split('<table class="glance">')[1].split("</table>")[0]
        assert glance.count('title="Vendor-stated"') == 8

    def test_facts_events_scores_and_answers_show_footnotes_to_the_sources(self, page):
        """Each row has its markers: a source's number, or one marker for more than three
        sources, linking to the row's note; every source listed is reached by one or the other."""

        def footnoted(html):
            return re.findall(r'<sup class="fn[^"]*"><a href="#((?:source|notes)-[\w-]+)"', html)

        glance = re.search(r'<table class="glance">.*?</table>', page, re.S).group(0)
        assert len(re.findall(r'<p class="claim"[^>]*>.*?<sup class="fn', glance)) == 8
        events = re.findall(r'<li id="event-\d+">.*?</li>', page, re.S)
        assert len(events) == 2 and all(footnoted(event) for event in events)
        scores = re.search(r'id="scores".*?</section>', page, re.S).group(0)
        assert len(re.findall(r"<dt>[^<]+: \d</dt> ?<dd>.*?<sup class=\"fn", scores)) == 5
        answers = re.findall(r'<div class="answer">.*?</div>', page, re.S)
        assert len(answers) == 4 and all(footnoted(answer) for answer in answers)
        markers = set(footnoted(page))
        notes = [
            re.search(rf'<li id="{anchor}">(.*?)</li>', page, re.S)
            for anchor in markers
            if "notes-" in anchor
        ]
        assert notes and all(notes)
        reached = {m for m in markers if m.startswith("source-")}
        reached |= {target for note in notes for target in re.findall(r'href="#(source-\d+)"', note.group(1))}
        listed = re.findall(r'<li id="(source-\d+)"><a href="https?://', page)
        # trainium_sources.json's 34 sources of its claims, 7 more among its contradictions, and
        # AWS's Neuron page giving Trainium3's per-chip compute (chips.json's pages).
        assert reached == set(listed) and len(listed) == 42


@pytest.mark.parametrize(
    "dates, heading",
    [
        ([dt.date(2026, 3, 1)], "What changed in 2026"),
        ([dt.date(2024, 6, 1), dt.date(2025, 1, 1)], "What changed in 2024 and 2025"),
        ([dt.date(2026, 2, 1), dt.date(2022, 5, 1), dt.date(2024, 1, 1)], "What changed from 2022 to 2026"),
    ],
)
def test_what_changed_names_the_years_its_events_span(client, dates, heading):
    vendor = make_vendor()
    for date in dates:
        make_event(vendor=vendor, date=date)
    publish(vendor)
    page = client.get(vendor.get_absolute_url()).content.decode()
    assert f'<h2 id="changes">{heading}</h2>' in page
    assert f'<a href="#changes">{heading}</a>' in page  # the page's menu says the same


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
    publish(vendor)
    page = client.get(vendor.get_absolute_url()).content.decode()
    row = re.search(r"<th scope=\"row\">Memory</th>(.*?)</tr>", page, re.S).group(1)
    assert row.index("144 GB") < row.index("4.9 TB/s")  # one row, both claims, editor's order
    assert re.search(r'144 GB<span class="stated" title="Vendor-stated">.*?href="#source-1"', row)
    assert re.search(r'4.9 TB/s<sup class="fn"><a href="#source-1".*?href="#source-2"', row)
    assert page.count('<li id="source-') == 2


def test_vendor_stated_is_a_compact_mark_with_a_name_and_one_legend(client):
    vendor = make_vendor()
    memory, software = make_attribute(name="Memory"), make_attribute(name="Software")
    for value in ("144 GB", "4.9 TB/s"):
        make_fact(vendor=vendor, attribute=memory, value=value, vendor_stated=True)
    make_fact(vendor=vendor, attribute=software, value="Neuron SDK")
    publish(vendor)
    page = client.get(vendor.get_absolute_url()).content.decode()
    text = visible_text(page)
    # Read as text: the value, a dagger, and a name for screen readers; no word-sized tag.
    assert "144 GB† (vendor-stated)" in text and "4.9 TB/s† (vendor-stated)" in text
    assert "Neuron SDK" in text and "Neuron SDK†" not in text
    assert '<span aria-hidden="true">†</span><span class="visually-hidden"> (vendor-stated)</span>' in page
    assert text.count("Vendor-stated: the figure or claim comes from the vendor itself") == 1


def test_no_vendor_stated_legend_without_a_vendor_stated_fact(client):
    vendor = make_vendor()
    make_fact(vendor=vendor, attribute=make_attribute(name="Memory"), value="144 GB")
    publish(vendor)
    page = client.get(vendor.get_absolute_url()).content.decode()
    assert "144 GB" in page
    assert "†" not in page and "Vendor-stated:" not in page


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
    publish(vendor)
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
    publish(vendor)
    page = client.get(vendor.get_absolute_url()).content.decode()
    assert "&lt;b&gt;Q&lt;/b&gt;?" in page  # the answer is on the page, as text
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
        scheduled = make_vendor(name="Scheduled Chip", lane=lane, published=False)
        publish(scheduled, at=timezone.now() + dt.timedelta(days=2))
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

    @pytest.fixture
    def editor(self, client, django_user_model):
        editor = django_user_model.objects.create_user("ed", password="pw", is_staff=True)
        editor.user_permissions.add(Permission.objects.get(codename="change_vendor"))
        client.force_login(editor)
        return editor

    def test_editor_previews_a_draft_with_banner_and_private_no_store(self, client, vendors, editor):
        response = client.get(vendors[1].get_absolute_url())
        assert response.status_code == 200
        page = response.content.decode()
        assert "Preview: Draft." in visible_text(page)
        assert "Draft Chip" in visible_text(page)
        assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
        assert '<meta name="robots" content="noindex">' in page

    def test_editor_previews_a_scheduled_profile_with_its_publish_time(self, client, vendors, editor):
        at = timezone.localtime(selectors.pending_version(vendors[2]).published_at)
        response = client.get(vendors[2].get_absolute_url())
        assert response.status_code == 200
        # The admin's one format, "j M Y H:i", in the site's time zone (UTC in tests).
        text = visible_text(response.content.decode())
        assert f"Preview: Scheduled for {at.day} {at:%b %Y %H:%M}." in text
        assert "Draft" not in text  # the state the admin names, not a generic "not public"
        assert "no-store" in response["Cache-Control"]

    def test_staff_without_permission_gets_404(self, client, vendors, django_user_model):
        client.force_login(django_user_model.objects.create_user("st", password="pw", is_staff=True))
        assert client.get(vendors[1].get_absolute_url()).status_code == 404

    def test_published_page_has_no_banner_and_no_private_header(self, admin_client, vendors):
        response = admin_client.get(vendors[0].get_absolute_url())
        assert "Live Chip" in response.content.decode()
        assert "Preview:" not in response.content.decode()
        assert "preview-banner" not in response.content.decode()
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


# --- Published versions: what visitors read, and when ------------------------------------------


def names_in(html):
    """Vendor names as listed on the vendor list and a lane page, in order."""
    return re.findall(r'<h2>(?:<input[^>]*>)?<a href="/vendors/[^"]+/">([^<]+)</a></h2>', html)


def ranking_names(html):
    return re.findall(r'<th scope="row">(?:<input[^>]*>)?<a href="/vendors/[^"]+/">([^<]+)</a></th>', html)


def entry_for(html, name):
    """The visible text of the table row or card whose text starts with ``name``."""
    for _, inner in re.findall(r"<(tr|li)\b[^>]*>(.*?)</\1>", html, re.S):
        text = visible_text(inner)
        if text.startswith(name + " "):
            return text
    raise AssertionError(f"no row or card for {name!r}")


def compared_scores(html):
    """The numbers in a comparison's first score row, one per column."""
    row = re.search(r'<tr class="row-score">(.*?)</tr>', html, re.S).group(1)
    return [int(n) for n in re.findall(r"<strong>(\d+)</strong>", row)]


def glance(html):
    """A profile's at-a-glance table (its change log names old values too)."""
    return re.search(r'<table class="glance">.*?</table>', html, re.S).group(0)


def profile_total(html):
    return int(re.search(r'<td class="total">(\d+)</td>', html).group(1))


@contextmanager
def clock(moment):
    """Every timezone.now() (the live/pending rule, publish times) reads ``moment``."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


class TestWorkingCopyStaysOffTheSiteUntilPublished:
    """An editor's change to a live vendor reaches every public page only when published."""

    @pytest.fixture
    def world(self):
        lane = make_lane(name="inference specialist", slug="inference-specialist")
        axis = make_axis(name="Performance", slug="performance")
        memory = make_attribute(name="Memory", slug="memory")
        chip = make_vendor(name="Trn Chip", slug="trn-chip", lane=lane)
        rival = make_vendor(name="Rival Chip", slug="rival-chip", lane=lane)
        fact = make_fact(vendor=chip, attribute=memory, value="96 GB HBM3")
        score = make_score(vendor=chip, axis=axis, value=2)
        make_fact(vendor=rival, attribute=memory, value="64 GB HBM2e")
        make_score(vendor=rival, axis=axis, value=3)
        publish(chip)
        publish(rival)
        comparison = make_comparison(vendors=[chip, rival], slug="trn-vs-rival")
        return chip, fact, score, comparison

    URLS = {
        "profile": "/vendors/trn-chip/",
        "rankings": "/",
        "vendor list": "/vendors/",
        "lane": "/lanes/inference-specialist/",
        "editorial comparison": "/compare/trn-vs-rival/",
        "generated comparison": "/compare/vendors/rival-chip/trn-chip/",
    }

    def pages(self, client):
        responses = {name: client.get(url) for name, url in self.URLS.items()}
        for name, response in responses.items():
            assert response.status_code == 200, name
        return {name: response.content.decode() for name, response in responses.items()}

    def edit(self, chip, fact, score):
        fact.value = "144 GB HBM3e"
        fact.save()
        score.value = 5
        score.save()
        assert services.refresh_state(obj=chip) is True
        chip.refresh_from_db()
        assert chip.has_unpublished_changes

    def assert_old(self, pages):
        assert "96 GB HBM3" in glance(pages["profile"]) and "144 GB HBM3e" not in pages["profile"]
        assert profile_total(pages["profile"]) == 2
        assert ranking_names(pages["rankings"]) == ["Rival Chip", "Trn Chip"]
        assert entry_for(pages["rankings"], "Trn Chip").startswith("Trn Chip 2 2 ")
        assert names_in(pages["vendor list"]) == ["Rival Chip", "Trn Chip"]
        assert "Total: 2 / 5" in entry_for(pages["vendor list"], "Trn Chip")
        assert names_in(pages["lane"]) == ["Rival Chip", "Trn Chip"]
        assert "Total: 2 / 5" in entry_for(pages["lane"], "Trn Chip")
        for name in ("editorial comparison", "generated comparison"):
            assert "96 GB HBM3" in pages[name] and "144 GB HBM3e" not in pages[name], name
        assert compared_scores(pages["editorial comparison"]) == [2, 3]
        assert compared_scores(pages["generated comparison"]) == [3, 2]  # columns in slug order

    def assert_new(self, pages):
        assert "144 GB HBM3e" in glance(pages["profile"]) and "96 GB HBM3" not in glance(pages["profile"])
        assert profile_total(pages["profile"]) == 5
        assert ranking_names(pages["rankings"]) == ["Trn Chip", "Rival Chip"]
        assert entry_for(pages["rankings"], "Trn Chip").startswith("Trn Chip 5 5 ")
        assert names_in(pages["vendor list"]) == ["Trn Chip", "Rival Chip"]
        assert "Total: 5 / 5" in entry_for(pages["vendor list"], "Trn Chip")
        assert names_in(pages["lane"]) == ["Trn Chip", "Rival Chip"]
        assert "Total: 5 / 5" in entry_for(pages["lane"], "Trn Chip")
        for name in ("editorial comparison", "generated comparison"):
            assert "144 GB HBM3e" in pages[name] and "96 GB HBM3" not in pages[name], name
        assert compared_scores(pages["editorial comparison"]) == [5, 3]
        assert compared_scores(pages["generated comparison"]) == [3, 5]

    def test_an_edit_shows_nowhere_until_published_then_everywhere(self, client, world):
        chip, fact, score, comparison = world
        self.assert_old(self.pages(client))
        self.edit(chip, fact, score)
        self.assert_old(self.pages(client))
        publish(chip)
        self.assert_new(self.pages(client))

    def test_an_editor_previews_the_edit_while_visitors_and_live_see_the_old(
        self, client, world, django_user_model
    ):
        chip, fact, score, comparison = world
        self.edit(chip, fact, score)
        editor = django_user_model.objects.create_user("ed", password="pw", is_staff=True)
        editor.user_permissions.add(Permission.objects.get(codename="change_vendor"))
        client.force_login(editor)
        preview = client.get("/vendors/trn-chip/")
        text = visible_text(preview.content.decode())
        assert "Preview: Live + unpublished changes." in text
        assert "144 GB HBM3e" in text
        assert "no-store" in preview["Cache-Control"]
        live = client.get("/vendors/trn-chip/?live").content.decode()
        assert "96 GB HBM3" in live and "144 GB HBM3e" not in live
        assert "Preview:" not in live

    def test_a_scheduled_change_shows_once_its_time_has_come(self, client, world):
        chip, fact, score, comparison = world
        self.edit(chip, fact, score)
        now = timezone.now()
        version = publish(chip, at=now + dt.timedelta(hours=1))
        assert not version.is_live
        self.assert_old(self.pages(client))
        with clock(now + dt.timedelta(minutes=59)):
            self.assert_old(self.pages(client))
        with clock(now + dt.timedelta(hours=2)):
            self.assert_new(self.pages(client))


class TestVerifiedDateIsTheOldestFactsDateEverywhere:
    """One fact verified 2026-03-01, a newer one, one never verified; a score verified earlier
    still does not count: only facts set the page's verified date."""

    @pytest.fixture
    def world(self):
        lane = make_lane(name="merchant GPU", slug="merchant-gpu")
        axis = make_axis(name="Performance")
        alpha = make_vendor(name="Alpha Chip", slug="alpha-chip", lane=lane)
        beta = make_vendor(name="Beta Chip", slug="beta-chip", lane=lane)
        make_fact(vendor=alpha, value="oldest checked", verified_on=dt.date(2026, 3, 1))
        make_fact(vendor=alpha, value="checked later", verified_on=dt.date(2026, 9, 15))
        make_fact(vendor=alpha, value="never checked", verified_on=None)
        make_score(vendor=alpha, axis=axis, value=3, verified_on=dt.date(2025, 1, 1))
        make_fact(vendor=beta, verified_on=dt.date(2026, 11, 1))
        make_score(vendor=beta, axis=axis, value=4)
        publish(alpha)
        publish(beta)
        make_comparison(vendors=[alpha, beta], slug="alpha-vs-beta")
        return alpha, beta

    SAID = "Facts verified 1 Mar 2026; 1 fact not yet verified"

    @pytest.mark.parametrize(
        ("url", "expected"),
        [
            ("/vendors/alpha-chip/", f"{SAID}. Vendor performance figures"),
            ("/", "1 Mar 2026; 1 fact not yet verified"),  # the column heading says "Facts verified"
            ("/vendors/", SAID),
            ("/lanes/merchant-gpu/", SAID),
            ("/compare/alpha-vs-beta/", f"Alpha Chip: {SAID}"),
            ("/compare/vendors/alpha-chip/beta-chip/", f"Alpha Chip: {SAID}"),
        ],
    )
    def test_oldest_date_and_the_count_never_verified(self, client, world, url, expected):
        response = client.get(url)
        assert response.status_code == 200
        page = response.content.decode()
        if url.startswith("/vendors/alpha"):
            shown = visible_text(page)
        elif url.startswith("/compare/"):
            shown = visible_text(re.search(r'<ul class="verified">(.*?)</ul>', page, re.S).group(1))
            assert "Beta Chip: Facts verified 1 Nov 2026" in shown
            assert "Beta Chip: Facts verified 1 Nov 2026;" not in shown  # all of Beta's facts verified
        else:
            shown = entry_for(page, "Alpha Chip")
        assert expected in shown
        assert "15 Sep 2026" not in shown and "1 Jan 2025" not in shown
        assert "2 facts" not in shown

    def test_verifying_the_last_fact_drops_the_count_on_the_next_publish(self, client, world):
        alpha, beta = world
        Fact.objects.filter(vendor=alpha, verified_on=None).update(verified_on=dt.date(2026, 10, 1))
        assert "1 fact not yet verified" in entry_for(client.get("/").content.decode(), "Alpha Chip")
        publish(alpha)
        row = entry_for(client.get("/").content.decode(), "Alpha Chip")
        # Its one score, verified in 2025, is stale: said beside the facts' date, not hidden by it.
        assert row.endswith(" 1 Mar 2026; 1 score not recently verified")
        assert "not yet verified" not in row


# --- Query counts do not grow with the catalogue --------------------------------------------

SIZE_PAGES = {
    "profile": ("/vendors/featured-chip/", 6),
    "rankings": ("/", 5),
    "vendor list": ("/vendors/", 6),
    "lane": ("/lanes/featured-lane/", 4),
    "lanes": ("/lanes/", 1),
    "change log": ("/vendors/featured-chip/changes/", 1),
    "comparisons": ("/compare/", 1),
    "editorial comparison": ("/compare/featured-comparison/", 3),
    "any-N comparison": ("/compare/vendors/featured-chip/second-chip/", 3),
}


def queries_for(client, url, *, rows_kept=True):
    return asked(client, url, rows_kept=rows_kept)[0]


@pytest.fixture
def catalogue():
    """A fully dressed vendor (facts, events, scores, FAQs, sources, a comparison, a change
    log, a score history) among ``grow(n)`` published vendors in three lanes."""
    lanes = [make_lane(slug="featured-lane"), make_lane(), make_lane()]
    axes = [make_axis() for _ in range(5)]
    attribute = make_attribute()
    featured = make_vendor(name="Featured Chip", slug="featured-chip", lane=lanes[0])
    sources = [make_source(), make_source()]
    for _ in range(3):
        make_fact(vendor=featured, attribute=attribute, sources=sources)
    make_event(vendor=featured, sources=sources[:1])
    scores = [make_score(vendor=featured, axis=axis, value=3, sources=sources[1:]) for axis in axes]
    make_faq(vendor=featured, sources=sources)
    publish(featured)
    scores[0].value = 4
    scores[0].save()
    publish(featured, note="Rescored.")
    total = 1

    def grow(count):
        nonlocal total
        added = make_published_vendors(count - total, lanes=lanes, axes=axes, attribute=attribute)
        total = count
        return added

    second = make_vendor(name="Second Chip", slug="second-chip", lane=lanes[1])
    make_fact(vendor=second, attribute=attribute, sources=sources)
    publish(second)
    total += 1
    make_comparison(slug="featured-comparison", vendors=[featured, second, *grow(10)[:1]])
    return grow


def test_the_bulk_builder_writes_what_publishing_would(catalogue):
    vendor = catalogue(12)[0]
    assert selectors.state(vendor) == "Live"
    assert services.refresh_state(obj=vendor) is False  # its version matches its working copy


@pytest.mark.parametrize("name", SIZE_PAGES)
def test_query_count_is_the_same_with_10_and_1000_published_vendors(client, catalogue, name):
    url, expected = SIZE_PAGES[name]
    small = queries_for(client, url)
    catalogue(1000)
    large = queries_for(client, url)
    assert (small, large) == (expected, expected)


# Two of each batch are the savepoint that keeps its rows (a refused write leaves the page whole);
# the rankings render two batches afresh: their rows and their "not scored yet" rows (the
# featured lane has no vendor waiting for scores).
ROWS_RENDERED = {
    "rankings": ("/", 17),
    "lane": ("/lanes/featured-lane/", 10),
    "vendor list": ("/vendors/", 12),
}


@pytest.mark.parametrize("name", ROWS_RENDERED)
def test_rendering_every_row_of_a_page_afresh_takes_as_many_queries_at_10_as_at_1000_vendors(
    client, catalogue, name
):
    url, expected = ROWS_RENDERED[name]
    small = queries_for(client, url, rows_kept=False)
    catalogue(1000)
    large = queries_for(client, url, rows_kept=False)
    assert (small, large) == (expected, expected)


# --- The public change log and score history -------------------------------------------------


def change_log_entries(html):
    """Each entry of the first change log on the page: [date, note or lines...]."""
    log = re.search(r'<ol class="changes"[^>]*>(.*?)</ol>', html, re.S).group(1)
    entries = []
    for item in re.split(r"<li(?: id=\"v\d+\")?><h[23]>", log)[
        1:
    ]:  # h2 on the change-log page, h3 on the profile
        date = visible_text(re.search(r"(.*?)</h[23]>", item, re.S).group(1))
        lines = [visible_text(p) for p in re.findall(r'<p(?: class="note")?>(.*?)</p>', item, re.S)]
        lines += [visible_text(li) for li in re.findall(r"<li>(.*?)</li>", item, re.S)]
        entries.append([date, *lines])
    return entries


class TestChangeLog:
    @pytest.fixture
    def vendor(self):
        """First published on 4 May 2026, Memory changed on 14 Jul, the score on 20 Sep."""
        moment = dt.datetime(2026, 5, 4, 9, 0, tzinfo=dt.UTC)
        axis = make_axis(name="Software")
        memory = make_attribute(name="Memory")
        with clock(moment):
            vendor = make_vendor(name="Neuron Chip", slug="neuron-chip", published=False)
            fact = make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
            score = make_score(vendor=vendor, axis=axis, value=3)
            publish(vendor, at=moment)
        with clock(dt.datetime(2026, 7, 14, 9, 0, tzinfo=dt.UTC)):
            fact.value = "144 GB HBM3e"
            fact.save()
            publish(vendor, note="Neuron added vLLM")
        with clock(dt.datetime(2026, 9, 20, 9, 0, tzinfo=dt.UTC)):
            score.value = 4
            score.save()
            publish(vendor)
        return vendor

    EXPECTED = [
        ["20 Sep 2026", "Score Software: 3 -> 4"],
        ["14 Jul 2026", "Neuron added vLLM", "Memory: 96 GB HBM3 -> 144 GB HBM3e"],
        ["4 May 2026", "First published."],
    ]

    def test_change_log_page_lists_each_published_change_newest_first(self, client, vendor):
        with clock(dt.datetime(2026, 10, 1, 9, 0, tzinfo=dt.UTC)):
            response = client.get(reverse("vendors:changes", args=["neuron-chip"]))
        assert response.status_code == 200
        assert change_log_entries(response.content.decode()) == self.EXPECTED

    def test_profile_shows_the_change_log_and_the_score_history(self, client, vendor):
        with clock(dt.datetime(2026, 10, 1, 9, 0, tzinfo=dt.UTC)):
            page = client.get("/vendors/neuron-chip/").content.decode()
        section = re.search(r'<section aria-labelledby="change-log".*?</section>', page, re.S).group(0)
        assert "<h2" in section and "Change log" in section
        assert change_log_entries(section) == self.EXPECTED
        history = re.search(r'<ul class="score-history"[^>]*>(.*?)</ul>', page, re.S).group(1)
        assert [visible_text(li) for li in re.findall(r"<li>(.*?)</li>", history)] == [
            "Software: 3 until Sep 2026, then 4"
        ]

    def test_a_scheduled_change_is_not_in_the_log_before_its_time(self, client, vendor):
        now = dt.datetime(2026, 10, 1, 9, 0, tzinfo=dt.UTC)
        with clock(now):
            Fact.objects.filter(vendor=vendor).update(value="192 GB HBM3e")
            publish(vendor, at=now + dt.timedelta(days=1), note="Trn3 announced")
            before = change_log_entries(client.get("/vendors/neuron-chip/changes/").content.decode())
        assert before == self.EXPECTED
        with clock(now + dt.timedelta(days=2)):
            entries = change_log_entries(client.get("/vendors/neuron-chip/changes/").content.decode())
        assert entries == [
            ["2 Oct 2026", "Trn3 announced", "Memory: 144 GB HBM3e -> 192 GB HBM3e"],
            *self.EXPECTED,
        ]

    def test_a_vendor_never_published_has_no_change_log(self, client):
        make_vendor(slug="secret-chip", published=False)
        assert client.get("/vendors/secret-chip/changes/").status_code == 404


# --- The partner box (explainer callout) links to what it names, or goes -------------------


def test_a_callout_that_links_nowhere_is_not_shown(client):
    SiteSettings.objects.create(
        callout_text="New to custom AI silicon? Our partner explains it in TPU vs GPU."
    )
    publish(make_vendor(slug="chip"))
    page = client.get("/vendors/chip/").content.decode()
    assert "New to custom AI silicon?" not in page and 'class="callout"' not in page


def test_a_callout_with_a_link_is_shown_linking_to_what_it_names(client):
    SiteSettings.objects.create(
        callout_text="New to custom AI silicon? Read [TPU vs GPU](https://example.com/tpu-vs-gpu)."
    )
    publish(make_vendor(slug="chip"))
    page = client.get("/vendors/chip/").content.decode()
    callout = re.search(r'<aside class="callout"[^>]*>(.*?)</aside>', page, re.S).group(1)
    assert re.search(r'<a href="https://example.com/tpu-vs-gpu"[^>]*>TPU vs GPU</a>', callout)


@pytest.mark.parametrize(
    "text", ["Our partner explains it in TPU vs GPU.", "Read [TPU vs GPU](javascript:alert(1))."]
)
def test_saving_a_callout_without_a_link_is_a_form_error_that_changes_nothing(admin_client, text):
    SiteSettings.objects.create(callout_text="")
    response = admin_client.post(
        reverse("admin:vendors_sitesettings_change", args=[1]),
        {
            "callout_text": text,
            "rankings_intro": "",
            "cta_heading": "",
            "cta_text": "",
            "cta_link_label": "Go",
        },
    )
    assert response.status_code == 200
    assert "must link to it" in response.content.decode()
    assert SiteSettings.load().callout_text == ""


def test_a_score_without_a_reason_reads_cited_and_its_marker_not_sources_twice(client):
    vendor = make_vendor(name="Word Check", published=False)
    axis = make_axis(name="Performance", slug="performance-words")
    make_score(vendor=vendor, axis=axis, value=4, reason="", sources=[make_source() for _ in range(4)])
    publish(vendor)
    page = client.get(vendor.get_absolute_url()).content.decode()
    row = re.search(r'<div class="sources-only">(.*?)</div>', page, re.S).group(1)
    text = re.sub(r"<[^>]+>", "", row)
    assert text == "Performance: 4 cited[4 sources]"
