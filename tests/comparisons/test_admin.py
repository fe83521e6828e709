"""Comparisons in the admin, driven the way an editor drives it: real GETs and POSTs."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from comparisons.models import Assessment, Comparison, ComparisonFAQ, ComparisonVersion, Criterion
from editorial import selectors
from editorial.revisions import latest_version_id
from tests import factories as f
from tests.factories import admin_inline_rows as inline_rows
from tests.factories import admin_rows_on_page as rows_on_page
from tests.vendors.test_admin_editor import Page

ADD_URL = "/admin/comparisons/comparison/add/"
CHANGELIST_URL = "/admin/comparisons/comparison/"
ADD_INLINES = ["entries", "criteria", "faqs"]
INLINES = ["entries", "criteria", "assessments", "faqs"]
TOO_FEW = "A comparison needs at least 2 vendors."
TOO_MANY = "A comparison can have at most 5 vendors."

pytestmark = pytest.mark.django_db


def change_url(comparison):
    return f"/admin/comparisons/comparison/{comparison.pk}/change/"


def workflow_url(comparison, step):
    """Where the change page's publish, schedule, discard, unpublish, cancel and submit buttons post."""
    return reverse("admin:comparisons_comparison_workflow", args=[comparison.pk, step])


def pks(objects):
    return [obj.pk for obj in objects]


def live_version(comparison):
    """The version visitors read now, or None."""
    return ComparisonVersion.objects.live().filter(item=comparison).first()


# --- building POST payloads ------------------------------------------------------------


def comparison_fields(**overrides):
    """The comparison's own fields as the add form submits them: blank text, no comment."""
    data = {
        "title": "Google TPU vs AWS Trainium vs Nvidia GPU",
        "slug": "google-tpu-vs-aws-trainium-vs-nvidia-gpu",
        "summary": "Three ways to train frontier models.",
        "intro": "",
        "verdict": "",
        "sources": [],
        "verified_on": "",
        "revision_comment": "",
    }
    return data | overrides


def comparison_post(*, inlines=None, initial=None, prefixes=ADD_INLINES, **fields):
    """A whole form: the comparison's fields and its inline formsets (empty unless given)."""
    inlines, initial = inlines or {}, initial or {}
    data = comparison_fields(**fields)
    for prefix in prefixes:
        data.update(inline_rows(prefix, inlines.get(prefix, []), initial.get(prefix, 0)))
    return data


def same_comparison(comparison, **overrides):
    """The change page's own fields for a saved comparison, as they are unless overridden."""
    kept = {name: getattr(comparison, name) for name in ["title", "slug", "summary", "intro", "verdict"]}
    kept["verified_on"] = f"{comparison.verified_on:%Y-%m-%d}" if comparison.verified_on else ""
    kept["sources"] = pks(comparison.sources.all())
    kept["opened_revision"] = latest_version_id(comparison)  # as the page just opened carries it
    return comparison_fields(**(kept | overrides))


def resubmit(client, comparison, edit=None, **fields):
    """GET the change page, let ``edit`` change its inline rows, POST it all back."""
    rows, initial = rows_on_page(client.get(change_url(comparison)))
    if edit:
        edit(rows)
    data = same_comparison(comparison, **fields)
    for prefix in INLINES:
        data.update(inline_rows(prefix, rows[prefix], initial[prefix]))
    return client.post(change_url(comparison), data)


def entry(vendor, position="", pick_if=""):
    return {"vendor": vendor.pk, "position": position, "pick_if": pick_if}


def row_of(comparison, vendor):
    """The key of the comparison's row for ``vendor``, as an assessment's vendor select sends it."""
    return comparison.entries.get(vendor=vendor).pk


def formset(response, prefix):
    return next(i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == prefix)


def errors_of(response):
    return response.context and response.context["errors"]


# --- 1. every page opens ---------------------------------------------------------------


def test_changelist_add_change_and_delete_pages_open(admin_client):
    comparison = f.make_comparison(title="Cerebras vs Groq", vendors=[f.make_vendor(), f.make_vendor()])
    draft = f.make_comparison(title="A draft", published=False)

    changelist = admin_client.get(CHANGELIST_URL)
    assert changelist.status_code == 200
    html = changelist.content.decode()
    assert "Cerebras vs Groq" in html and "A draft" in html
    rows = changelist.context["cl"].result_list
    assert [row.vendor_count for row in rows] == [0, 2]  # by title
    assert [selectors.state(row) for row in rows] == ["Draft", "Live"]  # the state column
    assert '<td class="field-state">Draft</td>' in html and '<td class="field-state">Live</td>' in html
    for query in ["?q=cerebras", "?q=summary", "?state=draft", "?state=review", "?o=4", "?o=-4"]:
        assert admin_client.get(CHANGELIST_URL + query).status_code == 200, query
    searched = admin_client.get(CHANGELIST_URL + "?q=groq").context["cl"].result_list
    assert list(searched) == [comparison]
    assert list(admin_client.get(CHANGELIST_URL + "?state=draft").context["cl"].result_list) == [draft]
    assert list(admin_client.get(CHANGELIST_URL + "?state=live").context["cl"].result_list) == [comparison]

    assert admin_client.get(ADD_URL).status_code == 200
    assert admin_client.get(change_url(comparison)).status_code == 200
    assert admin_client.get(f"{CHANGELIST_URL}{comparison.pk}/delete/").status_code == 200
    assert admin_client.get(f"{CHANGELIST_URL}{comparison.pk}/history/").status_code == 200


def test_add_page_offers_two_vendor_rows_and_no_assessments_yet(admin_client):
    response = admin_client.get(ADD_URL)
    formsets = [i.formset for i in response.context["inline_admin_formsets"]]
    assert [fs.prefix for fs in formsets] == ADD_INLINES
    assert len(formsets[0].forms) == 2


def test_change_page_offers_all_four_inlines(admin_client):
    response = admin_client.get(change_url(f.make_comparison()))
    assert [i.formset.prefix for i in response.context["inline_admin_formsets"]] == INLINES


# --- 2. a whole comparison through the admin -------------------------------------------


def test_a_full_comparison_posted_through_the_admin_is_saved_intact(admin_client):
    tpu, trainium, nvidia = (f.make_vendor(name=n) for n in ["Google TPU", "AWS Trainium", "Nvidia"])
    scale_up, software = f.make_attribute(name="Scale-up"), f.make_axis(name="Software")
    s = [f.make_source() for _ in range(5)]
    entries = [
        entry(trainium, 2, "you already run on AWS"),
        entry(tpu, 1, "you train on Google Cloud"),
        entry(nvidia, "", "you need to run anywhere"),
    ]
    criteria = [
        {"name": "Scale-up domain", "position": "", "attribute": scale_up.pk, "axis": ""},
        {"name": "Software", "position": "", "attribute": "", "axis": software.pk},
        {"name": "Price", "position": "", "attribute": "", "axis": ""},
    ]
    faqs = [
        {"question": "Which is cheapest?", "answer": "It depends.", "sources": pks(s[1:2]), "position": ""},
        {"question": "Which runs PyTorch?", "answer": "All three.", "sources": [], "position": ""},
    ]
    data = comparison_post(
        inlines={"entries": entries, "criteria": criteria, "faqs": faqs},
        intro="**Three** ways.",
        verdict="Pick by cloud.",
        verified_on="2026-10-31",
        sources=pks(s[:1]),
    )

    response = admin_client.post(ADD_URL, data)

    assert response.status_code == 302, errors_of(response)
    comparison = Comparison.objects.get(slug="google-tpu-vs-aws-trainium-vs-nvidia-gpu")
    assert (comparison.intro, comparison.verdict) == ("**Three** ways.", "Pick by cloud.")
    assert comparison.verified_on == dt.date(2026, 10, 31)
    assert selectors.state(comparison) == "Draft" and live_version(comparison) is None
    assert pks(comparison.sources.all()) == [s[0].pk]
    saved_entries = list(comparison.entries.all())
    assert [(e.vendor, e.position, e.pick_if) for e in saved_entries] == [
        (tpu, 1, "you train on Google Cloud"),
        (trainium, 2, "you already run on AWS"),
        (nvidia, 3, "you need to run anywhere"),
    ]
    saved_criteria = list(comparison.criteria.all())
    assert [(c.name, c.position, c.attribute, c.axis) for c in saved_criteria] == [
        ("Scale-up domain", 1, scale_up, None),
        ("Software", 2, None, software),
        ("Price", 3, None, None),
    ]
    saved_faqs = list(comparison.faqs.all())
    assert [(q.question, q.position) for q in saved_faqs] == [
        ("Which is cheapest?", 1),
        ("Which runs PyTorch?", 2),
    ]
    assert [pks(q.sources.all()) for q in saved_faqs] == [[s[1].pk], []]

    # A publisher publishes it as it stands.
    assert admin_client.post(workflow_url(comparison, "publish"), {"note": ""}).status_code == 302
    published = live_version(comparison).document
    assert [e["vendor_id"] for e in published["entries"]] == [tpu.pk, trainium.pk, nvidia.pk]
    assert [c["name"] for c in published["criteria"]] == ["Scale-up domain", "Software", "Price"]

    # Then the assessments, on the change page, against the criteria and vendors just saved.
    price = saved_criteria[2]

    def assess(rows):
        assert rows["assessments"] == []
        for vendor, mark, cited in [(tpu, 4, s[2:3]), (trainium, 5, s[2:4]), (nvidia, 2, [])]:
            rows["assessments"].append(
                {"criterion": price.pk, "entry": row_of(comparison, vendor), "value": f"{vendor} price",
                 "mark": mark, "reason": f"Because {vendor}.", "vendor_stated": "on" if cited else "",
                 "sources": pks(cited)}
            )  # fmt: skip
        rows["assessments"].append(
            {"criterion": saved_criteria[0].pk, "entry": row_of(comparison, nvidia),
             "value": "72 GPUs per NVLink domain", "mark": "", "reason": "", "sources": pks(s[4:])}
        )  # fmt: skip

    response = resubmit(admin_client, comparison, assess)

    assert response.status_code == 302, errors_of(response)
    assessments = Assessment.objects.filter(criterion__comparison=comparison).order_by("pk")
    assert [
        (a.criterion, a.entry.vendor, a.value, a.mark, a.reason, a.vendor_stated) for a in assessments
    ] == [
        (price, tpu, "Google TPU price", 4, "Because Google TPU.", True),
        (price, trainium, "AWS Trainium price", 5, "Because AWS Trainium.", True),
        (price, nvidia, "Nvidia price", 2, "Because Nvidia.", False),
        (saved_criteria[0], nvidia, "72 GPUs per NVLink domain", None, "", False),
    ]
    assert [pks(a.sources.all()) for a in assessments] == [[s[2].pk], [s[2].pk, s[3].pk], [], [s[4].pk]]
    # Saved in the working copy only: the live version has none until a publisher publishes them.
    comparison.refresh_from_db()
    assert selectors.state(comparison) == "Live + unpublished changes"
    assert all(c["assessments"] == [] for c in live_version(comparison).document["criteria"])
    # The rest of the page came back unchanged.
    assert [(e.vendor, e.position, e.pick_if) for e in comparison.entries.all()] == [
        (e.vendor, e.position, e.pick_if) for e in saved_entries
    ]
    assert list(comparison.criteria.all()) == saved_criteria
    assert [pks(q.sources.all()) for q in comparison.faqs.all()] == [[s[1].pk], []]
    assert pks(comparison.sources.all()) == [s[0].pk]

    # And the page shows them back in table order: criterion by criterion, vendors by column.
    shown = formset(admin_client.get(change_url(comparison)), "assessments")
    assert [(form.instance.criterion, form.instance.entry.vendor) for form in shown.forms] == [
        (saved_criteria[0], nvidia),
        (price, tpu),
        (price, trainium),
        (price, nvidia),
    ]


def test_a_comparison_added_in_the_admin_is_a_draft_until_published_now(admin_client, visitor):
    a, b = f.make_vendor(), f.make_vendor()
    data = comparison_post(inlines={"entries": [entry(a), entry(b)]})

    assert admin_client.post(ADD_URL, data).status_code == 302

    comparison = Comparison.objects.get()
    assert [e.position for e in comparison.entries.all()] == [1, 2]
    assert selectors.state(comparison) == "Draft"
    assert visitor.get(comparison.get_absolute_url()).status_code == 404

    before = timezone.now()
    response = admin_client.post(workflow_url(comparison, "publish"), {"note": ""})

    assert response.status_code == 302
    version = live_version(comparison)
    assert version is not None and before <= version.published_at <= timezone.now()
    assert visitor.get(comparison.get_absolute_url()).status_code == 200
    messages = [str(m) for m in admin_client.get(change_url(comparison)).context["messages"]]
    assert "Published: visitors see it now." in messages


def test_a_scheduled_publish_time_is_read_in_the_site_time_zone_and_kept(admin_client, visitor, settings):
    settings.TIME_ZONE = "Europe/Berlin"  # UTC+1 in January
    a, b = f.make_vendor(), f.make_vendor()
    data = comparison_post(inlines={"entries": [entry(a), entry(b)]})
    assert admin_client.post(ADD_URL, data).status_code == 302
    comparison = Comparison.objects.get()

    response = admin_client.post(workflow_url(comparison, "schedule"), {"at": "2030-01-02T09:00", "note": ""})

    assert response.status_code == 302
    version = comparison.versions.get()
    assert version.published_at == dt.datetime(2030, 1, 2, 8, tzinfo=dt.UTC)
    assert live_version(comparison) is None
    assert visitor.get(comparison.get_absolute_url()).status_code == 404
    comparison.refresh_from_db()
    assert selectors.state(comparison) == "Scheduled for 2 Jan 2030 09:00"


def test_saving_a_live_comparison_leaves_the_live_page_until_its_changes_are_published(admin_client, visitor):
    comparison = f.make_comparison(vendors=[f.make_vendor(), f.make_vendor()], summary="The live summary.")

    response = resubmit(admin_client, comparison, summary="An edited summary.")

    assert response.status_code == 302, errors_of(response)
    comparison.refresh_from_db()
    assert comparison.summary == "An edited summary."  # the working copy
    assert selectors.state(comparison) == "Live + unpublished changes"
    page = visitor.get(comparison.get_absolute_url()).content.decode()
    assert "The live summary." in page and "An edited summary." not in page
    change_page = admin_client.get(change_url(comparison))
    assert any("Visitors still see the live version" in str(m) for m in change_page.context["messages"])
    assert "Publishing: Live + unpublished changes" in change_page.content.decode()

    assert admin_client.post(workflow_url(comparison, "publish"), {"note": ""}).status_code == 302

    page = visitor.get(comparison.get_absolute_url()).content.decode()
    assert "An edited summary." in page and "The live summary." not in page
    assert [v.number for v in comparison.versions.all()] == [2, 1]


def test_an_editor_may_submit_a_comparison_for_review_but_only_a_publisher_may_publish_it(client, visitor):
    comparison = f.make_comparison(vendors=[f.make_vendor(), f.make_vendor()], summary="The live summary.")
    client.force_login(f.make_staff_user(group="Editor"))
    assert resubmit(client, comparison, summary="An edited summary.").status_code == 302

    forged = {"at": "2030-01-02T09:00", "note": ""}
    for step in ["publish", "schedule", "discard", "unpublish", "cancel"]:
        assert client.post(workflow_url(comparison, step), forged).status_code == 403, step
    assert [v.number for v in comparison.versions.all()] == [1]
    assert client.post(workflow_url(comparison, "submit")).status_code == 302
    comparison.refresh_from_db()
    assert selectors.state(comparison) == "Waiting for review"
    assert "The live summary." in visitor.get(comparison.get_absolute_url()).content.decode()

    client.force_login(f.make_staff_user(group="Publisher"))
    assert client.post(workflow_url(comparison, "publish"), {"note": ""}).status_code == 302
    comparison.refresh_from_db()
    assert selectors.state(comparison) == "Live"
    assert "An edited summary." in visitor.get(comparison.get_absolute_url()).content.decode()


def test_list_actions_publish_and_unpublish_the_comparisons_picked(admin_client, visitor):
    vendors = [f.make_vendor(), f.make_vendor()]
    drafts = [f.make_comparison(vendors=vendors, published=False) for _ in range(2)]
    untouched = f.make_comparison(vendors=vendors, published=False)

    def act(action, picked):
        data = {"action": action, "_selected_action": pks(picked)}
        return admin_client.post(CHANGELIST_URL, data, follow=True)

    response = act("publish_changes", drafts)

    assert "Published 2 comparisons." in [str(m) for m in response.context["messages"]]
    assert [visitor.get(c.get_absolute_url()).status_code for c in [*drafts, untouched]] == [200, 200, 404]

    response = act("unpublish", drafts)

    assert "Unpublished 2 comparisons." in [str(m) for m in response.context["messages"]]
    assert [visitor.get(c.get_absolute_url()).status_code for c in drafts] == [404, 404]
    assert [live_version(c) for c in drafts] == [None, None]


# --- 3. two to five vendors, each once --------------------------------------------------


@pytest.mark.parametrize(("count", "message"), [(0, TOO_FEW), (1, TOO_FEW), (6, TOO_MANY)])
def test_fewer_than_two_or_more_than_five_vendors_is_a_form_error(admin_client, count, message):
    vendors = [f.make_vendor() for _ in range(count)]
    data = comparison_post(inlines={"entries": [entry(v) for v in vendors]})

    response = admin_client.post(ADD_URL, data)

    assert response.status_code == 200
    assert formset(response, "entries").non_form_errors() == [message]
    assert message in response.content.decode()
    assert not Comparison.objects.exists()


@pytest.mark.parametrize("count", [2, 5])
def test_two_and_five_vendors_are_accepted(admin_client, count):
    vendors = [f.make_vendor() for _ in range(count)]
    response = admin_client.post(ADD_URL, comparison_post(inlines={"entries": [entry(v) for v in vendors]}))
    assert response.status_code == 302, errors_of(response)
    assert [e.vendor for e in Comparison.objects.get().entries.all()] == vendors


def test_removing_vendors_down_to_one_is_refused(admin_client):
    a, b = f.make_vendor(), f.make_vendor()
    comparison = f.make_comparison(vendors=[a, b])

    def remove_one(rows):
        rows["entries"][1]["DELETE"] = "on"

    response = resubmit(admin_client, comparison, remove_one)

    assert response.status_code == 200
    assert formset(response, "entries").non_form_errors() == [TOO_FEW]
    assert [e.vendor for e in comparison.entries.all()] == [a, b]


def test_adding_a_sixth_vendor_on_the_change_page_is_refused(admin_client):
    comparison = f.make_comparison(vendors=[f.make_vendor() for _ in range(5)])

    response = resubmit(admin_client, comparison, lambda rows: rows["entries"].append(entry(f.make_vendor())))

    assert response.status_code == 200
    assert formset(response, "entries").non_form_errors() == [TOO_MANY]
    assert comparison.entries.count() == 5


def test_the_same_vendor_twice_is_a_form_error(admin_client):
    vendor = f.make_vendor()
    response = admin_client.post(
        ADD_URL, comparison_post(inlines={"entries": [entry(vendor), entry(vendor)]})
    )
    assert response.status_code == 200
    assert "Please correct the duplicate data for vendor" in str(
        formset(response, "entries").non_form_errors()
    )
    assert not Comparison.objects.exists()


# --- 4. criteria -----------------------------------------------------------------------


def test_a_criterion_pointing_to_both_an_attribute_and_an_axis_is_a_form_error(admin_client):
    a, b = f.make_vendor(), f.make_vendor()
    both = {"name": "Memory", "position": "", "attribute": f.make_attribute().pk, "axis": f.make_axis().pk}
    data = comparison_post(inlines={"entries": [entry(a), entry(b)], "criteria": [both]})

    response = admin_client.post(ADD_URL, data)

    assert response.status_code == 200
    errors = formset(response, "criteria").forms[0].errors
    assert errors == {
        "axis": ["A criterion shows an attribute's values or an axis's scores, not both: clear one."]
    }
    assert not Comparison.objects.exists()


def test_the_same_criterion_name_twice_is_a_form_error(admin_client):
    a, b = f.make_vendor(), f.make_vendor()
    price = {"name": "Price", "position": "", "attribute": "", "axis": ""}
    data = comparison_post(inlines={"entries": [entry(a), entry(b)], "criteria": [price, price]})
    response = admin_client.post(ADD_URL, data)
    assert response.status_code == 200
    assert "Please correct the duplicate data for name" in str(
        formset(response, "criteria").non_form_errors()
    )


# --- 5. assessments pick from the comparison's own criteria and vendors -----------------


@pytest.fixture
def two_comparisons():
    a, b, other_vendor = f.make_vendor(name="Alpha"), f.make_vendor(name="Beta"), f.make_vendor(name="Other")
    comparison = f.make_comparison(vendors=[b, a])
    speed = f.make_criterion(comparison=comparison, name="Speed", position=1)
    price = f.make_criterion(comparison=comparison, name="Price", position=2)
    elsewhere = f.make_comparison(vendors=[a, other_vendor])
    foreign = f.make_criterion(comparison=elsewhere, name="Foreign")
    return comparison, [speed, price], [b, a], foreign, other_vendor


def test_assessment_choices_are_the_comparisons_own_criteria_and_vendors(admin_client, two_comparisons):
    comparison, criteria, vendors, foreign, other_vendor = two_comparisons
    f.make_assessment(criterion=criteria[0], vendor=vendors[0])

    response = admin_client.get(change_url(comparison))

    assessments = formset(response, "assessments")
    for form in [*assessments.forms, assessments.empty_form]:
        assert list(form.fields["criterion"].queryset) == criteria
        assert [row.vendor for row in form.fields["entry"].queryset] == vendors  # in column order
    html = response.content.decode()
    select = html[html.index('name="assessments-0-criterion"') :].split("</select>")[0]
    assert "Speed" in select and "Price" in select and "Foreign" not in select
    select = html[html.index('name="assessments-0-entry"') :].split("</select>")[0]
    assert "Alpha" in select and "Beta" in select and "Other" not in select


@pytest.mark.parametrize("field", ["criterion", "entry"])
def test_an_assessment_naming_another_comparisons_criterion_or_vendor_is_refused(
    admin_client, two_comparisons, field
):
    comparison, criteria, vendors, foreign, other_vendor = two_comparisons
    row = {"criterion": criteria[0].pk, "entry": row_of(comparison, vendors[0]), "value": "Fast", "mark": "",
           "reason": ""}  # fmt: skip
    # The other comparison's criterion, or its row for a vendor both comparisons hold.
    row[field] = {"criterion": foreign.pk, "entry": row_of(foreign.comparison, vendors[1])}[field]

    response = resubmit(admin_client, comparison, lambda rows: rows["assessments"].append(row))

    assert response.status_code == 200
    errors = formset(response, "assessments").forms[0].errors
    assert "Select a valid choice" in errors[field][0]
    assert not Assessment.objects.exists()


def test_an_assessment_mark_outside_1_to_5_is_a_form_error(admin_client, two_comparisons):
    comparison, criteria, vendors, *_ = two_comparisons
    row = {"criterion": criteria[0].pk, "entry": row_of(comparison, vendors[0]), "value": "", "mark": "6",
           "reason": ""}  # fmt: skip
    response = resubmit(admin_client, comparison, lambda rows: rows["assessments"].append(row))
    assert response.status_code == 200
    assert formset(response, "assessments").forms[0].errors["mark"]


def test_two_assessments_of_one_vendor_on_one_criterion_is_a_form_error(admin_client, two_comparisons):
    comparison, criteria, vendors, *_ = two_comparisons
    row = {"criterion": criteria[0].pk, "entry": row_of(comparison, vendors[0]), "value": "x", "mark": "",
           "reason": ""}  # fmt: skip
    response = resubmit(admin_client, comparison, lambda rows: rows["assessments"].extend([row, dict(row)]))
    assert response.status_code == 200
    assert "duplicate data" in str(formset(response, "assessments").non_form_errors())


def test_deleting_a_criterion_takes_its_assessments_even_when_edited_in_the_same_post(
    admin_client, two_comparisons
):
    comparison, (speed, price), (b, a), *_ = two_comparisons
    f.make_assessment(criterion=speed, vendor=a, value="Fast")
    kept = f.make_assessment(criterion=price, vendor=a, value="Cheap")

    def edit(rows):
        rows["criteria"][0]["DELETE"] = "on"
        for row in rows["assessments"]:
            row["value"] += " (edited)"

    response = resubmit(admin_client, comparison, edit)

    assert response.status_code == 302, errors_of(response)
    assert list(comparison.criteria.all()) == [price]
    assert [(x.pk, x.value) for x in Assessment.objects.all()] == [(kept.pk, "Cheap (edited)")]


def test_removing_a_vendor_takes_its_assessments_and_says_so(admin_client, two_comparisons):
    comparison, (speed, price), (b, a), *_ = two_comparisons
    c = f.make_vendor()
    comparison.entries.create(vendor=c, position=3)
    f.make_assessment(criterion=speed, vendor=a)
    f.make_assessment(criterion=price, vendor=a, sources=[f.make_source()])
    kept = f.make_assessment(criterion=speed, vendor=b)

    def remove_a(rows):
        next(row for row in rows["entries"] if row["vendor"] == a.pk)["DELETE"] = "on"

    response = resubmit(admin_client, comparison, remove_a)

    assert response.status_code == 302, errors_of(response)
    assert [e.vendor for e in comparison.entries.all()] == [b, c]
    assert list(Assessment.objects.all()) == [kept]
    messages = [str(m) for m in admin_client.get(change_url(comparison)).context["messages"]]
    assert "Deleted 2 assessment(s) of the vendors and criteria removed." in messages


# --- 6. sources: autocomplete and "add another", on the page and in its rows -----------


def test_sources_can_be_found_and_added_from_a_comparisons_page(admin_client, two_comparisons):
    comparison, criteria, vendors, *_ = two_comparisons
    f.make_assessment(criterion=criteria[0], vendor=vendors[0])
    comparison.faqs.create(question="Q?", answer="A.")

    html = admin_client.get(change_url(comparison)).content.decode()

    assert 'class="admin-autocomplete"' in html and 'data-ajax--url="/admin/autocomplete/"' in html
    for name in ["sources", "assessments-0-sources", "faqs-0-sources"]:
        assert f'name="{name}"' in html, name
        assert f'id="add_id_{name}"' in html, name
    assert "/admin/claims/source/add/?_to_field=id&amp;_popup=1" in html
    assert 'name="entries-0-vendor"' in html and 'id="add_id_entries-0-vendor"' in html


@pytest.mark.parametrize(
    ("model_name", "field_name", "make", "term"),
    [
        ("comparison", "sources", lambda: f.make_source(title="Trainium3 launch"), "trainium"),
        ("assessment", "sources", lambda: f.make_source(title="Trainium3 launch"), "trainium"),
        ("comparisonfaq", "sources", lambda: f.make_source(title="Trainium3 launch"), "trainium"),
        ("comparisonvendor", "vendor", lambda: f.make_vendor(name="AWS Trainium"), "trainium"),
        ("criterion", "attribute", lambda: f.make_attribute(name="Memory"), "memo"),
    ],
)
def test_autocompletes_answer_for_the_comparison_forms(admin_client, model_name, field_name, make, term):
    wanted = make()
    params = {"app_label": "comparisons", "model_name": model_name, "field_name": field_name, "term": term}

    response = admin_client.get("/admin/autocomplete/", params)

    assert response.status_code == 200
    assert response.json()["results"] == [{"id": str(wanted.pk), "text": str(wanted)}]


def test_an_unchanged_comparison_resubmitted_stays_the_same(admin_client, two_comparisons):
    comparison, criteria, vendors, *_ = two_comparisons
    source = f.make_source()
    comparison.sources.add(source)
    f.make_assessment(criterion=criteria[1], vendor=vendors[1], mark=3, sources=[source])
    comparison.faqs.create(question="Q?", answer="A.", position=1).sources.add(source)
    f.publish(comparison)
    live = live_version(comparison)
    before = (
        list(comparison.entries.values_list("vendor", "position", "pick_if")),
        list(comparison.criteria.values_list("name", "position", "attribute", "axis")),
        list(Assessment.objects.values_list("criterion", "entry__vendor", "mark")),
        list(ComparisonFAQ.objects.values_list("question", "position")),
    )

    response = resubmit(admin_client, comparison)

    assert response.status_code == 302, errors_of(response)
    after = (
        list(comparison.entries.values_list("vendor", "position", "pick_if")),
        list(comparison.criteria.values_list("name", "position", "attribute", "axis")),
        list(Assessment.objects.values_list("criterion", "entry__vendor", "mark")),
        list(ComparisonFAQ.objects.values_list("question", "position")),
    )
    assert after == before
    assert pks(Assessment.objects.get().sources.all()) == [source.pk]
    assert pks(comparison.sources.all()) == [source.pk]
    assert Criterion.objects.filter(comparison=comparison).count() == 2
    comparison.refresh_from_db()
    assert selectors.state(comparison) == "Live"  # nothing new to publish
    assert live_version(comparison) == live


# --- 7. one page in sections: a refused save lists every error with a link to its field ---


def test_a_refused_comparison_lists_each_error_with_a_link_and_marks_its_sections(
    admin_client, two_comparisons
):
    comparison, criteria, vendors, *_ = two_comparisons
    f.make_assessment(criterion=criteria[0], vendor=vendors[0], mark=3)

    def bad_mark(rows):
        rows["assessments"][0]["mark"] = "9"

    response = resubmit(admin_client, comparison, bad_mark, title="")

    assert response.status_code == 200
    page = Page(response.content.decode())
    assert page.summary_links == {
        "#id_title": "Title: This field is required.",
        "#id_assessments-0-mark": "Assessment 1 — Mark: Ensure this value is less than or equal to 5.",
    }
    assert {"id_title", "id_assessments-0-mark"} <= page.ids  # each link has its field
    assert page.marked_sections == ["section-comparison", "section-assessments"]
    assert comparison.assessments.get().mark == 3  # nothing saved
