"""The side-by-side preview: the live page beside the working copy, with what changed marked,
framable by the admin only."""

import re

import pytest

from tests import factories as f
from vendors.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def publisher():
    return f.make_staff_user(group="Publisher", username="pat")


@pytest.fixture
def edited(client, publisher):
    """A live profile with two facts; an editor then changes one fact's value and adds an event."""
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    memory = f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value="96 GB HBM3")
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Process"), value="5 nm")
    f.publish(vendor)
    editor = f.make_staff_user(group="Editor", username="eddie")
    client.force_login(editor)

    def edit(rows):
        for row in rows["facts"]:
            if row["id"] == memory.pk:
                row["value"] = "144 GB HBM3e"
        rows["events"].append({"date": "2025-12-01", "precision": "month", "text": "Trainium3 ships."})

    response = f.admin_post_vendor_page(client, vendor, edit=edit)
    assert response.status_code == 302, response.content.decode()[:2000]
    vendor.refresh_from_db()
    assert vendor.has_unpublished_changes
    client.logout()
    return vendor


def preview_url(item):
    opts = item._meta
    return f"/admin/{opts.app_label}/{opts.model_name}/{item.pk}/preview/"


def test_the_preview_frames_the_live_page_beside_the_working_copy_and_lists_the_changes(
    client, publisher, edited
):
    client.force_login(publisher)
    page = client.get(preview_url(edited)).content.decode()

    assert '<iframe src="/vendors/aws-trainium/?live&amp;frame"' in page
    assert '<iframe src="/vendors/aws-trainium/?frame"' in page
    assert "Memory: 96 GB HBM3 -&gt; 144 GB HBM3e" in page
    assert "Event added" in page
    # and the change page links to it
    change_page = client.get(f.admin_change_url(edited)).content.decode()
    assert f'href="{preview_url(edited)}">Compare with the live page, side by side</a>' in change_page


def test_the_framed_working_copy_marks_what_changed_and_nothing_else(client, publisher, edited):
    client.force_login(publisher)
    response = client.get("/vendors/aws-trainium/?frame")
    html = response.content.decode()

    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert "private" in response.headers["Cache-Control"] and "no-store" in response.headers["Cache-Control"]
    assert html.count('class="change-mark change-changed"') == 1
    assert re.search(r'>144 GB HBM3e.*?<span class="change-mark change-changed">Changed</span></p>', html)
    event = Event.objects.get(vendor=edited)
    assert re.search(
        rf'<li id="event-{event.pk}">.*?Trainium3 ships\.'
        r'.*?<span class="change-mark change-new">New</span></li>',
        html,
        re.S,  # the new event is never verified: its stale mark ends a line before the change mark
    )
    assert "5 nm" in html and html.count('class="change-mark') == 2  # the unchanged fact is unmarked
    assert "Marked: what differs from the live version." in html


def test_the_framed_live_page_is_the_live_version_unmarked(client, publisher, edited):
    client.force_login(publisher)
    response = client.get("/vendors/aws-trainium/?live&frame")
    html = response.content.decode()

    assert "96 GB HBM3" in html and "144 GB HBM3e" not in html
    assert "change-mark" not in html
    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]


def test_visitors_can_never_frame_a_page_even_when_they_ask(client, edited):
    response = client.get("/vendors/aws-trainium/?live&frame")

    assert response.status_code == 200
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "144 GB HBM3e" not in response.content.decode()


def test_staff_who_may_not_change_the_item_get_no_preview(client, edited, django_user_model):
    viewer = django_user_model.objects.create_user("viewer", password="x", is_staff=True)
    client.force_login(viewer)

    assert client.get(preview_url(edited)).status_code == 403


def test_a_new_profile_previews_alone_with_what_it_holds(client, publisher):
    vendor = f.make_vendor(name="Newco", slug="newco", published=False)
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value="64 GB")
    client.force_login(publisher)

    page = client.get(preview_url(vendor)).content.decode()

    assert page.count("<iframe") == 1 and '<iframe src="/vendors/newco/?frame"' in page
    assert "What this new vendor holds" in page and "Not published yet" in page


def test_a_comparison_previews_side_by_side_with_its_changed_summary_marked(client, publisher):
    comparison = f.make_comparison(
        vendors=[f.make_vendor(), f.make_vendor()],
        title="TPU vs Trainium",
        slug="tpu-vs-trainium",
        summary="Old summary.",
    )
    client.force_login(publisher)
    rows, initial = f.admin_rows_on_page(client.get(f.admin_change_url(comparison)))
    data = f.comparison_admin_fields(comparison, summary="New summary.")
    for prefix, found in rows.items():
        data.update(f.admin_inline_rows(prefix, found, initial[prefix]))
    response = client.post(f.admin_change_url(comparison), data)
    assert response.status_code == 302, response.content.decode()[:3000]

    page = client.get(preview_url(comparison)).content.decode()
    framed = client.get("/compare/tpu-vs-trainium/?frame").content.decode()

    assert "<li>Summary: Old summary. -&gt; New summary.</li>" in page
    assert '<span class="change-mark change-changed">Changed</span>New summary.' in framed


def test_a_criterion_added_since_the_live_comparison_is_marked_new_on_its_row(client, publisher):
    memory = f.make_attribute(name="Memory")
    vendors = [f.make_vendor(name="Alpha"), f.make_vendor(name="Beta")]
    for vendor, value in zip(vendors, ("96 GB HBM3", "144 GB HBM3e"), strict=True):
        f.make_fact(vendor=vendor, attribute=memory, value=value)
        f.publish(vendor)
    comparison = f.make_comparison(vendors=vendors, title="Alpha vs Beta", slug="alpha-vs-beta")
    f.make_criterion(comparison=comparison, name="Memory per chip", attribute=memory)
    comparison.has_unpublished_changes = True  # as the admin's save marks it
    comparison.save()
    client.force_login(publisher)

    framed = client.get("/compare/alpha-vs-beta/?frame").content.decode()
    live = client.get("/compare/alpha-vs-beta/?live").content.decode()

    heading = (
        '<th scope="row">Memory per chip <span class="muted">(Memory)</span>'
        '<span class="change-mark change-new">New</span></th>'
    )
    assert heading in framed and "144 GB HBM3e" in framed
    assert "Memory per chip" not in live  # the live comparison has no such criterion yet
