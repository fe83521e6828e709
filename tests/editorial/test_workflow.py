"""The newsroom workflow in the admin: scheduling, roles, revisions, diffs, revert, pruning, edit guard."""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.utils import timezone
from reversion.models import Revision, Version

from editorial.workflow import latest_version_id, state_in_words
from tests import factories as f
from tests.vendors.test_admin import change_url, inline_rows, row, rows_on_page, same_vendor
from vendors.models import FAQ, Fact, Vendor

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/vendors/vendor/"


def user_in(group, django_user_model, name=None):
    user = django_user_model.objects.create_user(name or group.lower(), password="pw", is_staff=True)
    user.groups.add(f.role_group(group))
    return user


def post_page(client, vendor, *, edit=None, publishing=True, **fields):
    """GET the change page, let ``edit`` change its inline rows, POST it all back.

    ``publishing=False`` leaves out the status and publish time, as an Editor's page does.
    """
    rows, initial = rows_on_page(client.get(change_url(vendor)))
    if edit:
        edit(rows)
    data = same_vendor(vendor, **fields)
    if not publishing:
        for name in ("status", "published_at_0", "published_at_1"):
            data.pop(name, None)
    for prefix, found in rows.items():
        data.update(inline_rows(prefix, found, initial[prefix]))
    return client.post(change_url(vendor), data)


# --- publishing and scheduling ------------------------------------------------------------


class TestScheduling:
    def test_scheduled_vendor_appears_by_itself_when_its_time_comes(self, client, monkeypatch):
        when = timezone.now() + dt.timedelta(days=3)
        vendor = f.make_vendor(name="Soon Chip", status=Vendor.Status.PUBLISHED, published_at=when)
        assert client.get(vendor.get_absolute_url()).status_code == 404
        assert "Soon Chip" not in client.get("/").content.decode()
        monkeypatch.setattr(timezone, "now", lambda: when + dt.timedelta(minutes=1))
        assert client.get(vendor.get_absolute_url()).status_code == 200
        assert "Soon Chip" in client.get("/").content.decode()

    def test_state_in_words(self):
        now = timezone.now()
        draft = f.make_vendor(published=False)
        later = f.make_vendor(
            status=Vendor.Status.PUBLISHED,
            published_at=timezone.make_aware(dt.datetime(2026, 12, 3, 9, 0)),
        )
        live = f.make_vendor(
            status=Vendor.Status.PUBLISHED, published_at=timezone.make_aware(dt.datetime(2026, 10, 31))
        )
        at = timezone.make_aware(dt.datetime(2026, 11, 30, 12, 0))
        assert state_in_words(draft, now=now) == "Draft"
        assert state_in_words(later, now=at) == "Scheduled for 3 Dec 2026 09:00"
        assert state_in_words(live, now=at) == "Published 31 Oct 2026 00:00"

    def test_admin_list_says_the_state_in_words(self, admin_client):
        when = timezone.now() + dt.timedelta(days=3)
        f.make_vendor(status=Vendor.Status.PUBLISHED, published_at=when)
        f.make_vendor(published=False)
        page = admin_client.get(CHANGELIST).content.decode()
        assert f"Scheduled for {timezone.localtime(when):%-d %b %Y %H:%M}" in page
        assert ">Draft<" in page

    def test_unpublishing_clears_the_schedule(self, admin_client):
        vendor = f.make_vendor(
            status=Vendor.Status.PUBLISHED, published_at=timezone.now() + dt.timedelta(days=1)
        )
        response = post_page(admin_client, vendor, status="draft")
        assert response.status_code == 302
        vendor.refresh_from_db()
        assert (vendor.status, vendor.published_at) == ("draft", None)

    def test_a_draft_with_a_publish_time_is_refused_by_the_database(self):
        from django.db import IntegrityError, transaction

        with pytest.raises(IntegrityError), transaction.atomic():
            f.make_vendor(published=False, published_at=timezone.now())

    def test_scheduled_preview_is_private_and_not_stored(self, admin_client):
        vendor = f.make_vendor(
            status=Vendor.Status.PUBLISHED, published_at=timezone.now() + dt.timedelta(days=1)
        )
        response = admin_client.get(vendor.get_absolute_url())
        assert response.status_code == 200
        assert "Draft: not public." in response.content.decode()
        assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]


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
    """One thing a user may try; returns the HTTP status and whether it took effect."""
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
        return client.post(CHANGELIST, {"action": "publish_now", "_selected_action": [draft.pk]}).status_code
    if action == "revert":
        data = same_vendor(vendor, summary="Reverted")
        data.update({f"{p}-TOTAL_FORMS": 0 for p in ["facts", "events", "scores", "faqs"]})
        return client.post(f"{CHANGELIST}{vendor.pk}/history/{version.pk}/", data).status_code
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
    import reversion

    with reversion.create_revision():
        vendor = f.make_vendor(summary="Original")  # published, with one revision
    draft = f.make_vendor(published=False)
    if people[role]:
        client.force_login(people[role])
    status = attempt(client, action, vendor, draft)
    expected = ROLE_MATRIX[role][ACTIONS.index(action)]
    if role == "anonymous":
        assert status == 302
        return
    if action == "publish" and expected == 403 and status == 302:
        # The admin hides an action the user may not run; the POST falls through unapplied.
        status = 403
    assert status == expected, (role, action, status)
    draft.refresh_from_db()
    done = {
        "delete": not Vendor.objects.filter(pk=vendor.pk).exists(),
        "publish": draft.status == "published",
        "revert": Vendor.objects.filter(pk=vendor.pk, summary="Reverted").exists(),
    }
    if action in done:
        assert done[action] == (expected == 302), (role, action)


def test_editor_forged_post_cannot_publish_schedule_or_change_status(client, django_user_model):
    client.force_login(user_in("Editor", django_user_model))
    draft = f.make_vendor(published=False, summary="Draft text")
    for forged in (
        {"status": "published"},
        {"published_at_0": "2026-12-03", "published_at_1": "09:00:00"},
    ):
        data = same_vendor(draft, summary="Sneaky", **forged)
        response = client.post(change_url(draft), data)
        assert response.status_code == 403
    draft.refresh_from_db()
    assert (draft.status, draft.published_at, draft.summary) == ("draft", None, "Draft text")


def test_editor_edits_a_published_profile_but_cannot_delete_it(client, django_user_model):
    client.force_login(user_in("Editor", django_user_model))
    vendor = f.make_vendor(summary="Old")
    page = client.get(change_url(vendor)).content.decode()
    assert 'name="status"' not in page  # shown, not editable
    data = same_vendor(vendor, summary="New")
    for name in ("status", "published_at_0", "published_at_1"):
        data.pop(name, None)
    assert client.post(change_url(vendor), data).status_code == 302
    vendor.refresh_from_db()
    assert (vendor.summary, vendor.status) == ("New", "published")
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
    vendor = f.make_vendor(name="AWS Trainium")
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
    f.make_score(vendor=vendor, axis=software, value=3, reason="Neuron is young.")
    assert post_page(admin_client, vendor, revision_comment="First check").status_code == 302

    def edit(rows):
        rows["facts"][0]["value"] = "144 GB HBM3e"
        rows["scores"][0].update(value=4, reason="Neuron grew up.")
        rows["faqs"].append(row(question="What is AWS Trainium?", answer="Amazon's chip.", position=""))

    assert post_page(admin_client, vendor, edit=edit, revision_comment="Trainium3 launch").status_code == 302
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
    assert "Score Software: 3 -&gt; 4, reason changed" in text
    assert "FAQ added: What is AWS Trainium?" in text


def test_compare_with_bad_picks_goes_back_to_history(admin_client, edited):
    response = admin_client.get(f"{CHANGELIST}{edited.pk}/history/compare/", {"a": "x", "b": "999999"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/{edited.pk}/history/")


def test_revert_brings_children_back_and_is_itself_a_revision(admin_client, edited):
    first = Version.objects.get_for_object(edited).order_by("pk").first()
    url = f"{CHANGELIST}{edited.pk}/history/{first.pk}/"
    rows, initial = rows_on_page(admin_client.get(url))
    data = same_vendor(edited)
    data["opened_revision"] = latest_version_id(edited)
    for prefix, found in rows.items():
        data.update(inline_rows(prefix, found, initial[prefix]))
    response = admin_client.post(url, data)
    assert response.status_code == 302
    assert Fact.objects.get(vendor=edited).value == "96 GB HBM3"
    assert edited.scores.get().value == 3
    assert not FAQ.objects.filter(vendor=edited).exists()
    versions = Version.objects.get_for_object(edited)
    assert versions.count() == 3
    assert "Reverted" in versions.order_by("pk").last().revision.get_comment()


def test_a_deleted_vendor_can_be_recovered_with_its_facts(admin_client, edited):
    assert admin_client.post(f"{CHANGELIST}{edited.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Vendor.objects.filter(pk=edited.pk).exists()
    page = admin_client.get(f"{CHANGELIST}recover/").content.decode()
    assert "AWS Trainium" in page
    deleted = Version.objects.get_deleted(Vendor).first()
    url = f"{CHANGELIST}recover/{deleted.pk}/"
    rows, initial = rows_on_page(admin_client.get(url))
    data = same_vendor(Vendor(**{k: v for k, v in deleted.field_dict.items()}))  # as the page shows it
    for prefix, found in rows.items():
        data.update(inline_rows(prefix, found, initial[prefix]))
    assert admin_client.post(url, data).status_code == 302
    assert Fact.objects.get(vendor_id=edited.pk).value == "144 GB HBM3e"


# --- pruning ----------------------------------------------------------------------------------


def test_prune_deletes_old_revisions_but_keeps_the_last_few(admin_client, edited):
    other = f.make_vendor()
    for n in range(4):
        assert post_page(admin_client, edited, summary=f"Edit {n}").status_code == 302
    post_page(admin_client, other, summary="Once")
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


def test_prune_keeps_recent_revisions(admin_client, edited):
    call_command("prune_revisions", "--days", "365", "--keep", "1", stdout=io.StringIO())
    assert Version.objects.get_for_object(edited).count() == 2


# --- no lost updates ----------------------------------------------------------------------------


def test_second_save_of_a_stale_form_is_refused_and_says_what_changed(
    client, django_user_model, admin_client
):
    memory = f.make_attribute(name="Memory")
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
    post_page(admin_client, vendor)  # a first revision

    a, b = user_in("Editor", django_user_model, "alice"), user_in("Editor", django_user_model, "bob")
    client.force_login(b)
    b_rows, b_initial = rows_on_page(client.get(change_url(vendor)))
    b_opened = latest_version_id(vendor)

    client.force_login(a)

    def a_edit(rows):
        rows["facts"][0]["value"] = "144 GB HBM3e"

    assert post_page(client, vendor, edit=a_edit, publishing=False).status_code == 302

    client.force_login(b)
    data = same_vendor(vendor, summary="Bob's summary")
    data["opened_revision"] = b_opened
    for name in ("status", "published_at_0", "published_at_1"):
        data.pop(name, None)
    for prefix, found in b_rows.items():
        data.update(inline_rows(prefix, found, b_initial[prefix]))
    response = client.post(change_url(vendor), data)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Someone else (alice) saved this vendor" in text
    assert "Memory: 96 GB HBM3 -&gt; 144 GB HBM3e" in text
    vendor.refresh_from_db()
    assert vendor.summary != "Bob's summary"
    assert Fact.objects.get(vendor=vendor).value == "144 GB HBM3e"


def test_saving_again_after_reopening_works(admin_client):
    vendor = f.make_vendor()
    assert post_page(admin_client, vendor, summary="One").status_code == 302
    assert post_page(admin_client, vendor, summary="Two").status_code == 302
    vendor.refresh_from_db()
    assert vendor.summary == "Two"


def test_publishing_several_at_once_gives_each_its_own_revision(client, django_user_model):
    client.force_login(user_in("Publisher", django_user_model))
    drafts = [f.make_vendor(published=False) for _ in range(3)]
    for draft in drafts:
        f.make_fact(vendor=draft, value=f"fact of {draft.name}")
    response = client.post(CHANGELIST, {"action": "publish_now", "_selected_action": [d.pk for d in drafts]})
    assert response.status_code == 302
    for draft in drafts:
        draft.refresh_from_db()
        assert draft.status == "published" and draft.published_at is not None
        (version,) = Version.objects.get_for_object(draft)
        owners = {v.field_dict.get("vendor_id") for v in version.revision.version_set.all()} - {None}
        assert owners == {draft.pk}, "a revision holds one vendor's rows only"
