"""The admin history of a profile: the editor's comment apart from the automatic log, readable dates,
and breadcrumbs in the admin's own markup."""

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone
from django.utils.formats import date_format
from reversion.models import Version

from editorial import services
from tests import factories as f

CHANGELIST = "/admin/vendors/vendor/"
post_vendor_page = f.admin_post_vendor_page

pytestmark = pytest.mark.django_db

ISO_MOMENT = re.compile(r"\d{4}-\d\d-\d\d(T\d\d:\d\d|\b)")


@pytest.fixture
def edited(admin_client):
    """A vendor saved twice through the admin, with a comment each time; the second changes memory
    and re-verifies the fact."""
    vendor = f.make_vendor(name="AWS Trainium", published=False)
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value="96 GB HBM3")
    assert post_vendor_page(admin_client, vendor, revision_comment="First check").status_code == 302

    def edit(rows):
        rows["facts"][0].update(value="144 GB HBM3e", verified_on="2026-11-30")

    assert (
        post_vendor_page(admin_client, vendor, edit=edit, revision_comment="Trainium3 launch").status_code
        == 302
    )
    return vendor


def versions(vendor):
    return list(Version.objects.get_for_object(vendor).order_by("pk"))


def compare_page(client, vendor):
    older, newer = versions(vendor)[-2:]
    return client.get(
        f"{CHANGELIST}{vendor.pk}/history/compare/", {"a": older.pk, "b": newer.pk}
    ).content.decode()


def cells(page, row_class):
    row = re.search(rf'<tr class="{row_class}">(.*?)</tr>', page, re.S).group(1)
    return [re.sub(r"\s+", " ", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]


def breadcrumbs(page):
    trail = re.search(r'<nav aria-label="Breadcrumbs">\s*(<ol class="breadcrumbs">.*?</ol>)', page, re.S)
    assert trail, "no breadcrumbs in the admin's own <nav><ol class=breadcrumbs> markup"
    return [
        re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", trail.group(1))
    ]


def test_the_revision_keeps_the_editors_comment_and_the_admin_log_keeps_the_automatic_message(edited):
    assert [v.revision.comment for v in versions(edited)] == ["First check", "Trainium3 launch"]
    automatic = LogEntry.objects.filter(object_id=str(edited.pk)).order_by("pk").last().get_change_message()
    assert automatic.startswith("Changed")


def test_a_save_without_a_comment_records_no_comment(admin_client, edited):
    assert post_vendor_page(admin_client, edited).status_code == 302
    assert versions(edited)[-1].revision.comment == ""


def test_compare_header_says_who_when_and_the_editors_comment_apart_from_what_changed(admin_client, edited):
    older, newer = versions(edited)[-2:]
    who = older.revision.user.get_username()
    page = compare_page(admin_client, edited)
    when = [
        date_format(timezone.localtime(v.revision.date_created), "DATETIME_FORMAT") for v in (older, newer)
    ]
    assert cells(page, "revision-older") == ["Older", when[0], who, "First check"]
    assert cells(page, "revision-newer") == ["Newer", when[1], who, "Trainium3 launch"]
    header, changes = page.split("What changed, recorded automatically")
    assert "Memory" not in header and "Changed" not in header
    assert changes.count("Memory: 96 GB HBM3 -&gt; 144 GB HBM3e") == 1


def test_compare_shows_dates_as_the_rest_of_the_admin(admin_client, edited):
    page = compare_page(admin_client, edited)
    assert "verified on: 1 Nov 2026 -&gt; 30 Nov 2026" in page
    assert not ISO_MOMENT.search(page.split('id="content-main"')[1])


def test_history_list_shows_comments_and_dates_readably_after_publishing_and_scheduling(admin_client, edited):
    services.publish(obj=edited, user=None)
    at = timezone.now() + timezone.timedelta(days=2)
    services.publish(obj=edited, user=None, at=at)
    page = admin_client.get(f"{CHANGELIST}{edited.pk}/history/").content.decode()
    body = page.split('id="content-main"')[1]
    assert f"Scheduled for {date_format(timezone.localtime(at), 'DATETIME_FORMAT')}." in body
    assert "Trainium3 launch" in body and "First check" in body
    assert not ISO_MOMENT.search(re.sub(r'value="\d+"', "", body))


def test_history_pages_have_the_admins_breadcrumbs(admin_client, edited):
    older, newer = versions(edited)[-2:]
    stock = breadcrumbs(admin_client.get(f"{CHANGELIST}{edited.pk}/change/").content.decode())
    assert stock == ["Home", "Vendor profiles", "Vendors", "AWS Trainium"]
    assert breadcrumbs(admin_client.get(f"{CHANGELIST}{edited.pk}/history/").content.decode()) == [
        *stock,
        "History",
    ]
    assert breadcrumbs(compare_page(admin_client, edited)) == [*stock, "History", "Compare"]
    revert = admin_client.get(f"{CHANGELIST}{edited.pk}/history/{older.pk}/").content.decode()
    assert breadcrumbs(revert) == [*stock, "History", "Revert"]


def test_compare_names_an_event_by_its_date_at_its_precision(admin_client):
    vendor = f.make_vendor(name="AWS Trainium", published=False)
    f.make_event(vendor=vendor, text="Trn2 announced.")
    assert post_vendor_page(admin_client, vendor).status_code == 302

    def edit(rows):
        rows["events"][0]["text"] = "Trn2 generally available."

    assert post_vendor_page(admin_client, vendor, edit=edit).status_code == 302
    page = compare_page(admin_client, vendor)
    assert "<li>Event Jan 2026: text: Trn2 announced. -&gt; Trn2 generally available.</li>" in page
