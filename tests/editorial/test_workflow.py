"""The newsroom workflow: review before live, scheduling, roles, revisions, diffs, revert, pruning."""

import datetime as dt
import io
import re

import pytest
from django.core.management import call_command
from django.utils import timezone
from reversion.models import Revision, Version

from editorial import selectors, services
from editorial.revisions import latest_version_id, record_revision
from tests import factories as f
from vendors.models import FAQ, Fact, Vendor, VendorVersion

CHANGELIST = "/admin/vendors/vendor/"
change_url = f.admin_change_url
inline_rows = f.admin_inline_rows
rows_on_page = f.admin_rows_on_page
post_vendor_page = f.admin_post_vendor_page
workflow_url = f.admin_workflow_url


def vendor_form(vendor, **overrides):
    """The vendor's own fields; the caller adds the inline rows."""
    return f.vendor_admin_post(vendor, **overrides)


pytestmark = pytest.mark.django_db


def user_in(group, django_user_model, name=None):
    user = django_user_model.objects.create_user(name or group.lower(), password="pw", is_staff=True)
    user.groups.add(f.role_group(group))
    return user


def row(sources=(), **fields):
    return {**fields, "sources": [source.pk for source in sources]}


def shows_memory(page, value):
    """The at-a-glance row says ``value`` (the change log may quote old values too)."""
    return re.search(rf'<p class="claim"[^>]*>{re.escape(value)}', page) is not None


def set_memory(value):
    def edit(rows):
        rows["facts"][0]["value"] = value

    return edit


# --- review before live -------------------------------------------------------------------------


def test_an_editors_save_waits_for_a_publisher_then_goes_live(client, django_user_model, live_trainium):
    editor = user_in("Editor", django_user_model, "alice")
    publisher = user_in("Publisher", django_user_model, "pat")
    client.force_login(editor)
    response = post_vendor_page(client, live_trainium, edit=set_memory("288 GB HBM3e"))
    assert response.status_code == 302
    assert Fact.objects.get(vendor=live_trainium).value == "288 GB HBM3e"  # the working copy changed

    visitor = type(client)()
    page = visitor.get("/vendors/aws-trainium/").content.decode()
    assert shows_memory(page, "144 GB HBM3e") and "288 GB HBM3e" not in page

    listing = client.get(CHANGELIST).content.decode()
    assert "Live + unpublished changes" in listing
    change_page = client.get(change_url(live_trainium)).content.decode()
    assert "Memory: 144 GB HBM3e -&gt; 288 GB HBM3e" in change_page
    assert "Publish changes" not in change_page  # an Editor cannot publish
    assert client.post(workflow_url(live_trainium, "submit")).status_code == 302
    assert "Waiting for review" in client.get(CHANGELIST).content.decode()

    client.force_login(publisher)
    index = client.get("/admin/").content.decode()
    assert "Waiting for review (1)" in index and "alice" in index
    assert "Publish changes" in client.get(change_url(live_trainium)).content.decode()
    response = client.post(workflow_url(live_trainium, "publish"), {"note": "Trainium3 shipped"})
    assert response.status_code == 302

    page = visitor.get("/vendors/aws-trainium/").content.decode()
    assert shows_memory(page, "288 GB HBM3e") and not shows_memory(page, "144 GB HBM3e")
    changes = visitor.get("/vendors/aws-trainium/changes/").content.decode()
    assert "Memory: 144 GB HBM3e -&gt; 288 GB HBM3e" in changes
    assert "Trainium3 shipped" in changes
    assert "Waiting for review" not in client.get("/admin/").content.decode()
    live_trainium.refresh_from_db()
    assert selectors.state(live_trainium) == "Live"


def test_discard_returns_the_working_copy_to_the_live_version(admin_client, live_trainium):
    post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB"), summary="Rewritten")
    response = admin_client.post(workflow_url(live_trainium, "discard"))
    assert response.status_code == 302
    live_trainium.refresh_from_db()
    assert Fact.objects.get(vendor=live_trainium).value == "144 GB HBM3e"
    assert live_trainium.summary != "Rewritten"
    assert selectors.state(live_trainium) == "Live"
    assert "Unpublished changes discarded" in admin_client.get(change_url(live_trainium)).content.decode()


def test_scheduled_changes_go_live_at_their_time(admin_client, visitor, live_trainium, monkeypatch):
    client = visitor
    post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB HBM3e"))
    at = timezone.localtime() + dt.timedelta(hours=2)
    response = admin_client.post(workflow_url(live_trainium, "schedule"), {"at": f"{at:%Y-%m-%dT%H:%M}"})
    assert response.status_code == 302
    live_trainium.refresh_from_db()
    assert selectors.state(live_trainium) == f"Live + changes scheduled for {at:%-d %b %Y %H:%M}"
    assert shows_memory(client.get("/vendors/aws-trainium/").content.decode(), "144 GB HBM3e")

    later = timezone.now() + dt.timedelta(hours=3)
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = client.get("/vendors/aws-trainium/").content.decode()
    assert shows_memory(page, "288 GB HBM3e") and not shows_memory(page, "144 GB HBM3e")


def test_a_schedule_in_the_past_is_refused_with_a_message(admin_client, live_trainium):
    post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB HBM3e"))
    response = admin_client.post(
        workflow_url(live_trainium, "schedule"), {"at": "2020-01-01T09:00"}, follow=True
    )
    assert "Pick a time still to come" in response.content.decode()
    assert not VendorVersion.objects.filter(item=live_trainium).pending().exists()


def test_cancelling_a_schedule_keeps_the_changes_in_the_working_copy(admin_client, live_trainium):
    post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB HBM3e"))
    f.publish(live_trainium, at=timezone.now() + dt.timedelta(days=1))
    assert admin_client.post(workflow_url(live_trainium, "cancel")).status_code == 302
    live_trainium.refresh_from_db()
    assert selectors.state(live_trainium) == "Live + unpublished changes"
    assert Fact.objects.get(vendor=live_trainium).value == "288 GB HBM3e"


def test_revert_of_a_live_profile_keeps_it_live_and_loads_the_old_values(
    admin_client, visitor, live_trainium
):
    client = visitor
    first = Version.objects.get_for_object(live_trainium).order_by("pk").last()  # the published one
    post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB HBM3e"))
    f.publish(live_trainium)
    assert shows_memory(client.get("/vendors/aws-trainium/").content.decode(), "288 GB HBM3e")

    url = f"{CHANGELIST}{live_trainium.pk}/history/{first.pk}/"
    confirm = admin_client.get(url).content.decode()
    assert "Memory: 288 GB HBM3e -&gt; 144 GB HBM3e" in confirm
    response = admin_client.post(url, follow=True)
    assert "loaded into the working copy as unpublished changes" in response.content.decode()

    visitor_page = client.get("/vendors/aws-trainium/")
    assert visitor_page.status_code == 200
    assert shows_memory(visitor_page.content.decode(), "288 GB HBM3e")
    assert Fact.objects.get(vendor=live_trainium).value == "144 GB HBM3e"
    live_trainium.refresh_from_db()
    assert selectors.state(live_trainium) == "Live + unpublished changes"

    f.publish(live_trainium)
    assert shows_memory(client.get("/vendors/aws-trainium/").content.decode(), "144 GB HBM3e")


def test_unpublishing_takes_the_page_down_and_keeps_its_versions(admin_client, visitor, live_trainium):
    client = visitor
    kept = list(VendorVersion.objects.filter(item=live_trainium).values_list("pk", flat=True))
    assert admin_client.post(workflow_url(live_trainium, "unpublish")).status_code == 302
    assert client.get("/vendors/aws-trainium/").status_code == 404
    assert "AWS Trainium" not in client.get("/").content.decode()
    assert list(VendorVersion.objects.filter(item=live_trainium).values_list("pk", flat=True)) == kept
    live_trainium.refresh_from_db()
    assert selectors.state(live_trainium) == "Unpublished"


# --- states -------------------------------------------------------------------------------------


class TestStates:
    def test_each_item_has_one_status_tag(self, django_user_model):
        at = timezone.make_aware(dt.datetime(2026, 12, 3, 9, 0))
        now = timezone.make_aware(dt.datetime(2026, 11, 30, 12, 0))
        draft = f.make_vendor(published=False)
        scheduled = f.make_vendor(published=False)
        f.publish(scheduled, at=at)
        live = f.make_vendor(published_at=now - dt.timedelta(days=30))
        changed = f.make_vendor(published_at=now - dt.timedelta(days=30))
        Vendor.objects.filter(pk=changed.pk).update(summary="Edited")
        services.refresh_state(obj=changed)
        both = f.make_vendor(published_at=now - dt.timedelta(days=30))
        Vendor.objects.filter(pk=both.pk).update(summary="Edited")
        f.publish(both, at=at)
        waiting = f.make_vendor(published_at=now - dt.timedelta(days=30))
        Vendor.objects.filter(pk=waiting.pk).update(summary="Edited")
        services.refresh_state(obj=waiting)
        services.submit_for_review(obj=waiting, user=user_in("Editor", django_user_model))
        tags = {
            name: selectors.state(Vendor.objects.get(pk=item.pk), now=now)
            for name, item in [
                ("draft", draft), ("scheduled", scheduled), ("live", live),
                ("changed", changed), ("both", both), ("waiting", waiting),
            ]
        }  # fmt: skip
        assert tags == {
            "draft": "Draft",
            "scheduled": "Scheduled for 3 Dec 2026 09:00",
            "live": "Live",
            "changed": "Live + unpublished changes",
            "both": "Live + changes scheduled for 3 Dec 2026 09:00",
            "waiting": "Waiting for review",
        }

    def test_admin_list_shows_the_tags_and_filters_by_them(self, admin_client):
        when = timezone.now() + dt.timedelta(days=3)
        scheduled = f.make_vendor(name="Soon Chip", published=False)
        f.publish(scheduled, at=when)
        f.make_vendor(name="Drafty", published=False)
        page = admin_client.get(CHANGELIST).content.decode()
        assert f"Scheduled for {timezone.localtime(when):%-d %b %Y %H:%M}" in page
        assert ">Draft<" in page
        drafts = admin_client.get(CHANGELIST, {"state": "draft"}).content.decode()
        assert "Drafty" in drafts and "Soon Chip" not in drafts

    def test_scheduled_vendor_appears_by_itself_when_its_time_comes(self, client, monkeypatch):
        when = timezone.now() + dt.timedelta(days=3)
        vendor = f.make_vendor(name="Soon Chip", published=False)
        f.publish(vendor, at=when)
        assert client.get(vendor.get_absolute_url()).status_code == 404
        assert "Soon Chip" not in client.get("/").content.decode()
        monkeypatch.setattr(timezone, "now", lambda: when + dt.timedelta(minutes=1))
        assert client.get(vendor.get_absolute_url()).status_code == 200
        assert "Soon Chip" in client.get("/").content.decode()

    def test_preview_of_a_scheduled_vendor_names_its_state_and_is_private(self, admin_client):
        when = timezone.now() + dt.timedelta(days=1)
        vendor = f.make_vendor(published=False)
        f.publish(vendor, at=when)
        response = admin_client.get(vendor.get_absolute_url())
        assert response.status_code == 200
        assert (
            f"Preview: Scheduled for {timezone.localtime(when):%-d %b %Y %H:%M}." in response.content.decode()
        )
        assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]

    def test_an_editor_sees_a_scheduled_change_before_its_time(self, admin_client, visitor, live_trainium):
        post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB HBM3e"))
        when = timezone.now() + dt.timedelta(days=1)
        f.publish(live_trainium, at=when)
        text = admin_client.get("/vendors/aws-trainium/").content.decode()
        banner = f"Preview: Live + changes scheduled for {timezone.localtime(when):%-d %b %Y %H:%M}."
        assert banner in text and shows_memory(text, "288 GB HBM3e")
        assert shows_memory(visitor.get("/vendors/aws-trainium/").content.decode(), "144 GB HBM3e")

    def test_preview_of_unpublished_changes_shows_the_working_copy(
        self, admin_client, visitor, live_trainium
    ):
        client = visitor
        post_vendor_page(admin_client, live_trainium, edit=set_memory("288 GB HBM3e"))
        preview = admin_client.get("/vendors/aws-trainium/")
        text = preview.content.decode()
        assert "Preview: Live + unpublished changes." in text and shows_memory(text, "288 GB HBM3e")
        assert "no-store" in preview["Cache-Control"]
        live = admin_client.get("/vendors/aws-trainium/?live").content.decode()
        assert shows_memory(live, "144 GB HBM3e") and "Preview:" not in live
        assert "Preview:" not in client.get("/vendors/aws-trainium/").content.decode()


# --- roles ------------------------------------------------------------------------------------


@pytest.fixture
def people(django_user_model):
    return {
        "anonymous": None,
        "staff": django_user_model.objects.create_user("staff", password="pw", is_staff=True),
        "editor": user_in("Editor", django_user_model),
        "publisher": user_in("Publisher", django_user_model),
        "superuser": f.make_superuser(),
    }


def attempt(client, action, vendor, draft):
    """One thing a user may try; returns the HTTP status the server gave."""
    version = Version.objects.get_for_object(vendor).order_by("pk").first()
    if action == "list":
        return client.get(CHANGELIST).status_code
    if action == "add":
        return client.get(CHANGELIST + "add/").status_code
    if action == "change":
        return client.get(change_url(vendor)).status_code
    if action == "history":
        return client.get(f"{CHANGELIST}{vendor.pk}/history/").status_code
    if action == "delete":
        return client.post(f"{CHANGELIST}{vendor.pk}/delete/", {"post": "yes"}).status_code
    if action == "publish":
        return client.post(workflow_url(draft, "publish")).status_code
    if action == "revert":
        return client.post(f"{CHANGELIST}{vendor.pk}/history/{version.pk}/").status_code
    raise AssertionError(action)


# 302 after a POST means it was done; 302 for anonymous means "log in first".
ROLE_MATRIX = {
    #             list add  change history delete publish revert
    "anonymous": [302, 302, 302, 302, 302, 302, 302],
    "staff": [403, 403, 403, 403, 403, 403, 403],
    "editor": [200, 200, 200, 200, 403, 403, 403],
    "publisher": [200, 200, 200, 200, 302, 302, 302],
    "superuser": [200, 200, 200, 200, 302, 302, 302],
}
ACTIONS = ["list", "add", "change", "history", "delete", "publish", "revert"]


@pytest.mark.parametrize("role", ROLE_MATRIX)
@pytest.mark.parametrize("action", ACTIONS)
def test_role_matrix(client, people, role, action):
    vendor = f.make_vendor(summary="Original")  # live, with its revisions
    Vendor.objects.filter(pk=vendor.pk).update(summary="Edited")
    record_revision(Vendor.objects.get(pk=vendor.pk), comment="Edited")  # as every write records one
    draft = f.make_vendor(published=False)
    if people[role]:
        client.force_login(people[role])
    status = attempt(client, action, vendor, draft)
    assert status == ROLE_MATRIX[role][ACTIONS.index(action)], (role, action, status)
    done = {
        "delete": not Vendor.objects.filter(pk=vendor.pk).exists(),
        "publish": VendorVersion.objects.filter(item=draft).live().exists(),
        "revert": Vendor.objects.filter(pk=vendor.pk, summary="Original").exists(),
    }
    if action in done:
        assert done[action] == (status == 302 and role != "anonymous"), (role, action)


@pytest.mark.parametrize("step", ["publish", "schedule", "discard", "unpublish", "cancel"])
def test_an_editors_forged_workflow_post_is_refused_and_changes_nothing(client, django_user_model, step):
    client.force_login(user_in("Editor", django_user_model))
    vendor = f.make_vendor(summary="Live text")
    Vendor.objects.filter(pk=vendor.pk).update(summary="Working text")
    services.refresh_state(obj=vendor)
    response = client.post(workflow_url(vendor, step), {"at": "2030-01-01T09:00"})
    assert response.status_code == 403
    (version,) = VendorVersion.objects.filter(item=vendor)
    assert version.is_live and version.document["vendor"]["summary"] == "Live text"


def test_an_editor_edits_a_live_profile_but_cannot_delete_it(client, django_user_model):
    client.force_login(user_in("Editor", django_user_model))
    vendor = f.make_vendor(summary="Old")
    assert post_vendor_page(client, vendor, summary="New").status_code == 302
    vendor.refresh_from_db()
    assert vendor.summary == "New"
    assert client.post(f"{CHANGELIST}{vendor.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Vendor.objects.filter(pk=vendor.pk).exists()
    draft = f.make_vendor(published=False)
    assert client.post(f"{CHANGELIST}{draft.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Vendor.objects.filter(pk=draft.pk).exists()


# --- revisions, diffs, revert ----------------------------------------------------------------------


@pytest.fixture
def edited(admin_client):
    """A vendor saved twice through the admin: memory and a score changed, a FAQ added."""
    memory, software = f.make_attribute(name="Memory"), f.make_axis(name="Software")
    vendor = f.make_vendor(name="AWS Trainium", published=False)
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
    f.make_score(vendor=vendor, axis=software, value=3, reason="Neuron is young.")
    assert post_vendor_page(admin_client, vendor, revision_comment="First check").status_code == 302

    def edit(rows):
        rows["facts"][0]["value"] = "144 GB HBM3e"
        rows["scores"][0].update(value=4, reason="Neuron grew up.")
        rows["faqs"].append(row(question="What is AWS Trainium?", answer="Amazon's chip.", position=""))

    response = post_vendor_page(admin_client, vendor, edit=edit, revision_comment="Trainium3 launch")
    assert response.status_code == 302
    return vendor


def test_every_admin_save_records_the_whole_profile(edited):
    versions = list(Version.objects.get_for_object(edited).order_by("pk"))
    assert len(versions) == 2
    latest = versions[-1].revision
    models = {v.content_type.model for v in latest.version_set.all()}
    assert {"vendor", "fact", "score", "faq"} <= models
    assert latest.user.is_superuser
    assert latest.get_comment().startswith("Trainium3 launch")
    assert "Comment on this change" not in latest.get_comment()


def test_history_lists_revisions_with_who_and_comment(admin_client, edited):
    page = admin_client.get(f"{CHANGELIST}{edited.pk}/history/").content.decode()
    assert "Trainium3 launch" in page and "First check" in page
    assert "Compare selected revisions" in page
    assert page.count('type="radio" name="a"') == 2


def test_diff_between_two_revisions_reads_field_by_field(admin_client, edited):
    old, new = Version.objects.get_for_object(edited).order_by("pk")
    page = admin_client.get(f"{CHANGELIST}{edited.pk}/history/compare/", {"a": new.pk, "b": old.pk})
    text = page.content.decode()
    assert "Memory: 96 GB HBM3 -&gt; 144 GB HBM3e" in text
    assert "Score Software: 3 -&gt; 4, reason: Neuron is young. -&gt; Neuron grew up." in text
    assert "FAQ added: What is AWS Trainium?" in text


def test_compare_with_bad_picks_goes_back_to_history(admin_client, edited):
    response = admin_client.get(f"{CHANGELIST}{edited.pk}/history/compare/", {"a": "x", "b": "999999"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/{edited.pk}/history/")


def test_revert_brings_children_back_and_is_itself_a_revision(admin_client, edited):
    first = Version.objects.get_for_object(edited).order_by("pk").first()
    response = admin_client.post(f"{CHANGELIST}{edited.pk}/history/{first.pk}/")
    assert response.status_code == 302
    assert Fact.objects.get(vendor=edited).value == "96 GB HBM3"
    assert edited.scores.get().value == 3
    assert not FAQ.objects.filter(vendor=edited).exists()
    versions = Version.objects.get_for_object(edited)
    assert versions.count() == 3
    assert "Reverted" in versions.order_by("pk").last().revision.get_comment()


def test_history_offers_no_revert_to_a_revision_the_working_copy_already_holds(admin_client, edited):
    first, second = Version.objects.get_for_object(edited).order_by("pk")
    page = admin_client.get(f"{CHANGELIST}{edited.pk}/history/").content.decode()
    assert f"/history/{first.pk}/" in page  # the older one differs: it may be loaded
    assert f"/history/{second.pk}/" not in page
    assert page.count("Same as the working copy") == 1


def test_loading_a_revision_the_working_copy_holds_is_refused_and_records_nothing(admin_client, edited):
    latest = Version.objects.get_for_object(edited).order_by("pk").last()
    url = f"{CHANGELIST}{edited.pk}/history/{latest.pk}/"
    assert "Load this revision" not in admin_client.get(url).content.decode()

    response = admin_client.post(url, follow=True)

    assert "already holds this revision: there is nothing to load" in response.content.decode()
    assert Version.objects.get_for_object(edited).count() == 2


def test_a_form_opened_before_a_revert_merges_the_revert_with_the_edit(admin_client, edited):
    rows, initial = rows_on_page(admin_client.get(change_url(edited)))
    opened = latest_version_id(edited)
    first = Version.objects.get_for_object(edited).order_by("pk").first()
    admin_client.post(f"{CHANGELIST}{edited.pk}/history/{first.pk}/")
    data = vendor_form(edited, summary="Typed over the revert", opened_revision=opened)
    for prefix, found in rows.items():
        data.update(inline_rows(prefix, found, initial[prefix]))
    response = admin_client.post(change_url(edited), data, follow=True)
    assert response.redirect_chain
    shown = [str(m) for m in response.context["messages"]]
    assert any(m.startswith("Merged with ") and "you changed Summary" in m for m in shown), shown
    edited.refresh_from_db()
    assert edited.summary == "Typed over the revert"
    # What the revert brought back stays: the old memory and score, and no FAQ.
    assert Fact.objects.get(vendor=edited).value == "96 GB HBM3"
    assert edited.scores.get().value == 3
    assert not FAQ.objects.filter(vendor=edited).exists()


def test_a_deleted_vendor_can_be_recovered_with_its_facts(admin_client, edited):
    assert admin_client.post(f"{CHANGELIST}{edited.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Vendor.objects.filter(pk=edited.pk).exists()
    page = admin_client.get(f"{CHANGELIST}recover/").content.decode()
    assert "AWS Trainium" in page
    deleted = Version.objects.get_deleted(Vendor).first()
    url = f"{CHANGELIST}recover/{deleted.pk}/"
    page = admin_client.get(url)
    rows, initial = rows_on_page(page)
    fields = deleted.field_dict
    data = {name: fields.get(name) or "" for name in ["name", "slug", "company", "summary", "verdict"]}
    data["lane"] = fields["lane_id"] if "lane_id" in fields else fields["lane"]
    data["opened_revision"] = page.context["adminform"].form["opened_revision"].value()
    for prefix, found in rows.items():
        data.update(inline_rows(prefix, found, initial[prefix]))
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Fact.objects.get(vendor_id=edited.pk).value == "144 GB HBM3e"


# --- pruning ----------------------------------------------------------------------------------


def test_prune_deletes_old_revisions_but_keeps_the_last_few(admin_client, edited):
    other = f.make_vendor(published=False)
    for n in range(4):
        assert post_vendor_page(admin_client, edited, summary=f"Edit {n}").status_code == 302
    post_vendor_page(admin_client, other, summary="Once")
    Revision.objects.update(date_created=timezone.now() - dt.timedelta(days=400))
    before = Version.objects.get_for_object(edited).count()
    assert before == 6

    out = io.StringIO()
    call_command("prune_revisions", "--days", "365", "--keep", "2", "--dry-run", stdout=out)
    assert "4 revision(s)" in out.getvalue()
    assert Version.objects.get_for_object(edited).count() == 6

    call_command("prune_revisions", "--days", "365", "--keep", "2", stdout=io.StringIO())
    assert Version.objects.get_for_object(edited).count() == 2
    assert Version.objects.get_for_object(other).count() == 1  # an item's last revision stays


def test_prune_keeps_the_revision_the_live_version_was_made_from(admin_client, live_trainium):
    for n in range(4):
        assert post_vendor_page(admin_client, live_trainium, summary=f"Edit {n}").status_code == 302
    Revision.objects.update(date_created=timezone.now() - dt.timedelta(days=400))
    call_command("prune_revisions", "--days", "365", "--keep", "1", stdout=io.StringIO())
    live = VendorVersion.objects.live().get(item=live_trainium)
    assert Version.objects.filter(pk=live.source_version_id).exists()
    assert admin_client.post(workflow_url(live_trainium, "discard")).status_code == 302
    live_trainium.refresh_from_db()
    assert not live_trainium.summary.startswith("Edit")


def test_prune_keeps_recent_revisions(admin_client, edited):
    call_command("prune_revisions", "--days", "365", "--keep", "1", stdout=io.StringIO())
    assert Version.objects.get_for_object(edited).count() == 2


# --- no lost updates ----------------------------------------------------------------------------


def test_a_form_opened_before_someone_elses_save_merges_with_it_and_says_what_changed(
    client, django_user_model, admin_client
):
    memory = f.make_attribute(name="Memory")
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
    post_vendor_page(admin_client, vendor)  # a first revision

    a, b = user_in("Editor", django_user_model, "alice"), user_in("Editor", django_user_model, "bob")
    client.force_login(b)
    b_rows, b_initial = rows_on_page(client.get(change_url(vendor)))
    b_opened = latest_version_id(vendor)

    client.force_login(a)
    assert post_vendor_page(client, vendor, edit=set_memory("144 GB HBM3e")).status_code == 302

    client.force_login(b)
    data = vendor_form(vendor, summary="Bob's summary", opened_revision=b_opened)
    for prefix, found in b_rows.items():
        data.update(inline_rows(prefix, found, b_initial[prefix]))
    response = client.post(change_url(vendor), data, follow=True)
    assert response.redirect_chain
    text = response.content.decode()
    assert "Merged with alice&#x27;s save of" in text
    assert "they changed Memory, you changed Summary." in text
    vendor.refresh_from_db()
    assert vendor.summary == "Bob's summary"
    assert Fact.objects.get(vendor=vendor).value == "144 GB HBM3e"


def test_saving_again_after_reopening_works(admin_client):
    vendor = f.make_vendor()
    assert post_vendor_page(admin_client, vendor, summary="One").status_code == 302
    assert post_vendor_page(admin_client, vendor, summary="Two").status_code == 302
    vendor.refresh_from_db()
    assert vendor.summary == "Two"


def test_publishing_several_at_once_gives_each_its_own_version_and_revision(client, django_user_model):
    client.force_login(user_in("Publisher", django_user_model))
    drafts = [f.make_vendor(published=False) for _ in range(3)]
    for draft in drafts:
        f.make_fact(vendor=draft, value=f"fact of {draft.name}")
    response = client.post(
        CHANGELIST, {"action": "publish_changes", "_selected_action": [d.pk for d in drafts]}
    )
    assert response.status_code == 302
    for draft in drafts:
        version = VendorVersion.objects.live().get(item=draft)
        assert [fact["value"] for fact in version.document["facts"]] == [f"fact of {draft.name}"]
        source = Version.objects.get(pk=version.source_version_id)
        owners = {v.field_dict.get("vendor_id") for v in source.revision.version_set.all()} - {None}
        assert owners == {draft.pk}, "a revision holds one vendor's rows only"
        assert client.get(draft.get_absolute_url()).status_code == 200
