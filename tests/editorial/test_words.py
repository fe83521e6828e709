"""Words that mislead (issue 46): what the editorial workflow tells editors says only what is
true and offers only what they may do."""

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db

change_url = f.admin_change_url


def user_in(group, django_user_model, name):
    user = django_user_model.objects.create_user(
        name, password="pw", is_staff=True, email=f"{name}@example.com"
    )
    user.groups.add(f.role_group(group))
    return user


def set_memory(value):
    def edit(rows):
        rows["facts"][0]["value"] = value

    return edit


def messages_after_save(client, vendor, memory):
    response = f.admin_post_vendor_page(client, vendor, edit=set_memory(memory))
    assert response.status_code == 302
    return [str(m) for m in client.get(response.url).context["messages"]]


# --- the save message names only the steps the user may take -----------------------------------


def test_an_editors_save_of_a_live_profile_offers_submit_for_review_not_publish(
    client, django_user_model, live_trainium
):
    client.force_login(user_in("Editor", django_user_model, "alice"))

    said = messages_after_save(client, live_trainium, "288 GB HBM3e")

    (waiting,) = [m for m in said if m.startswith("Visitors still see the live version")]
    assert waiting == (
        "Visitors still see the live version: these changes wait for a publisher. "
        "Submit them for review when they are ready."
    )
    assert not any(word in waiting for word in ("Publish", "Schedule", "Discard"))


def test_an_editors_save_of_a_profile_waiting_for_review_says_a_publisher_sees_it(
    client, django_user_model, live_trainium
):
    client.force_login(user_in("Editor", django_user_model, "alice"))
    messages_after_save(client, live_trainium, "288 GB HBM3e")
    assert client.post(f.admin_workflow_url(live_trainium, "submit")).status_code == 302

    said = messages_after_save(client, live_trainium, "288 GB HBM3e (Trn3)")

    assert (
        "Visitors still see the live version: these changes wait for a publisher, "
        "who sees them waiting for review." in said
    )


def test_a_publishers_save_of_a_live_profile_offers_publish_schedule_and_discard(
    client, django_user_model, live_trainium
):
    client.force_login(user_in("Publisher", django_user_model, "pat"))

    said = messages_after_save(client, live_trainium, "288 GB HBM3e")

    assert (
        "Visitors still see the live version: these changes wait for a publisher "
        "(Publish changes, Schedule changes or Discard changes)." in said
    )


# --- a schedule carries a public note, as a publish does ---------------------------------------


def test_schedule_changes_takes_a_public_note_that_readers_see_once_it_goes_live(
    client, django_user_model, live_trainium, monkeypatch
):
    import datetime as dt
    import re

    from django.utils import timezone

    client.force_login(user_in("Publisher", django_user_model, "pat"))
    messages_after_save(client, live_trainium, "288 GB HBM3e")
    page = client.get(change_url(live_trainium)).content.decode()
    schedule = re.search(r'<form[^>]*workflow/schedule/".*?</form>', page, re.S).group(0)
    assert '<label for="id_schedule_note">Public note, shown when it goes live</label>' in schedule
    assert re.search(r'<input type="text" name="note"[^>]*id="id_schedule_note"', schedule)

    at = timezone.localtime() + dt.timedelta(hours=2)
    response = client.post(
        f.admin_workflow_url(live_trainium, "schedule"),
        {"at": f"{at:%Y-%m-%dT%H:%M}", "note": "Trainium3 memory per AWS"},
    )
    assert response.status_code == 302
    visitor = type(client)()
    assert "Trainium3 memory per AWS" not in visitor.get("/vendors/aws-trainium/changes/").content.decode()

    later = timezone.now() + dt.timedelta(hours=3)
    monkeypatch.setattr(timezone, "now", lambda: later)
    changes = visitor.get("/vendors/aws-trainium/changes/").content.decode()
    assert "Trainium3 memory per AWS" in changes
    assert "Memory: 144 GB HBM3e -&gt; 288 GB HBM3e" in changes


# --- the status tag says when a live item goes off the site, and that it was unpublished ------


def test_the_tag_says_live_unpublishing_at_its_time_then_unpublished_not_draft(admin_client, live_trainium):
    import datetime as dt

    from django.utils import timezone

    at = (timezone.localtime() + dt.timedelta(days=6)).replace(hour=14, minute=0, second=0, microsecond=0)
    response = admin_client.post(
        f.admin_workflow_url(live_trainium, "schedule-unpublish"), {"at": f"{at:%Y-%m-%dT%H:%M}"}
    )
    assert response.status_code == 302
    tag = f"Live, unpublishing {at:%-d %b %Y} 14:00"
    listing = admin_client.get("/admin/vendors/vendor/").content.decode()
    assert f'<td class="field-state">{tag}</td>' in listing
    assert f"Publishing: {tag}</h2>" in admin_client.get(change_url(live_trainium)).content.decode()

    assert admin_client.post(f.admin_workflow_url(live_trainium, "unpublish")).status_code == 302
    listing = admin_client.get("/admin/vendors/vendor/").content.decode()
    assert '<td class="field-state">Unpublished</td>' in listing
    assert '<td class="field-state">Draft</td>' not in listing
    assert "Publishing: Unpublished</h2>" in admin_client.get(change_url(live_trainium)).content.decode()
