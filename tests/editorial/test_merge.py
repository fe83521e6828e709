"""Nobody retypes: two editors' saves of one profile merge unless they change the same field.

Each test opens the change page as two editors, lets one save, then posts the other's form as
their browser would send it back (the revision it was opened at included).
"""

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone
from reversion.models import Version

from editorial.presence import PRESENCE_SECONDS
from editorial.revisions import latest_version_id
from tests import factories as f
from vendors.models import Fact, Vendor


def saved_at(item):
    """The minute of ``item``'s latest saved revision, as the merge's messages word it."""
    latest = Version.objects.get_for_object(item).select_related("revision").first()
    return timezone.localtime(latest.revision.date_created).strftime("%H:%M")


pytestmark = pytest.mark.django_db

change_url = f.admin_change_url


def editor(django_user_model, name):
    user = django_user_model.objects.create_user(name, password="pw", is_staff=True)
    user.groups.add(f.role_group("Editor"))
    client = Client()
    client.force_login(user)
    return client


def open_page(client, vendor):
    """What the editor's browser would send back unchanged, as the page was when opened."""
    response = client.get(change_url(vendor))
    assert response.status_code == 200
    rows, initial = f.admin_rows_on_page(response)
    vendor = Vendor.objects.get(pk=vendor.pk)
    return f.vendor_admin_post(vendor, rows=rows, initial=initial)


def messages_of(response):
    return [str(message) for message in response.context["messages"]]


def fact_row(data, n):
    return {key.split("-", 2)[2]: value for key, value in data.items() if key.startswith(f"facts-{n}-")}


@pytest.fixture
def profile(admin_client):
    """A profile with two facts (Memory, Pricing), saved once through the admin."""
    vendor = f.make_vendor(name="AWS Trainium", summary="Amazon's chip.", verdict="Good value.")
    memory = f.make_attribute(name="Memory", position=1)
    pricing = f.make_attribute(name="Pricing", position=2)
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
    f.make_fact(vendor=vendor, attribute=pricing, value="On demand")
    assert f.admin_post_vendor_page(admin_client, vendor).status_code == 302  # a first revision
    return vendor


@pytest.fixture
def alice(django_user_model):
    return editor(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model):
    return editor(django_user_model, "bob")


def value_of(vendor, attribute):
    return Fact.objects.get(vendor=vendor, attribute__name=attribute).value


def test_edits_to_different_facts_merge_and_the_message_says_who_changed_what(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices["facts-0-value"] = "144 GB HBM3e"
    assert alice.post(change_url(profile), alices).status_code == 302
    at = saved_at(profile)

    bobs["facts-1-value"] = "Savings plans"
    response = bob.post(change_url(profile), bobs, follow=True)

    assert response.redirect_chain, response.context["adminform"].form.errors
    assert f"Merged with alice's save of {at}: they changed Memory, you changed Pricing." in messages_of(
        response
    )
    assert value_of(profile, "Memory") == "144 GB HBM3e"
    assert value_of(profile, "Pricing") == "Savings plans"


def test_edits_to_different_fields_of_the_vendor_merge(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    assert alice.post(change_url(profile), alices | {"summary": "Alice's summary."}).status_code == 302

    response = bob.post(change_url(profile), bobs | {"verdict": "Bob's verdict."}, follow=True)

    assert response.redirect_chain
    assert any("they changed Summary, you changed Verdict" in m for m in messages_of(response))
    profile.refresh_from_db()
    assert (profile.summary, profile.verdict) == ("Alice's summary.", "Bob's verdict.")


def test_a_fact_added_meanwhile_stays_when_the_other_editor_saves(profile, alice, bob):
    bobs = open_page(bob, profile)
    f.admin_post_vendor_page(
        alice,
        profile,
        edit=lambda rows: rows["facts"].append(
            {"attribute": f.make_attribute(name="Software").pk, "value": "Neuron", "sources": []}
        ),
    )
    response = bob.post(change_url(profile), bobs | {"summary": "Bob's summary."}, follow=True)
    assert response.redirect_chain
    assert value_of(profile, "Software") == "Neuron"
    assert Vendor.objects.get(pk=profile.pk).summary == "Bob's summary."


def test_the_same_field_changed_by_both_shows_both_values_and_keeps_yours(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices["facts-0-value"] = "144 GB"
    alices["facts-1-value"] = "Savings plans"
    assert alice.post(change_url(profile), alices).status_code == 302
    at = saved_at(profile)

    bobs["facts-0-value"] = "192 GB"
    response = bob.post(change_url(profile), bobs)

    assert response.status_code == 200
    facts = next(i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == "facts")
    assert facts.forms[0].errors["value"] == [f"Saved by alice at {at}: 144 GB · Yours: 192 GB"]
    (banner,) = response.context["adminform"].form.non_field_errors()
    assert banner.startswith(f"alice saved this at {at}, after you opened it, and you both changed Memory")
    page = response.content.decode()
    assert "Saved by alice at" in page and "Yours: 192 GB" in page
    assert value_of(profile, "Memory") == "144 GB"  # nothing of Bob's is saved yet
    # The form keeps Bob's value, takes Alice's other change, and now carries her revision.
    assert facts.forms[0]["value"].value() == "192 GB"
    assert facts.forms[1]["value"].value() == "Savings plans"

    rows, initial = f.admin_rows_on_page(response)
    again = f.vendor_admin_post(Vendor.objects.get(pk=profile.pk), rows=rows, initial=initial)
    again["opened_revision"] = response.context["adminform"].form["opened_revision"].value()
    response = bob.post(change_url(profile), again, follow=True)

    assert response.redirect_chain, response.context["adminform"].form.errors
    assert value_of(profile, "Memory") == "192 GB"  # Bob's, on purpose
    assert value_of(profile, "Pricing") == "Savings plans"  # Alice's, kept


def test_a_fact_deleted_meanwhile_that_you_left_alone_stays_deleted(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices["facts-0-DELETE"] = "on"
    assert alice.post(change_url(profile), alices).status_code == 302

    response = bob.post(change_url(profile), bobs | {"facts-1-value": "Savings plans"}, follow=True)

    assert response.redirect_chain, response.context["adminform"].form.errors
    assert not Fact.objects.filter(vendor=profile, attribute__name="Memory").exists()
    assert value_of(profile, "Pricing") == "Savings plans"


def test_a_fact_deleted_meanwhile_that_you_edited_comes_back_only_when_you_save_again(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices["facts-0-DELETE"] = "on"
    assert alice.post(change_url(profile), alices).status_code == 302

    response = bob.post(change_url(profile), bobs | {"facts-0-value": "192 GB"})

    assert response.status_code == 200
    assert not Fact.objects.filter(vendor=profile, attribute__name="Memory").exists()
    facts = next(i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == "facts")
    revived = facts.forms[-1]
    assert revived.instance.pk is None and revived["value"].value() == "192 GB"
    assert "deleted · Yours: edited, kept as a new row" in " ".join(revived.non_field_errors())

    rows, initial = f.admin_rows_on_page(response)
    again = f.vendor_admin_post(Vendor.objects.get(pk=profile.pk), rows=rows, initial=initial)
    again["opened_revision"] = response.context["adminform"].form["opened_revision"].value()
    assert bob.post(change_url(profile), again).status_code == 302
    assert value_of(profile, "Memory") == "192 GB"


def test_a_fact_you_deleted_that_was_edited_meanwhile_is_a_conflict(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    assert alice.post(change_url(profile), alices | {"facts-0-value": "144 GB"}).status_code == 302

    response = bob.post(change_url(profile), bobs | {"facts-0-DELETE": "on"})

    assert response.status_code == 200
    assert value_of(profile, "Memory") == "144 GB"
    assert "Yours: deleted" in response.content.decode()


# --- presence -----------------------------------------------------------------------------


def test_opening_a_profile_someone_else_has_open_says_who_and_since_when(profile, alice, bob, monkeypatch):
    opened = timezone.now()  # fixed, so the minute cannot turn between the request and the check
    monkeypatch.setattr("editorial.presence.timezone.now", lambda: opened)
    alice.get(change_url(profile))
    at = timezone.localtime(opened).strftime("%H:%M")

    shown = messages_of(bob.get(change_url(profile)))

    assert f"Also here: alice has this profile open since {at}." in shown


def test_your_own_opening_is_not_announced_to_you(profile, alice, bob):
    alice.get(change_url(profile))
    bob.get(change_url(profile))
    shown = messages_of(alice.get(change_url(profile)))
    assert any("bob has this profile open" in m for m in shown)
    assert not any("alice has" in m for m in shown)


def test_an_opening_older_than_a_few_minutes_is_forgotten(profile, alice, bob, monkeypatch):
    alice.get(change_url(profile))
    later = timezone.now() + timezone.timedelta(seconds=PRESENCE_SECONDS + 1)
    monkeypatch.setattr("editorial.presence.timezone.now", lambda: later)
    assert not any("alice has" in m for m in messages_of(bob.get(change_url(profile))))


def presence_url(profile):
    return f"/admin/vendors/vendor/{profile.pk}/presence/"


def test_an_open_page_keeps_its_editor_present_past_the_window_while_it_beats(
    profile, alice, bob, monkeypatch
):
    start = timezone.now()
    alice.get(change_url(profile))
    for beat in range(1, 5):  # two minutes of heartbeats: well past the window of one opening
        moment = start + timezone.timedelta(seconds=beat * 30)
        monkeypatch.setattr("editorial.presence.timezone.now", lambda moment=moment: moment)
        assert alice.post(presence_url(profile)).status_code == 200
    answer = bob.post(presence_url(profile)).json()
    assert [line.split(" since ")[0] for line in answer["others"]] == [
        "Also here: alice has this profile open"
    ]


def test_a_page_that_closes_says_so_and_nobody_is_told_it_is_still_open(profile, alice, bob):
    alice.get(change_url(profile))
    assert any("alice has" in line for line in bob.post(presence_url(profile)).json()["others"])

    assert alice.post(presence_url(profile), {"leave": "1"}).status_code == 204

    assert not any("alice has" in line for line in bob.post(presence_url(profile)).json()["others"])
    assert not any("alice has" in m for m in messages_of(bob.get(change_url(profile))))


def test_the_heartbeat_is_a_post_by_someone_who_may_see_the_item(profile, alice, client, django_user_model):
    assert alice.get(presence_url(profile)).status_code == 405
    stranger = django_user_model.objects.create_user("stranger", password="pw", is_staff=True)
    client.force_login(stranger)
    assert client.post(presence_url(profile)).status_code == 403


def test_a_comparisons_different_fields_merge(admin_client):
    comparison = f.make_comparison(vendors=[f.make_vendor(), f.make_vendor()], intro="Old intro")

    def opened():
        rows, initial = f.admin_rows_on_page(admin_client.get(change_url(comparison)))
        data = f.comparison_admin_fields(type(comparison).objects.get(pk=comparison.pk))
        for prefix, found in rows.items():
            data.update(f.admin_inline_rows(prefix, found, initial[prefix]))
        return data

    first, second = opened(), opened()
    assert admin_client.post(change_url(comparison), first | {"intro": "New intro"}).status_code == 302
    response = admin_client.post(change_url(comparison), second | {"verdict": "New verdict"})
    assert response.status_code == 302
    comparison.refresh_from_db()
    assert (comparison.intro, comparison.verdict) == ("New intro", "New verdict")


def test_events_scores_and_faqs_merge_row_by_row(profile, alice, bob, admin_client):
    event = f.make_event(vendor=profile, text="Trainium2 ships.")
    score = f.make_score(vendor=profile, value=3, reason="Neuron is young.")
    faq = f.make_faq(vendor=profile, question="What is it?", answer="A chip.")
    assert f.admin_post_vendor_page(admin_client, profile).status_code == 302  # in a revision
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices |= {"events-0-date": "2024-06", "scores-0-value": "4"}
    assert alice.post(change_url(profile), alices).status_code == 302

    bobs |= {"events-0-text": "Trainium2 ships widely.", "faqs-0-answer": "Amazon's chip."}
    response = bob.post(change_url(profile), bobs)

    assert response.status_code == 302, response.context["adminform"].form.errors
    event.refresh_from_db(), score.refresh_from_db(), faq.refresh_from_db()
    assert (event.date.isoformat(), event.precision, event.text) == (
        "2024-06-01",
        event.Precision.MONTH,
        "Trainium2 ships widely.",
    )
    assert (score.value, faq.answer) == (4, "Amazon's chip.")


def merged_save_queries(admin_client, alice, bob, *, facts):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    vendor = f.make_vendor()
    sources = [f.make_source() for _ in range(3)]
    for n in range(facts):
        f.make_fact(vendor=vendor, value=f"Value {n}", sources=sources[n % 3 : n % 3 + 2])
        f.make_event(vendor=vendor, text=f"Event {n}.", sources=sources[:1])
    assert f.admin_post_vendor_page(admin_client, vendor).status_code == 302
    alices, bobs = open_page(alice, vendor), open_page(bob, vendor)
    assert alice.post(change_url(vendor), alices | {"facts-0-value": "Alice's"}).status_code == 302
    with CaptureQueriesContext(connection) as captured:
        response = bob.post(change_url(vendor), bobs | {f"facts-{facts - 1}-value": "Bob's"})
    assert response.status_code == 302
    assert set(vendor.facts.filter(value__endswith="'s").values_list("value", flat=True)) == {
        "Alice's",
        "Bob's",
    }
    return len(captured)


def test_a_merged_save_of_a_long_profile_takes_as_many_queries_as_a_short_one(admin_client, alice, bob):
    short = merged_save_queries(admin_client, alice, bob, facts=3)
    long = merged_save_queries(admin_client, alice, bob, facts=40)
    assert long == short


def test_a_forged_or_pruned_opened_revision_merges_nothing_silently(profile, alice, bob):
    """Without the revision the form was opened at, every difference is shown as a conflict."""
    other = f.make_vendor()
    assert f.admin_post_vendor_page(alice, other).status_code == 302
    bobs = open_page(bob, profile)
    assert (
        alice.post(change_url(profile), open_page(alice, profile) | {"verdict": "Alice's."}).status_code
        == 302
    )
    at = saved_at(profile)
    bobs |= {"summary": "Bob's summary.", "opened_revision": latest_version_id(other)}
    response = bob.post(change_url(profile), bobs)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["verdict"] == [
        f"Saved by alice at {at}: Alice's. · Yours: Good value."
    ]
    assert Vendor.objects.get(pk=profile.pk).summary == "Amazon's chip."


def test_a_comparisons_rows_merge_row_by_row(admin_client):
    a, b = f.make_vendor(name="Trainium"), f.make_vendor(name="TPU")
    comparison = f.make_comparison(vendors=[a, b])
    memory = f.make_criterion(comparison=comparison, name="Memory", position=1)
    f.make_assessment(criterion=memory, vendor=a, value="96 GB")
    f.make_assessment(criterion=memory, vendor=b, value="192 GB")

    def opened():
        rows, initial = f.admin_rows_on_page(admin_client.get(change_url(comparison)))
        data = f.comparison_admin_fields(type(comparison).objects.get(pk=comparison.pk))
        for prefix, found in rows.items():
            data.update(f.admin_inline_rows(prefix, found, initial[prefix]))
        return data

    assert admin_client.post(change_url(comparison), opened()).status_code == 302  # a first revision
    first, second = opened(), opened()
    assert (
        admin_client.post(change_url(comparison), first | {"assessments-0-value": "144 GB"}).status_code
        == 302
    )
    response = admin_client.post(change_url(comparison), second | {"criteria-0-name": "Memory per chip"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    memory.refresh_from_db()
    assert memory.name == "Memory per chip"
    assert sorted(memory.assessments.values_list("value", flat=True)) == ["144 GB", "192 GB"]


# --- the merge works on data ------------------------------------------------------------------


def test_the_merge_takes_data_and_returns_merged_data_and_conflicts(profile, alice):
    """No request and no admin: the revision the form was opened at, what is saved now and
    what was submitted go in; the merged data and the conflicts come out."""
    from urllib.parse import urlencode

    from django.http import QueryDict
    from django.utils.datastructures import MultiValueDict

    from editorial.merge import merge_submission
    from vendors.admin.profile import VendorAdminForm

    opened = latest_version_id(profile)
    posted = f.vendor_admin_post(profile, summary="Bob's summary.", verdict="Bob's verdict.")
    submitted = QueryDict(urlencode(posted, doseq=True))  # as the browser sends it
    f.admin_post_vendor_page(alice, profile, verdict="Alice's verdict.")
    saved = Vendor.objects.get(pk=profile.pk)

    merge = merge_submission(
        obj=saved,
        opened=opened,
        current=latest_version_id(saved),
        submitted=submitted,
        files=MultiValueDict(),
        form_class=VendorAdminForm,
        inline_formsets=[],
    )

    assert merge.data["summary"] == "Bob's summary."  # only Bob changed it
    assert [(c.where, c.theirs, c.yours) for c in merge.conflicts] == [
        ("Verdict", "Alice's verdict.", "Bob's verdict.")
    ]
    assert merge.data["opened_revision"] == str(latest_version_id(saved))
    assert submitted["opened_revision"] == str(opened)  # what was submitted is left as it was


def test_a_merged_save_leaves_the_request_as_the_browser_sent_it(profile, alice, bob):
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    assert alice.post(change_url(profile), alices | {"facts-0-value": "144 GB HBM3e"}).status_code == 302

    response = bob.post(change_url(profile), bobs | {"facts-1-value": "Savings plans"})

    assert response.status_code == 302
    assert value_of(profile, "Memory") == "144 GB HBM3e"  # Alice's, merged in
    posted = response.wsgi_request.POST
    assert posted["facts-0-value"] == "96 GB HBM3"  # Bob's page as he opened it
    assert posted["opened_revision"] == str(bobs["opened_revision"])


def test_edits_to_different_specs_merge_and_the_message_names_each_by_its_chip(
    profile, alice, bob, admin_client
):
    memory = f.make_spec(vendor=profile, chip="Trainium3", kind="memory", quantity=96, unit="GB")
    bandwidth = f.make_spec(vendor=profile, chip="Trainium3", kind="bandwidth", quantity="2.9", unit="TB/s")
    assert f.admin_post_vendor_page(admin_client, profile).status_code == 302  # in a revision
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices["specs-0-quantity"] = "144"
    assert alice.post(change_url(profile), alices).status_code == 302
    at = saved_at(profile)

    bobs["specs-1-quantity"] = "4.9"
    response = bob.post(change_url(profile), bobs, follow=True)

    assert response.redirect_chain, response.context["adminform"].form.errors
    assert (
        f"Merged with alice's save of {at}: they changed Trainium3 — Memory capacity, "
        "you changed Trainium3 — Memory bandwidth." in messages_of(response)
    )
    memory.refresh_from_db(), bandwidth.refresh_from_db()
    assert (memory.quantity, bandwidth.quantity) == (144, Decimal("4.9"))


def test_the_same_spec_number_changed_by_both_is_a_conflict_that_saves_nothing(
    profile, alice, bob, admin_client
):
    spec = f.make_spec(vendor=profile, chip="Trainium3", kind="memory", quantity=96, unit="GB")
    assert f.admin_post_vendor_page(admin_client, profile).status_code == 302
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    alices["specs-0-quantity"] = "144"
    assert alice.post(change_url(profile), alices).status_code == 302
    at = saved_at(profile)

    bobs["specs-0-quantity"] = "192"
    response = bob.post(change_url(profile), bobs)

    assert response.status_code == 200
    specs = next(i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == "specs")
    (message,) = specs.forms[0].errors["quantity"]
    assert message.startswith(f"Saved by alice at {at}: 144") and "Yours: 192" in message
    spec.refresh_from_db()
    assert spec.quantity == 144  # nothing of Bob's is saved yet


# --- what the message names: only rows added, changed or deleted ----------------------------


def test_an_empty_score_row_offered_for_an_unscored_axis_is_not_named_as_added(profile, alice, bob):
    f.make_axis(name="Software", is_active=True)  # the page offers an empty Score row, axis filled in
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    assert bobs["scores-TOTAL_FORMS"] == "1" and bobs["scores-0-axis"]  # the offered row, sent back
    assert alice.post(change_url(profile), alices | {"facts-0-value": "144 GB HBM3e"}).status_code == 302
    at = saved_at(profile)

    response = bob.post(change_url(profile), bobs | {"facts-1-value": "Savings plans"}, follow=True)

    assert response.redirect_chain, response.context["adminform"].form.errors
    merged = [m for m in messages_of(response) if m.startswith("Merged")]
    assert merged == [f"Merged with alice's save of {at}: they changed Memory, you changed Pricing."]
    assert not profile.scores.exists()


def test_a_score_filled_in_on_the_offered_row_is_named_as_added(profile, alice, bob):
    f.make_axis(name="Software", is_active=True)
    alices, bobs = open_page(alice, profile), open_page(bob, profile)
    assert alice.post(change_url(profile), alices | {"facts-0-value": "144 GB HBM3e"}).status_code == 302

    response = bob.post(
        change_url(profile), bobs | {"scores-0-value": "4", "scores-0-reason": "Neuron works."}, follow=True
    )

    assert response.redirect_chain, response.context["adminform"].form.errors
    assert any(m.endswith("they changed Memory, you added Score.") for m in messages_of(response)), (
        messages_of(response)
    )
    assert profile.scores.get().value == 4


def test_a_merge_message_says_what_was_done_to_fields_and_rows_in_plain_words():
    from editorial.merge.result import what_was_done

    assert what_was_done(["Memory", "added Score", "Pricing", "deleted Event 2"]) == (
        "changed Memory and Pricing and added Score and deleted Event 2"
    )
    assert what_was_done(["added Score", "added FAQ"]) == "added Score and FAQ"
    assert what_was_done([]) == ""
