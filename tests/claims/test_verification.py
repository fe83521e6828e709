"""Verification and staleness: who checked what and when, the admin's queue, and what visitors see.

Visitors read a vendor's live published version: its facts reach the public page only once
published (``f.publish``), and “Mark verified today” moves the live page's dates at once,
without publishing any pending content change.

“Today” is never frozen: dates are built relative to timezone.localdate(), the date the
code under test reads.
"""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from django.utils.html import strip_tags
from reversion.models import Version

from chips.models import Availability, Spec
from editorial import selectors, services
from tests import factories as f
from vendors.documents import document_of
from vendors.models import Event, Fact, Score

pytestmark = pytest.mark.django_db

QUEUE = "/admin/vendors/stalefact/"
VENDORS = "/admin/vendors/vendor/"


def days_ago(days):
    return timezone.localdate() - dt.timedelta(days=days)


def ymd(day):
    """A date as a reader sees it (infra/formats: “1 Mar 2026”)."""
    return f"{day.day} {day:%b %Y}"


def queue_rows(response):
    """The fact pks listed in the queue, in order (from the action checkboxes)."""
    return [int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', response.content.decode())]


def run_action(client, url, action, objects):
    return client.post(url, {"action": action, "_selected_action": [obj.pk for obj in objects]}, follow=True)


def page_text(response):
    """The page's text as a browser lays it out: tags dropped, white space collapsed."""
    assert response.status_code == 200
    return " ".join(strip_tags(response.content.decode()).split())


def rankings_verified(client, vendor):
    """The text of ``vendor``'s “Verified” cell on the rankings page (the row's last cell), in
    the ranked table or, for a vendor not scored yet, in the “Not scored yet” list."""
    html = client.get("/").content.decode()
    row = re.search(rf'<a href="/vendors/{vendor.slug}/">.*?</tr>', html, flags=re.S).group()
    return " ".join(strip_tags(re.findall(r"<td>(.*?)</td>", row, flags=re.S)[-1]).split())


def newest_revision(item):
    return Version.objects.get_for_object(item).order_by("-pk").first().revision


@pytest.fixture
def vendor():
    return f.make_vendor()


# --- Fact.objects.stale() ---------------------------------------------------------------


class TestStale:
    def test_the_window_boundary_and_never_verified(self, vendor):
        inside = f.make_fact(vendor=vendor, verified_on=days_ago(89))
        on_the_edge = f.make_fact(vendor=vendor, verified_on=days_ago(90))
        just_past = f.make_fact(vendor=vendor, verified_on=days_ago(91))
        never = f.make_fact(vendor=vendor, verified_on=None)
        today = f.make_fact(vendor=vendor, verified_on=timezone.localdate())

        stale = set(Fact.objects.stale())

        assert stale == {just_past, never}
        assert not stale & {inside, on_the_edge, today}

    def test_the_window_follows_the_setting(self, vendor, settings):
        settings.FRESHNESS_DAYS = 30
        fresh = f.make_fact(vendor=vendor, verified_on=days_ago(30))
        stale = f.make_fact(vendor=vendor, verified_on=days_ago(31))

        assert list(Fact.objects.stale()) == [stale]
        assert fresh not in Fact.objects.stale(days=90) and stale not in Fact.objects.stale(days=90)

    def test_days_and_today_may_be_given(self, vendor):
        fact = f.make_fact(vendor=vendor, verified_on=dt.date(2026, 1, 10))

        assert fact in Fact.objects.stale(days=10, today=dt.date(2026, 1, 21))
        assert fact not in Fact.objects.stale(days=10, today=dt.date(2026, 1, 20))

    def test_it_chains_like_any_filter(self, vendor):
        other = f.make_vendor()
        mine = f.make_fact(vendor=vendor, verified_on=None)
        f.make_fact(vendor=other, verified_on=None)

        assert list(Fact.objects.filter(vendor=vendor).stale()) == [mine]


# --- The staleness queue ----------------------------------------------------------------


class TestQueue:
    def test_lists_stale_facts_oldest_first_never_verified_at_the_top(self, admin_client, vendor):
        old = f.make_fact(vendor=vendor, verified_on=days_ago(400))
        older_than_window = f.make_fact(vendor=vendor, verified_on=days_ago(120))
        never = f.make_fact(vendor=vendor, verified_on=None)
        f.make_fact(vendor=vendor, verified_on=days_ago(10))  # fresh

        response = admin_client.get(QUEUE)

        assert response.status_code == 200
        assert queue_rows(response) == [never.pk, old.pk, older_than_window.pk]
        page = response.content.decode()
        assert "Staleness queue: facts not verified in the last 90 days, oldest first" in page
        assert "3 stale facts" in page

    def test_lists_drafts_too(self, admin_client):
        draft = f.make_vendor(published=False)
        fact = f.make_fact(vendor=draft, verified_on=None)

        assert queue_rows(admin_client.get(QUEUE)) == [fact.pk]

    def test_columns_and_edit_link(self, admin_client, superuser, vendor):
        fact = f.make_fact(vendor=vendor, verified_on=days_ago(100), value="x" * 200)
        Fact.objects.filter(pk=fact.pk).update(verified_by=superuser)

        page = admin_client.get(QUEUE).content.decode()

        assert f'<a href="/admin/vendors/vendor/{vendor.pk}/change/#fact-{fact.pk}">Edit</a>' in page
        assert vendor.name in page and fact.attribute.name in page and superuser.username in page
        assert ">100<" in page  # days since verified
        assert "x" * 79 + "…" in page and "x" * 81 not in page

    def test_a_never_verified_fact_says_so(self, admin_client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)

        assert "never verified" in admin_client.get(QUEUE).content.decode()

    def test_the_edit_page_opens_on_the_fact_itself(self, admin_client, vendor):
        fact = f.make_fact(vendor=vendor, verified_on=None)

        page = admin_client.get(f"/admin/vendors/vendor/{vendor.pk}/change/").content.decode()
        assert f'id="fact-{fact.pk}"' in page
        # The queue has no form of its own: a fact is edited on its vendor's page.
        response = admin_client.get(f"{QUEUE}{fact.pk}/change/")
        assert response.status_code == 302
        assert response["Location"] == f"/admin/vendors/vendor/{vendor.pk}/change/#fact-{fact.pk}"

    def test_filters_by_vendor_lane_and_attribute(self, admin_client):
        lane_a, lane_b = f.make_lane(), f.make_lane()
        memory, compute = f.make_attribute(name="Memory"), f.make_attribute(name="Compute")
        a = f.make_vendor(lane=lane_a)
        b = f.make_vendor(lane=lane_b)
        a_memory = f.make_fact(vendor=a, attribute=memory, verified_on=None)
        a_compute = f.make_fact(vendor=a, attribute=compute, verified_on=None)
        b_memory = f.make_fact(vendor=b, attribute=memory, verified_on=None)

        def listed(query):
            response = admin_client.get(QUEUE, query)
            assert response.status_code == 200  # an unknown filter redirects with ?e=1
            return set(queue_rows(response))

        assert listed({"vendor__id__exact": a.pk}) == {a_memory.pk, a_compute.pk}
        assert listed({"vendor__lane__id__exact": lane_b.pk}) == {b_memory.pk}
        assert listed({"attribute__id__exact": memory.pk}) == {a_memory.pk, b_memory.pk}
        assert listed({"attribute__id__exact": compute.pk, "vendor__id__exact": a.pk}) == {a_compute.pk}

    def test_the_vendor_filter_offers_only_vendors_with_stale_facts(self, admin_client):
        stale = [f.make_vendor(name="Has stale"), f.make_vendor(name="Also stale")]
        fresh = f.make_vendor(name="All fresh")
        for vendor in stale:
            f.make_fact(vendor=vendor, verified_on=None)
        f.make_fact(vendor=fresh, verified_on=days_ago(1))

        page = admin_client.get(QUEUE).content.decode()

        assert all(f"vendor__id__exact={vendor.pk}" in page for vendor in stale)
        assert f"vendor__id__exact={fresh.pk}" not in page

    def test_search_on_value_and_vendor_name(self, admin_client):
        hbm = f.make_fact(vendor=f.make_vendor(name="Alpha"), value="96 GB HBM3", verified_on=None)
        other = f.make_fact(vendor=f.make_vendor(name="Beta"), value="PCIe card", verified_on=None)

        assert queue_rows(admin_client.get(QUEUE, {"q": "HBM3"})) == [hbm.pk]
        assert queue_rows(admin_client.get(QUEUE, {"q": "Beta"})) == [other.pk]

    def test_sorting_by_days_since_verified(self, admin_client, vendor):
        older = f.make_fact(vendor=vendor, verified_on=days_ago(200))
        never = f.make_fact(vendor=vendor, verified_on=None)
        old = f.make_fact(vendor=vendor, verified_on=days_ago(100))

        def rows_sorted_by(column):
            response = admin_client.get(QUEUE, {"o": column})
            assert response.status_code == 200
            return queue_rows(response)

        # Columns after the checkbox: vendor, attribute, value, verified on (4), by, days since (6).
        assert rows_sorted_by("6") == [old.pk, older.pk, never.pk]  # fewest days first, never last
        assert rows_sorted_by("-6") == [never.pk, older.pk, old.pk]  # never verified, then the oldest
        # Where a database puts "never" when sorting by the date itself is its own business.
        assert [pk for pk in rows_sorted_by("4") if pk != never.pk] == [older.pk, old.pk]
        assert [pk for pk in rows_sorted_by("-4") if pk != never.pk] == [old.pk, older.pk]

    def test_no_add_or_delete(self, admin_client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)

        assert admin_client.get(f"{QUEUE}add/").status_code == 403
        assert "delete_selected" not in admin_client.get(QUEUE).content.decode()

    def test_query_count_does_not_grow_with_the_rows(self, admin_client, django_assert_max_num_queries):
        for _ in range(3):
            vendor = f.make_vendor()
            for _ in range(5):
                f.make_fact(vendor=vendor, verified_on=None)
        with django_assert_max_num_queries(18):
            admin_client.get(QUEUE)

    def test_an_editor_can_open_the_queue_and_act_on_it(self, client, vendor):
        editor = f.make_staff_user(group="Editor")
        fact = f.make_fact(vendor=vendor, verified_on=None)
        client.force_login(editor)

        index = client.get("/admin/").content.decode()
        assert "Staleness queue" in index
        response = client.get(QUEUE)
        assert response.status_code == 200
        assert queue_rows(response) == [fact.pk]

        run_action(client, QUEUE, "mark_verified_today", [fact])
        fact.refresh_from_db()
        assert (fact.verified_on, fact.verified_by) == (timezone.localdate(), editor)

    def test_without_fact_permissions_the_queue_is_closed(self, client):
        user = f.make_staff_user(group="Editor")
        user.groups.clear()
        user.user_permissions.add(Permission.objects.get(codename="view_vendor"))
        client.force_login(user)

        assert client.get(QUEUE).status_code == 403
        index = client.get("/admin/").content.decode()
        assert "Staleness queue" not in index and "stale row" not in index

    def test_view_only_may_look_but_not_mark(self, client, vendor):
        user = f.make_staff_user(group="Editor")
        user.groups.clear()
        user.user_permissions.add(Permission.objects.get(codename="view_fact"))
        fact = f.make_fact(vendor=vendor, verified_on=None)
        client.force_login(user)

        response = client.get(QUEUE)
        assert response.status_code == 200
        assert "mark_verified_today" not in response.content.decode()
        run_action(client, QUEUE, "mark_verified_today", [fact])
        fact.refresh_from_db()
        assert fact.verified_on is None


# --- “Mark verified today” --------------------------------------------------------------


class TestMarkVerifiedOnFacts:
    def test_marks_the_selected_facts_and_takes_them_off_the_queue(self, admin_client, superuser, vendor):
        picked = [
            f.make_fact(vendor=vendor, verified_on=None),
            f.make_fact(vendor=vendor, verified_on=days_ago(200)),
        ]
        left = f.make_fact(vendor=vendor, verified_on=days_ago(300))

        response = run_action(admin_client, QUEUE, "mark_verified_today", picked)

        assert "Marked 2 facts verified today on 1 vendor." in response.content.decode()
        for fact in picked:
            fact.refresh_from_db()
            assert (fact.verified_on, fact.verified_by) == (timezone.localdate(), superuser)
        left.refresh_from_db()
        assert left.verified_on == days_ago(300) and left.verified_by is None
        assert queue_rows(admin_client.get(QUEUE)) == [left.pk]

    def test_the_action_is_labelled(self, admin_client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)

        assert ">Mark verified today</option>" in admin_client.get(QUEUE).content.decode()

    def test_records_a_revision_of_each_vendor_touched(self, admin_client, superuser):
        a, b = f.make_vendor(), f.make_vendor()
        facts = [f.make_fact(vendor=a, verified_on=None), f.make_fact(vendor=b, verified_on=None)]
        before = {v.pk: Version.objects.get_for_object(v).count() for v in (a, b)}

        run_action(admin_client, QUEUE, "mark_verified_today", facts)

        for vendor in (a, b):
            assert Version.objects.get_for_object(vendor).count() == before[vendor.pk] + 1
            revision = newest_revision(vendor)
            assert revision.user == superuser
            assert revision.comment == "Marked verified today."
            # One vendor per revision, so that each history shows only its own rows.
            vendors_in_it = revision.version_set.filter(content_type__model="vendor")
            assert {v.object_repr for v in vendors_in_it} == {vendor.name}

    def test_a_form_opened_before_merges_with_the_dates_rather_than_saving_over_them(
        self, admin_client, vendor
    ):
        fact = f.make_fact(vendor=vendor, verified_on=None)
        f.admin_post_vendor_page(admin_client, vendor)  # the profile as opened is a revision
        rows, initial = f.admin_rows_on_page(admin_client.get(f.admin_change_url(vendor)))
        opened_form = f.vendor_admin_post(vendor, rows=rows, initial=initial, summary="Edited meanwhile.")

        run_action(admin_client, QUEUE, "mark_verified_today", [fact])
        response = admin_client.post(f.admin_change_url(vendor), opened_form)

        assert response.status_code == 302
        fact.refresh_from_db()
        vendor.refresh_from_db()
        assert (fact.verified_on, vendor.summary) == (timezone.localdate(), "Edited meanwhile.")

    def test_a_form_opened_before_any_revision_shows_the_dates_beside_its_own(self, admin_client, vendor):
        """Without the revision the form was opened at, every difference is a conflict."""
        fact = f.make_fact(vendor=vendor, verified_on=None)
        rows, initial = f.admin_rows_on_page(admin_client.get(f.admin_change_url(vendor)))
        opened_form = f.vendor_admin_post(vendor, rows=rows, initial=initial)

        run_action(admin_client, QUEUE, "mark_verified_today", [fact])
        response = admin_client.post(f.admin_change_url(vendor), opened_form)

        assert response.status_code == 200
        facts = response.context["inline_admin_formsets"][0].formset
        (error,) = facts.forms[0].errors["verified_on"]
        assert error.endswith(f": {timezone.localdate().isoformat()} · Yours: empty")
        fact.refresh_from_db()
        assert fact.verified_on == timezone.localdate()


class TestMarkVerifiedOnVendors:
    def test_marks_every_fact_event_and_score_and_the_live_page(self, admin_client, superuser):
        vendor, untouched = f.make_vendor(), f.make_vendor()
        f.make_fact(vendor=vendor, verified_on=None)
        f.make_fact(vendor=vendor, verified_on=days_ago(10))
        f.make_event(vendor=vendor)
        f.make_score(vendor=vendor)
        f.make_spec(vendor=vendor, verified_on=None)
        f.make_availability(vendor=vendor, verified_on=days_ago(200))
        f.make_fact(vendor=untouched, verified_on=None)
        f.publish(vendor)
        f.publish(untouched)

        response = run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        page = response.content.decode()
        assert (
            "Marked 1 vendor verified today: 2 facts, 1 event, 1 score, 1 chip spec, 1 availability date, "
            "0 chip prices and 0 measured results." in page
        )
        today = timezone.localdate()
        for model in (Fact, Event, Score, Spec, Availability):
            rows = model.objects.filter(vendor=vendor)
            assert rows.exists()
            assert set(rows.values_list("verified_on", "verified_by")) == {(today, superuser.pk)}
        live = selectors.live_version(vendor)
        assert (live.verified_on, live.unverified_facts, live.fact_count) == (today, 0, 2)
        live_rows = [row for kind in ("facts", "events", "scores") for row in live.document[kind]]
        live_rows += [row for chip in live.document["chips"] for row in chip["specs"] + chip["availability"]]
        assert len(live_rows) == 6
        assert {row["verified_on"] for row in live_rows} == {today.isoformat()}
        assert Fact.objects.get(vendor=untouched).verified_on is None
        assert selectors.live_version(untouched).unverified_facts == 1

    def test_sits_beside_the_workflow_actions(self, admin_client, vendor):
        page = admin_client.get(VENDORS).content.decode()

        for action in ("publish_changes", "unpublish", "submit_for_review", "mark_verified_today"):
            assert f'value="{action}"' in page
        assert ">Mark verified today</option>" in page
        assert 'value="publish_now"' not in page

    def test_records_one_revision_per_vendor(self, admin_client, superuser):
        vendors = [f.make_vendor(), f.make_vendor()]
        for vendor in vendors:
            f.make_fact(vendor=vendor, verified_on=None)

        run_action(admin_client, VENDORS, "mark_verified_today", vendors)

        revisions = {newest_revision(v) for v in vendors}
        assert len(revisions) == 2
        for revision in revisions:
            assert revision.user == superuser and revision.comment == "Marked verified today."
            assert revision.version_set.filter(content_type__model="vendor").count() == 1
            assert revision.version_set.filter(content_type__model="fact").count() == 1

    def test_an_editor_may_mark_a_vendor_and_its_live_date_moves(self, client, visitor, vendor):
        editor = f.make_staff_user(group="Editor")
        client.force_login(editor)
        f.make_score(vendor=vendor)
        f.make_fact(vendor=vendor, verified_on=days_ago(200))
        f.publish(vendor)

        run_action(client, VENDORS, "mark_verified_today", [vendor])

        assert Score.objects.get(vendor=vendor).verified_by == editor
        # Verifying is not publishing: it needs no publisher, and visitors see the date at once.
        page = page_text(visitor.get(vendor.get_absolute_url()))
        assert f"Facts verified {ymd(timezone.localdate())}" in page


class TestVerifiedByOnTheChangeForm:
    def test_inlines_show_who_verified_facts_events_and_scores(self, admin_client, superuser, vendor):
        f.make_fact(vendor=vendor)
        f.make_event(vendor=vendor)
        f.make_score(vendor=vendor)
        run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        page = admin_client.get(f.admin_change_url(vendor)).content.decode()

        verifiers = re.findall(
            r'<td class="field-verified_by">\s*(?:<div class="card-label">.*?</div>\s*)?<p>(.*?)</p>', page
        )  # a phone shows each cell's label in the cell
        assert [v for v in verifiers if superuser.username in v] and len(verifiers) >= 3
        assert sum(superuser.username in v for v in verifiers) == 3  # the empty template rows say "-"
        # facts, chips, chip availability, chip prices, measured results, events, scores
        assert page.count('<th class="column-verified_on">') == 7

    def test_a_date_entered_by_hand_is_vouched_for_by_whoever_entered_it(
        self, admin_client, superuser, vendor
    ):
        edited = f.make_fact(vendor=vendor, verified_on=days_ago(200))
        cleared = f.make_fact(vendor=vendor, verified_on=days_ago(200))
        untouched = f.make_fact(vendor=vendor, verified_on=days_ago(200))
        someone = f.make_superuser()
        Fact.objects.filter(pk__in=[cleared.pk, untouched.pk]).update(verified_by=someone)
        rows, initial = f.admin_rows_on_page(admin_client.get(f.admin_change_url(vendor)))
        by_pk = {r["id"]: r for r in rows["facts"]}
        by_pk[edited.pk]["verified_on"] = f"{timezone.localdate():%Y-%m-%d}"
        by_pk[cleared.pk]["verified_on"] = ""

        response = admin_client.post(
            f.admin_change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial)
        )

        assert response.status_code == 302, response.context and response.context["errors"]
        for fact in (edited, cleared, untouched):
            fact.refresh_from_db()
        assert (edited.verified_on, edited.verified_by) == (timezone.localdate(), superuser)
        assert (cleared.verified_on, cleared.verified_by) == (None, None)
        assert (untouched.verified_on, untouched.verified_by) == (days_ago(200), someone)

    def test_events_and_scores_are_verified_on_the_change_page_as_facts_are(
        self, admin_client, superuser, vendor
    ):
        event = f.make_event(vendor=vendor, verified_on=None)
        score = f.make_score(vendor=vendor, verified_on=days_ago(200))
        page = admin_client.get(f.admin_change_url(vendor))
        html = page.content.decode()
        for prefix in ("events", "scores"):  # a date field with the admin's “Today” shortcut
            assert re.search(rf'<input[^>]+name="{prefix}-0-verified_on"[^>]+class="vDateField', html)
        rows, initial = f.admin_rows_on_page(page)
        today = f"{timezone.localdate():%Y-%m-%d}"
        rows["events"][0]["verified_on"] = rows["scores"][0]["verified_on"] = today

        response = admin_client.post(
            f.admin_change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial)
        )

        assert response.status_code == 302, response.context and response.context["errors"]
        for row in (event, score):
            row.refresh_from_db()
            assert (row.verified_on, row.verified_by) == (timezone.localdate(), superuser)
            assert row.verified_at is not None

    def test_a_date_entered_by_hand_on_a_live_profile_reaches_the_live_page(
        self, admin_client, visitor, vendor
    ):
        fact = f.make_fact(vendor=vendor, verified_on=days_ago(200))
        f.publish(vendor)
        assert f"Facts verified {ymd(days_ago(200))}" in page_text(visitor.get(vendor.get_absolute_url()))
        rows, initial = f.admin_rows_on_page(admin_client.get(f.admin_change_url(vendor)))
        (row,) = [r for r in rows["facts"] if r["id"] == fact.pk]
        row["verified_on"] = f"{timezone.localdate():%Y-%m-%d}"
        response = admin_client.post(
            f.admin_change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial)
        )
        assert response.status_code == 302
        assert f"Facts verified {ymd(timezone.localdate())}" in page_text(
            visitor.get(vendor.get_absolute_url())
        )
        vendor.refresh_from_db()
        assert selectors.state(vendor) == "Live"


# --- The admin index --------------------------------------------------------------------


class TestAdminIndex:
    def test_shows_how_many_rows_are_stale_with_a_link_to_the_queue(self, admin_client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)
        f.make_fact(vendor=vendor, verified_on=days_ago(91))
        f.make_fact(vendor=vendor, verified_on=days_ago(5))
        f.make_event(vendor=vendor, verified_on=None)

        page = admin_client.get("/admin/").content.decode()

        assert (
            f'<a href="{QUEUE}">3 stale rows</a> (2 facts, 1 event, 0 scores, 0 chip specs, '
            "0 availability dates, 0 chip prices, 0 measured results: not verified in the last" in page
        )
        assert "90 days, or citing a source that failed its checks)" in page

    def test_follows_the_setting(self, admin_client, vendor, settings):
        settings.FRESHNESS_DAYS = 30
        f.make_fact(vendor=vendor, verified_on=days_ago(31))

        assert (
            "1 stale row</a> (1 fact, 0 events, 0 scores, 0 chip specs, 0 availability dates, "
            "0 chip prices, 0 measured results: not verified in the last 30 days"
            in (admin_client.get("/admin/").content.decode())
        )

    def test_one_count_query_per_kind(self, superuser, django_assert_num_queries):
        from django.template import engines
        from django.test import RequestFactory

        request = RequestFactory().get("/admin/")
        request.user = superuser
        template = engines["django"].from_string("{% load staleness %}{% stale_facts as s %}{{ s.count }}")
        # facts, events, scores, chip specs, availability dates, chip prices, measured results
        with django_assert_num_queries(7):
            assert template.render({"request": request}) == "0"

    def test_not_shown_to_a_user_who_may_not_view_facts_events_or_scores(self, client):
        user = f.make_staff_user(group="Editor")
        user.groups.clear()
        user.user_permissions.add(Permission.objects.get(codename="view_vendor"))
        client.force_login(user)

        assert "stale row" not in client.get("/admin/").content.decode()


# --- The public profile -----------------------------------------------------------------

NOTICE = (
    "Some facts on this page are marked “not recently verified”: "
    "they have not been re-checked in the last 90 days"
)


class TestProfile:
    """The page-level rule (claims/verification.py): the oldest verified date among the live
    version's facts, and how many of them were never verified, in words."""

    def test_facts_verified_is_the_oldest_fact_date(self, client, vendor):
        f.make_fact(vendor=vendor, verified_on=dt.date(2026, 3, 1))
        f.make_fact(vendor=vendor, verified_on=dt.date(2026, 1, 10))
        f.publish(vendor)

        page = page_text(client.get(vendor.get_absolute_url()))

        assert "Facts verified 10 Jan 2026" in page
        assert "Facts verified 1 Mar 2026" not in page and "not yet verified" not in page
        assert rankings_verified(client, vendor) == "10 Jan 2026"

    def test_a_never_verified_fact_is_counted_in_words_beside_the_date(self, client, vendor):
        f.make_fact(vendor=vendor, verified_on=days_ago(1))
        f.make_fact(vendor=vendor, verified_on=None)
        f.publish(vendor)

        page = page_text(client.get(vendor.get_absolute_url()))

        assert f"Facts verified {ymd(days_ago(1))}; 1 fact not yet verified" in page
        assert rankings_verified(client, vendor) == f"{ymd(days_ago(1))}; 1 fact not yet verified"

    def test_when_no_fact_was_ever_verified_no_date_is_claimed(self, client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)
        f.make_fact(vendor=vendor, verified_on=None)
        f.publish(vendor)

        page = page_text(client.get(vendor.get_absolute_url()))

        assert "2 facts not yet verified" in page
        assert "Facts verified" not in page
        assert rankings_verified(client, vendor) == "2 facts not yet verified"

    def test_without_facts_no_verified_date_is_claimed(self, client, vendor):
        page = page_text(client.get(vendor.get_absolute_url()))

        assert vendor.name in page
        assert "Facts verified" not in page and "not yet verified" not in page
        assert rankings_verified(client, vendor) == "no facts yet"

    def test_only_the_live_versions_facts_count(self, client, vendor):
        f.make_fact(vendor=vendor, verified_on=dt.date(2026, 3, 1))
        f.publish(vendor)
        f.make_fact(vendor=vendor, verified_on=None)  # in the working copy, not yet published
        f.make_fact(vendor=vendor, verified_on=dt.date(2025, 1, 1))

        page = page_text(client.get(vendor.get_absolute_url()))

        assert "Facts verified 1 Mar 2026" in page and "not yet verified" not in page
        assert rankings_verified(client, vendor) == "1 Mar 2026"

    def test_no_notice_or_marker_when_every_fact_is_fresh(self, client, vendor):
        f.make_fact(vendor=vendor, verified_on=days_ago(90))
        f.make_fact(vendor=vendor, verified_on=timezone.localdate())
        f.publish(vendor)

        page = client.get(vendor.get_absolute_url()).content.decode()

        assert NOTICE not in page
        assert 'class="stale"' not in page

    def test_stale_facts_get_the_notice_and_a_marker_each(self, client, vendor):
        old = days_ago(91)
        f.make_fact(vendor=vendor, value="Fresh claim", verified_on=days_ago(3))
        f.make_fact(vendor=vendor, value="Old claim", verified_on=old)
        f.make_fact(vendor=vendor, value="Unchecked claim", verified_on=None)
        f.publish(vendor)

        page = client.get(vendor.get_absolute_url()).content.decode()

        assert NOTICE in page
        assert "or a source they cite failed our checks since they were" in page
        assert page.index(NOTICE) > page.index('id="glance"')
        assert page.count('<span class="stale"') == 2
        claims = dict(re.findall(r'<p class="claim"[^>]*>(\w+) claim(.*?)</p>', page, flags=re.S))
        assert 'class="stale"' not in claims["Fresh"]
        assert (
            f'<span class="stale" title="Last verified {ymd(old)}">not recently verified</span>'
            in claims["Old"]
        )
        assert (
            '<span class="stale" title="Never verified">not recently verified</span>' in claims["Unchecked"]
        )

    def test_the_notice_follows_the_setting(self, client, vendor, settings):
        settings.FRESHNESS_DAYS = 30
        f.make_fact(vendor=vendor, verified_on=days_ago(31))
        f.publish(vendor)

        page = client.get(vendor.get_absolute_url()).content.decode()

        assert "have not been re-checked in the last 30 days" in page

    def test_marking_verified_clears_the_notice(self, visitor, admin_client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)
        f.publish(vendor)
        assert NOTICE in visitor.get(vendor.get_absolute_url()).content.decode()

        run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        response = visitor.get(vendor.get_absolute_url())
        page = response.content.decode()
        assert NOTICE not in page and 'class="stale"' not in page
        assert f"Facts verified {ymd(timezone.localdate())}" in page_text(response)

    def test_no_inline_style_or_script_for_the_csp(self, client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)
        f.publish(vendor)

        page = client.get(vendor.get_absolute_url()).content.decode()

        assert 'class="stale"' in page  # the notice and the marker are on the page
        assert "style=" not in page and "<style" not in page
        assert f.inline_scripts(page) == []


# --- Verification on a live page --------------------------------------------------------


def change_log_html(response):
    """The change log list as the page renders it (the profile's section or the full log)."""
    assert response.status_code == 200
    return re.search(r'<ol class="changes".*?</ol>', response.content.decode(), flags=re.S).group()


def at_a_glance_claims(response):
    """{first word: the rest of its markup} for each “<word> claim” fact in the at-a-glance table."""
    return dict(
        re.findall(r'<p class="claim"[^>]*>(\w+) claim(.*?)</p>', response.content.decode(), flags=re.S)
    )


class TestVerifyingALivePage:
    """“Mark verified today” moves the live page's dates on the next request: no publish, no
    pending content change goes live with it, and no change-log entry."""

    def test_the_live_date_moves_on_profile_and_rankings_without_publishing_a_pending_change(
        self, visitor, admin_client, vendor
    ):
        f.make_fact(vendor=vendor, value="230 MB SRAM", verified_on=days_ago(200))
        f.make_fact(vendor=vendor, value="14 nm", verified_on=days_ago(100))
        edited = f.make_fact(vendor=vendor, value="LPU v1", verified_on=None)
        f.publish(vendor)
        Fact.objects.filter(pk=edited.pk).update(value="LPU v2")  # an edit waiting in the working copy
        services.refresh_state(obj=vendor)
        assert selectors.state(vendor) == "Live + unpublished changes"
        was = f"{ymd(days_ago(200))}; 1 fact not yet verified"
        assert f"Facts verified {was}" in page_text(visitor.get(vendor.get_absolute_url()))
        assert rankings_verified(visitor, vendor) == was

        run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        # The unchanged facts are verified today; the edited one is not live, so not vouched for.
        now = f"{ymd(timezone.localdate())}; 1 fact not yet verified"
        page = page_text(visitor.get(vendor.get_absolute_url()))
        assert f"Facts verified {now}" in page
        assert "LPU v1" in page and "LPU v2" not in page
        assert rankings_verified(visitor, vendor) == now
        vendor.refresh_from_db()
        assert selectors.state(vendor) == "Live + unpublished changes"  # the edit still waits

    def test_a_chip_spec_verified_in_its_queue_is_verified_live_but_an_edited_one_is_not(
        self, visitor, admin_client, vendor
    ):
        kept = f.make_spec(vendor=vendor, chip="Trainium3", kind="memory", verified_on=days_ago(200))
        edited = f.make_spec(
            vendor=vendor, chip="Trainium3", kind="bandwidth", quantity="4.9", unit="TB/s", verified_on=None
        )
        f.publish(vendor)
        Spec.objects.filter(pk=edited.pk).update(quantity="5.1")  # waiting in the working copy

        run_action(admin_client, SPECS, "mark_verified_today", [kept, edited])

        live = {spec.id: spec for spec in document_of(selectors.live_version(vendor)).specs}
        assert live[kept.pk].verified_on == timezone.localdate() and not live[kept.pk].is_stale
        assert (live[edited.pk].quantity, live[edited.pk].verified_on) == ("4.9", None)
        page = visitor.get(vendor.get_absolute_url()).content.decode()
        row = re.search(rf'<tr id="spec-{kept.pk}">.*?</tr>', page, re.S).group(0)
        assert (
            f'<time datetime="{timezone.localdate():%Y-%m-%d}">' in row and "not recently verified" not in row
        )

    @pytest.mark.parametrize("old_age", [None, 150], ids=["never-verified", "verified-150-days-ago"])
    def test_a_changed_unpublished_fact_keeps_its_old_date_live_until_published(
        self, visitor, admin_client, vendor, old_age
    ):
        old_date = days_ago(old_age) if old_age else None
        f.make_fact(vendor=vendor, value="Unchanged claim", verified_on=days_ago(200))
        changed = f.make_fact(vendor=vendor, value="Old claim", verified_on=old_date)
        f.publish(vendor)
        # An editor rewrites the claim in the admin and does not publish it.
        rows, initial = f.admin_rows_on_page(admin_client.get(f.admin_change_url(vendor)))
        next(r for r in rows["facts"] if r["id"] == changed.pk)["value"] = "New claim"
        form = f.vendor_admin_post(vendor, rows=rows, initial=initial)
        assert admin_client.post(f.admin_change_url(vendor), form).status_code == 302

        run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        today = timezone.localdate()
        changed.refresh_from_db()
        assert changed.verified_on == today  # the working copy: the new value is vouched for
        response = visitor.get(vendor.get_absolute_url())
        page = page_text(response)
        claims = at_a_glance_claims(response)
        assert set(claims) == {"Unchanged", "Old"}
        assert 'class="stale"' not in claims["Unchanged"]
        if old_date is None:
            assert f"Facts verified {ymd(today)}; 1 fact not yet verified" in page
            assert 'title="Never verified"' in claims["Old"]
        else:
            assert f"Facts verified {ymd(old_date)}" in page and "not yet verified" not in page
            assert f'title="Last verified {ymd(old_date)}"' in claims["Old"]

        f.publish(vendor)

        response = visitor.get(vendor.get_absolute_url())
        page = page_text(response)
        assert set(at_a_glance_claims(response)) == {"Unchanged", "New"}
        assert f"Facts verified {ymd(today)}" in page and "not yet verified" not in page
        assert 'class="stale"' not in response.content.decode()

    def test_verifying_adds_no_entry_to_the_change_log(self, visitor, admin_client, vendor):
        f.make_fact(vendor=vendor, value="230 MB SRAM", verified_on=days_ago(200))
        f.publish(vendor, note="SRAM figure added.")
        changes_url = f"/vendors/{vendor.slug}/changes/"
        full_log = change_log_html(visitor.get(changes_url))
        on_profile = change_log_html(visitor.get(vendor.get_absolute_url()))
        assert len(re.findall(r"<li id=\"v\d+\"><h2>", full_log)) == 2 and "SRAM figure added." in full_log

        run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        today = ymd(timezone.localdate())
        assert f"Facts verified {today}" in page_text(visitor.get(vendor.get_absolute_url()))
        assert change_log_html(visitor.get(changes_url)) == full_log
        assert change_log_html(visitor.get(vendor.get_absolute_url())) == on_profile

    def test_a_scheduled_change_goes_live_with_the_new_dates(self, admin_client, vendor):
        f.make_fact(vendor=vendor, value="230 MB SRAM", verified_on=days_ago(200))
        f.publish(vendor)
        f.make_faq(vendor=vendor, question="Who can buy it?")
        goes_live = timezone.now() + dt.timedelta(days=1)
        f.publish(vendor, at=goes_live)

        run_action(admin_client, VENDORS, "mark_verified_today", [vendor])

        assert selectors.live_version(vendor).verified_on == timezone.localdate()
        later = selectors.live_version(vendor, at=goes_live + dt.timedelta(minutes=1))
        assert later.verified_on == timezone.localdate()
        assert [faq["question"] for faq in later.document["faqs"]] == ["Who can buy it?"]


# --- Events and scores in the queue; one row at a time ----------------------------------

EVENTS = "/admin/vendors/staleevent/"
SCORES = "/admin/vendors/stalescore/"
SPECS = "/admin/chips/stalespec/"
AVAILABILITY = "/admin/chips/staleavailability/"


def verify_row(client, url, obj):
    return client.post(url, {"verify_row": obj.pk}, follow=True)


class TestQueueOfEventsAndScores:
    def test_events_and_scores_follow_the_same_rule_as_facts(self, admin_client, vendor):
        old_event = f.make_event(vendor=vendor, verified_on=days_ago(91))
        f.make_event(vendor=vendor, verified_on=days_ago(90))
        never_score = f.make_score(vendor=vendor, verified_on=None)
        f.make_score(vendor=vendor, verified_on=days_ago(3))

        assert queue_rows(admin_client.get(EVENTS)) == [old_event.pk]
        assert queue_rows(admin_client.get(SCORES)) == [never_score.pk]

    def test_the_menu_counts_each_kind_and_links_to_it(self, admin_client, vendor):
        f.make_fact(vendor=vendor, verified_on=None)
        f.make_event(vendor=vendor, verified_on=None)
        f.make_event(vendor=vendor, verified_on=None)

        text = page_text(admin_client.get(EVENTS))

        assert "Facts (1) Events (2) Scores (0)" in text
        assert "Staleness queue: events not verified in the last 90 days, oldest first" in text
        assert "2 stale events" in text

    def test_each_row_links_to_its_own_row_on_the_vendors_page(self, admin_client, vendor):
        event = f.make_event(vendor=vendor, verified_on=None)
        score = f.make_score(vendor=vendor, verified_on=None)
        page = admin_client.get(f"/admin/vendors/vendor/{vendor.pk}/change/").content.decode()

        for url, obj, anchor in ((EVENTS, event, "event"), (SCORES, score, "score")):
            link = f"/admin/vendors/vendor/{vendor.pk}/change/#{anchor}-{obj.pk}"
            assert f'<a href="{link}">Edit</a>' in admin_client.get(url).content.decode()
            assert f'id="{anchor}-{obj.pk}"' in page
            assert admin_client.get(f"{url}{obj.pk}/change/")["Location"] == link

    @pytest.mark.parametrize(
        ("url", "make"),
        [(QUEUE, f.make_fact), (EVENTS, f.make_event), (SCORES, f.make_score)],
        ids=["fact", "event", "score"],
    )
    def test_one_row_is_marked_verified_by_its_own_button(self, admin_client, superuser, vendor, url, make):
        picked, left = make(vendor=vendor, verified_on=None), make(vendor=vendor, verified_on=None)
        revisions = Version.objects.get_for_object(vendor).count()

        response = verify_row(admin_client, url, picked)

        name = type(picked)._meta.verbose_name
        assert f"Marked 1 {name} verified today on 1 vendor." in page_text(response)
        picked.refresh_from_db()
        assert (picked.verified_on, picked.verified_by) == (timezone.localdate(), superuser)
        assert queue_rows(response) == [left.pk]
        assert Version.objects.get_for_object(vendor).count() == revisions + 1

    def test_each_row_has_a_labelled_button(self, admin_client, vendor):
        score = f.make_score(vendor=vendor, verified_on=None)

        page = admin_client.get(SCORES).content.decode()

        assert f'name="verify_row" value="{score.pk}">Mark verified today</button>' in page

    def test_the_action_marks_ticked_events(self, admin_client, vendor):
        events = [f.make_event(vendor=vendor, verified_on=None) for _ in range(2)]

        response = run_action(admin_client, EVENTS, "mark_verified_today", events)

        assert "Marked 2 events verified today on 1 vendor." in page_text(response)
        assert not Event.objects.stale().exists()

    def test_a_view_only_user_sees_no_button_and_a_forged_one_changes_nothing(self, client, vendor):
        user = f.make_staff_user(group="Editor")
        user.groups.clear()
        user.user_permissions.add(Permission.objects.get(codename="view_score"))
        score = f.make_score(vendor=vendor, verified_on=None)
        client.force_login(user)

        assert "verify_row" not in client.get(SCORES).content.decode()
        response = verify_row(client, SCORES, score)

        assert "You may look at this queue but not mark rows verified." in page_text(response)
        score.refresh_from_db()
        assert score.verified_on is None

    def test_a_row_that_is_gone_or_a_forged_value_is_named_not_a_500(self, admin_client, vendor):
        score = f.make_score(vendor=vendor, verified_on=None)

        for value in (score.pk + 1000, "abc", ""):
            response = admin_client.post(SCORES, {"verify_row": value}, follow=True)
            assert "That score no longer exists." in page_text(response)
        score.refresh_from_db()
        assert score.verified_on is None

    def test_what_the_source_checks_found_is_given_in_words(self, admin_client, vendor):
        dead = f.make_source(problem="returned 404", problem_on=timezone.localdate() - dt.timedelta(days=1))
        changed = f.make_source(text_changed_since=dt.date(2026, 11, 28), accessed_on=dt.date(2026, 11, 1))
        fact = f.make_fact(vendor=vendor, verified_on=days_ago(5), sources=[dead, changed])
        f.make_fact(vendor=vendor, verified_on=days_ago(200))

        text = page_text(admin_client.get(QUEUE))

        assert fact.pk in queue_rows(admin_client.get(QUEUE))
        assert dead.problem_text.startswith("source returned 404 on ") and dead.problem_text in text
        assert "page text changed since 28 Nov" in text

    # Session, user, 7 counts for the menu, the filters' choices (vendors, lanes, and
    # attributes or axes), 2 counts, a site-settings check, the rows, their flagged sources,
    # their citations whose quote is gone (and for specs, every citation: sources that differ).
    @pytest.mark.parametrize(
        ("url", "queries"),
        [(QUEUE, 18), (EVENTS, 17), (SCORES, 18), (SPECS, 18), (AVAILABILITY, 17)],
        ids=["facts", "events", "scores", "specs", "availability"],
    )
    def test_query_count_is_the_same_at_two_sizes(
        self, admin_client, django_assert_num_queries, url, queries
    ):
        source = f.make_source(problem="returned 404", problem_on=timezone.localdate())

        def fill(vendors):
            for _ in range(vendors):
                vendor = f.make_vendor()
                for _ in range(3):
                    f.make_fact(vendor=vendor, verified_on=None, sources=[source])
                    f.make_event(vendor=vendor, verified_on=None, sources=[source])
                f.make_score(vendor=vendor, verified_on=None, sources=[source])
                for n in range(3):
                    f.make_spec(vendor=vendor, chip=f"{vendor.name} X{n}", verified_on=None, sources=[source])
                    f.make_availability(
                        vendor=vendor, chip=f"{vendor.name} X{n}", verified_on=None, sources=[source]
                    )

        fill(1)
        admin_client.get(url)  # warm the session and the content types
        with django_assert_num_queries(queries):
            assert admin_client.get(url).status_code == 200
        fill(4)
        with django_assert_num_queries(queries):
            assert admin_client.get(url).status_code == 200
