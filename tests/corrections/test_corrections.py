"""Suggest a correction: a reader's form against spam and floods, and the editors' queue."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from corrections.models import Correction
from editorial import services
from tests import factories as f
from tests.vendors.test_lists import count_queries
from vendors.demo import load_demo

pytestmark = pytest.mark.django_db

SOURCE = "https://example.org/spec-sheet"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()  # the per-address counts live in the cache
    yield
    cache.clear()


@pytest.fixture
def vendor():
    memory = f.make_attribute(name="Memory")
    vendor = f.make_vendor(name="Fixable Chip", slug="fixable-chip", published=False)
    fact = f.make_fact(vendor=vendor, attribute=memory, value="96 GB")
    f.publish(vendor)
    vendor.fact = fact
    return vendor


def form_url(vendor):
    return reverse("corrections:vendor", kwargs={"slug": vendor.slug})


def send(client, vendor, **fields):
    data = {
        "part": f"fact-{vendor.fact.pk}",
        "problem": "The spec sheet says 144 GB, not 96 GB.",
        "source_url": SOURCE,
        "email": "",
        "website": "",
        **fields,
    }
    return client.post(form_url(vendor), data, REMOTE_ADDR=fields.pop("ip", "203.0.113.7"))


def test_the_profile_links_to_its_correction_form(client, vendor):
    page = client.get(vendor.get_absolute_url()).content.decode()

    assert f'href="{form_url(vendor)}">Suggest a correction</a>' in page


def test_a_reader_sends_a_correction_and_is_thanked(client, vendor):
    response = send(client, vendor, email="reader@example.org")

    assert response.status_code == 302 and response["Location"] == f"{form_url(vendor)}?sent"
    (correction,) = Correction.objects.all()
    assert correction.vendor == vendor and correction.fact == vendor.fact
    assert correction.part == "Memory: 96 GB"
    assert correction.source_url == SOURCE and correction.email == "reader@example.org"
    assert correction.status == Correction.Status.NEW
    thanks = client.get(response["Location"]).content.decode()
    assert "the editors have your correction" in thanks


def test_the_form_offers_every_part_of_the_live_page_and_can_start_on_one(client, vendor):
    f.make_faq(vendor=vendor, question="Is it fast?")
    services.refresh_state(obj=vendor)
    f.publish(vendor)

    html = client.get(form_url(vendor), {"part": f"fact-{vendor.fact.pk}"}).content.decode()

    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', html)
    assert [label for _, _, label in options] == [
        "Choose…",
        "Memory: 96 GB",
        "Question: Is it fast?",
        "Something else on the page",
    ]
    assert [value for value, selected, _ in options if selected] == [f"fact-{vendor.fact.pk}"]
    assert '<meta name="robots" content="noindex, follow">' in html


def test_a_bad_correction_lists_each_error_linked_to_its_field_and_keeps_the_input(client, vendor):
    response = send(client, vendor, problem="wrong", source_url="javascript:alert(1)")
    html = response.content.decode()

    assert response.status_code == 200
    summary = re.search(r'<div class="notice errors" role="alert">(.*?)</div>', html, re.S).group(1)
    links = re.findall(r'<a href="#([^"]+)">', summary)
    assert links == ["id_problem", "id_source_url"]
    for field_id in links:
        assert f'id="{field_id}"' in html
    # Django's widgets name the help and the error; the page has both ids.
    assert 'aria-invalid="true"' in html and 'aria-describedby="id_problem_helptext id_problem_error"' in html
    assert 'id="id_problem_helptext"' in html and 'id="id_problem_error"' in html
    assert ">\nwrong</textarea>" in html and 'value="javascript:alert(1)"' in html
    assert not Correction.objects.exists()


def test_a_filled_honeypot_is_answered_as_sent_and_stores_nothing(client, vendor):
    response = send(client, vendor, website="http://spam.example")

    assert response.status_code == 302 and response["Location"].endswith("?sent")
    assert not Correction.objects.exists()


def test_a_flood_from_one_address_is_refused_with_retry_after_and_the_input_kept(client, vendor):
    for _ in range(5):
        assert send(client, vendor).status_code == 302

    refused = send(client, vendor, problem="A sixth correction, sent too soon.")

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    html = refused.content.decode()
    assert "sent 5 corrections in the last hour" in html
    assert "A sixth correction, sent too soon." in html
    assert Correction.objects.count() == 5
    # Another address is not held back.
    assert send(Client(), vendor, ip="198.51.100.9").status_code == 302


def test_a_correction_past_the_size_limit_is_refused(client, vendor):
    too_long = send(client, vendor, problem="x" * 2001)
    assert too_long.status_code == 200 and "at most 2000 characters" in too_long.content.decode()

    huge = send(client, vendor, problem="x" * 70_000)
    assert huge.status_code == 413
    assert not Correction.objects.exists()


def test_a_correction_without_the_csrf_token_is_refused(vendor):
    client = Client(enforce_csrf_checks=True)

    assert send(client, vendor).status_code == 403
    assert not Correction.objects.exists()


def test_drafts_have_no_correction_form(client):
    draft = f.make_vendor(slug="draft-chip", published=False)

    assert client.get(reverse("corrections:vendor", kwargs={"slug": draft.slug})).status_code == 404


def test_a_comparison_takes_corrections_too(client, vendor):
    comparison = f.make_comparison(title="Fixable vs Other", vendors=[vendor, f.make_vendor()])
    url = reverse("corrections:comparison", kwargs={"slug": comparison.slug})
    assert (
        f'href="{url}">Suggest a correction</a>' in client.get(comparison.get_absolute_url()).content.decode()
    )

    response = client.post(
        url, {"part": "other", "problem": "The summary names the wrong lane.", "source_url": SOURCE}
    )

    assert response.status_code == 302
    (correction,) = Correction.objects.all()
    assert correction.comparison == comparison and correction.part == "Something else on the page"


@pytest.mark.parametrize("extra_vendors", [0, 30])
def test_the_correction_form_takes_a_fixed_number_of_queries(client, vendor, extra_vendors):
    f.make_published_vendors(extra_vendors, lanes=[vendor.lane]) if extra_vendors else None

    assert count_queries(client, form_url(vendor)) == 1


# --- The editors' queue ----------------------------------------------------------------------


@pytest.fixture
def editor_client(client):
    client.force_login(f.make_staff_user(group="Editor"))
    return client


def queue_url():
    return reverse("admin:corrections_correction_changelist")


def test_the_queue_opens_on_new_corrections_and_shows_the_rest_on_request(editor_client, vendor):
    send(Client(), vendor)
    send(Client(), vendor, problem="Another correction, already decided.", ip="198.51.100.1")
    decided = Correction.objects.latest("pk")
    decided.status, decided.handled_at = Correction.Status.REJECTED, decided.created_at
    decided.save()

    assert editor_client.get(queue_url()).context["cl"].result_count == 1
    assert editor_client.get(queue_url(), {"status": "rejected"}).context["cl"].result_count == 1
    assert editor_client.get(queue_url(), {"status": "all"}).context["cl"].result_count == 2
    assert editor_client.get(queue_url(), {"status": "bogus"}).context["cl"].result_count == 0


def test_an_editor_accepts_a_correction_and_lands_on_the_page_to_edit(editor_client, vendor):
    send(Client(), vendor)
    correction = Correction.objects.get()
    change = reverse("admin:corrections_correction_change", args=[correction.pk])
    page = editor_client.get(change).content.decode()
    assert 'name="_accept"' in page and 'name="_add' not in page

    response = editor_client.post(change, {"editor_note": "Checked the spec sheet.", "_accept": "1"})

    assert response.status_code == 302
    edit_page = reverse("admin:vendors_vendor_change", args=[vendor.pk])
    assert response["Location"] == f"{edit_page}#fact-{vendor.fact.pk}"
    assert f'id="fact-{vendor.fact.pk}"' in editor_client.get(edit_page).content.decode()
    correction.refresh_from_db()
    assert correction.status == Correction.Status.ACCEPTED
    assert correction.handled_by.groups.filter(name="Editor").exists() and correction.handled_at
    assert correction.editor_note == "Checked the spec sheet."


def test_an_editor_rejects_a_correction_once_and_a_second_decision_is_refused(editor_client, vendor):
    send(Client(), vendor)
    correction = Correction.objects.get()
    change = reverse("admin:corrections_correction_change", args=[correction.pk])
    stale_form = {"editor_note": "", "_accept": "1"}

    assert (
        editor_client.post(change, {"editor_note": "Source is a forum post.", "_reject": "1"}).status_code
        == 302
    )
    refused = editor_client.post(change, stale_form, follow=True)

    correction.refresh_from_db()
    assert correction.status == Correction.Status.REJECTED
    assert "already rejected it" in refused.content.decode()
    assert 'name="_accept"' not in editor_client.get(change).content.decode()


@pytest.mark.parametrize("button", ["_accept", "_reject"])
@pytest.mark.parametrize("note", ["", "   "])
def test_a_decision_without_a_note_is_refused_beside_the_note_and_changes_nothing(
    editor_client, vendor, button, note
):
    send(Client(), vendor)
    correction = Correction.objects.get()
    change = reverse("admin:corrections_correction_change", args=[correction.pk])

    response = editor_client.post(change, {"editor_note": note, button: "1"})

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["editor_note"] == [
        "Write why in the note: it is kept with the decision, for the other editors."
    ]
    correction.refresh_from_db()
    assert (correction.status, correction.handled_by, correction.editor_note) == (
        Correction.Status.NEW,
        None,
        "",
    )


def test_a_note_saved_without_deciding_needs_no_text(editor_client, vendor):
    send(Client(), vendor)
    correction = Correction.objects.get()
    change = reverse("admin:corrections_correction_change", args=[correction.pk])
    assert editor_client.post(change, {"editor_note": "", "_continue": "1"}).status_code == 302
    correction.refresh_from_db()
    assert correction.status == Correction.Status.NEW


def test_nobody_adds_a_correction_in_the_admin(editor_client):
    assert editor_client.get(reverse("admin:corrections_correction_add")).status_code == 403


def test_the_demo_loads_the_reference_profiles_contradictions_as_open_corrections():
    load_demo()
    load_demo()  # twice: nothing doubles

    open_corrections = Correction.objects.open()
    assert open_corrections.count() == 10
    assert {c.vendor.slug for c in open_corrections} == {"aws-trainium"}
    memory = open_corrections.filter(part__startswith="Memory: ").first()
    assert memory.fact is not None and memory.fact.attribute.name == "Memory"
    assert "4.7 TB/s" in memory.problem


def test_the_admin_home_counts_open_corrections_for_editors(editor_client, vendor):
    send(Client(), vendor)
    send(Client(), vendor, ip="198.51.100.1")

    home = editor_client.get(reverse("admin:index")).content.decode()

    assert f'<a href="{queue_url()}">2 corrections from readers</a>' in home
