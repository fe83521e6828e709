"""The vendor change page as an editor works it: errors found at once, sections, fast entry."""

import datetime as dt
import re
from html.parser import HTMLParser

import pytest

from tests import factories as f
from tests.factories import admin_change_url as change_url
from tests.factories import admin_rows_on_page as rows_on_page
from vendors.models import Event, Vendor

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/vendors/vendor/add/"


class Page(HTMLParser):
    """What a browser would find on the page: element ids, sections with their marks, and the
    error summary's links ({href: text})."""

    def __init__(self, html):
        super().__init__()
        self.ids, self.marked_sections, self.summary_links = set(), [], {}
        self.inputs = {}  # name: value, for inputs and textareas
        self._summary_depth, self._link, self._textarea = 0, None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        classes = (attrs.get("class") or "").split()
        if "editor-section" in classes and "has-errors" in classes:
            self.marked_sections.append(attrs["id"])
        if self._summary_depth and tag == "div":
            self._summary_depth += 1
        if "error-summary" in classes:
            self._summary_depth = 1
        if tag == "a" and self._summary_depth:
            self._link = attrs["href"]
            self.summary_links[self._link] = ""
        if tag == "input" and attrs.get("name"):
            self.inputs[attrs["name"]] = attrs.get("value", "")
        if tag == "textarea":
            self._textarea = attrs.get("name")
            self.inputs[self._textarea] = ""

    def handle_endtag(self, tag):
        if tag == "a":
            self._link = None
        if tag == "textarea":
            self._textarea = None
        if tag == "div" and self._summary_depth:
            self._summary_depth -= 1

    def handle_data(self, data):
        if self._link:
            self.summary_links[self._link] += data
        if self._textarea:
            self.inputs[self._textarea] += data.lstrip("\n")


def vendor_with_faqs(count):
    vendor = f.make_vendor()
    for n in range(count):
        f.make_faq(vendor=vendor, question=f"Question {n + 1}?", answer=f"Answer {n + 1}.")
    return vendor


def post_page(client, vendor, edit, **fields):
    rows, initial = rows_on_page(client.get(change_url(vendor)))
    edit(rows)
    return client.post(change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial, **fields))


# --- 1. every error at once ---------------------------------------------------------------


def test_an_error_in_the_last_faq_is_listed_with_a_link_to_that_field(admin_client):
    vendor = vendor_with_faqs(3)

    def empty_last_answer(rows):
        rows["faqs"][-1]["answer"] = ""

    response = post_page(admin_client, vendor, empty_last_answer)

    assert response.status_code == 200
    page = Page(response.content.decode())
    assert page.summary_links == {"#id_faqs-2-answer": "FAQ “Question 3?” — Answer: This field is required."}
    assert "id_faqs-2-answer" in page.ids  # the link lands on the field itself
    assert page.marked_sections == ["section-faqs"]
    assert vendor.faqs.get(question="Question 3?").answer == "Answer 3."  # nothing saved


def test_the_summary_names_each_row_by_what_it_is_and_numbers_only_a_row_nothing_names(admin_client):
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), value="96 GB")
    f.make_event(vendor=vendor, text="Trainium2 ships.")
    f.make_score(vendor=vendor, axis=f.make_axis(name="Software"), value=3)

    def four_mistakes(rows):
        rows["facts"][0]["value"] = ""
        rows["events"][0].update(date="2024-06", text="")
        rows["scores"][0]["value"] = "9"
        rows["faqs"].append({"question": "", "answer": "An answer with no question.", "position": ""})

    page = Page(post_page(admin_client, vendor, four_mistakes, **{"faqs-TOTAL_FORMS": "1"}).content.decode())

    summary = list(page.summary_links.values())
    assert summary[:2] == [
        "Memory — Value: This field is required.",
        "Event 2024-06 — Text: This field is required.",
    ]
    assert summary[2].startswith("Score Software — Value: ")
    assert summary[3] == "FAQ 1 — Question: This field is required."


def test_every_error_on_the_page_is_listed_and_the_editors_input_is_kept(admin_client):
    vendor = vendor_with_faqs(2)
    fact = f.make_fact(vendor=vendor, value="96 GB")

    def two_mistakes(rows):
        rows["facts"][0]["value"] = "192 GB, edited"
        rows["faqs"][0]["question"] = "An edited question?"
        rows["faqs"][1]["answer"] = ""

    response = post_page(admin_client, vendor, two_mistakes, name="", summary="A new summary.")

    page = Page(response.content.decode())
    assert list(page.summary_links.values()) == [
        "Name: This field is required.",
        "FAQ “Question 2?” — Answer: This field is required.",
    ]
    assert all(href.removeprefix("#") in page.ids for href in page.summary_links)
    assert page.marked_sections == ["section-profile", "section-faqs"]
    kept = page.inputs
    assert (kept["summary"], kept["facts-0-value"], kept["faqs-0-question"]) == (
        "A new summary.",
        "192 GB, edited",
        "An edited question?",
    )
    fact.refresh_from_db()
    assert fact.value == "96 GB"


def test_an_edit_conflict_heads_the_summary(admin_client):
    vendor = vendor_with_faqs(1)
    stale = f.vendor_admin_post(vendor, summary="My edit.")  # opened before the other save
    f.admin_post_vendor_page(admin_client, vendor, summary="Their edit.")  # someone else saves first
    response = admin_client.post(change_url(vendor), stale)
    entries = response.context["error_summary"]
    assert entries and "you both changed Summary" in entries[0].message


def test_a_page_just_opened_lists_no_errors(admin_client):
    response = admin_client.get(change_url(vendor_with_faqs(1)))
    page = Page(response.content.decode())
    assert page.summary_links == {} and page.marked_sections == []


# --- 2. an event's date at the precision it was typed ------------------------------------


def add_vendor_with_event(client, date):
    event = {"date": date, "text": "Trainium3 announced", "position": ""}
    data = f.vendor_admin_post(f.make_vendor(published=False), rows={"events": [event]})
    return client.post(ADD_URL, {**data, "name": "Groq", "slug": "groq"})


@pytest.mark.parametrize(
    ("typed", "stored", "precision", "shown"),
    [
        ("2024", dt.date(2024, 1, 1), "year", "2024"),
        ("2024-06", dt.date(2024, 6, 1), "month", "Jun 2024"),
        ("2024-06-14", dt.date(2024, 6, 14), "day", "14 Jun 2024"),
        (" 2024-6 ", dt.date(2024, 6, 1), "month", "Jun 2024"),
    ],
)
def test_an_event_date_keeps_the_precision_it_was_typed_at(admin_client, typed, stored, precision, shown):
    response = add_vendor_with_event(admin_client, typed)
    assert response.status_code == 302, response.context and response.context["error_summary"]
    event = Event.objects.get(vendor__slug="groq")
    assert (event.date, event.precision, event.display_date) == (stored, precision, shown)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("2024-13", "“2024-13” has no month 13: months run from 01 to 12."),
        ("2024-02-30", "“2024-02-30”: February 2024 has days 1 to 29, not 30."),
        (
            "June 2024",
            "“June 2024” is not a date: type a year (2024), a month (2024-06) or a day (2024-06-14).",
        ),
        ("24-06", "“24-06” is not a date: type a year (2024), a month (2024-06) or a day (2024-06-14)."),
        ("0000", "There is no year 0000: type a year (2024), a month (2024-06) or a day (2024-06-14)."),
    ],
)
def test_a_date_that_is_not_a_year_month_or_day_is_refused_with_what_to_type(admin_client, typed, message):
    response = add_vendor_with_event(admin_client, typed)
    assert response.status_code == 200
    page = Page(response.content.decode())
    assert page.summary_links == {"#id_events-0-date": f"Event 1 — Date: {message}"}
    assert page.inputs["events-0-date"] == typed  # what was typed stays in the box
    assert not Vendor.objects.filter(slug="groq").exists()


def test_the_change_page_shows_each_date_as_it_was_typed_and_saves_it_unchanged(admin_client):
    vendor = f.make_vendor()
    f.make_event(vendor=vendor, date=dt.date(2025, 1, 1), precision="year", position=1)
    f.make_event(vendor=vendor, date=dt.date(2025, 12, 1), precision="month", position=2)
    f.make_event(vendor=vendor, date=dt.date(2026, 3, 9), precision="day", position=3)
    before = list(vendor.events.values_list("date", "precision"))

    rows, initial = rows_on_page(admin_client.get(change_url(vendor)))
    assert [row["date"] for row in rows["events"]] == ["2025", "2025-12", "2026-03-09"]
    rows["events"][1]["date"] = "2025-11"
    response = admin_client.post(change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial))

    assert response.status_code == 302, response.context and response.context["error_summary"]
    assert list(vendor.events.values_list("date", "precision")) == [
        before[0],
        (dt.date(2025, 11, 1), "month"),
        before[2],
    ]
    rows, _ = rows_on_page(admin_client.get(change_url(vendor)))
    assert [row["date"] for row in rows["events"]] == ["2025", "2025-11", "2026-03-09"]


# --- 3. a new profile starts with the standard attributes ---------------------------------


def test_a_new_vendor_starts_with_one_empty_fact_row_per_attribute_in_their_order(admin_client):
    memory = f.make_attribute(name="Memory", position=3)
    company = f.make_attribute(name="Company", position=1)
    chips = f.make_attribute(name="Current chips", position=2)

    rows, initial = rows_on_page(admin_client.get(ADD_URL))

    assert initial["facts"] == 0
    assert [(row["attribute"], row["value"]) for row in rows["facts"]] == [
        (company.pk, ""),
        (chips.pk, ""),
        (memory.pk, ""),
    ]
    page = admin_client.get(ADD_URL).content.decode()
    assert (
        page.index(">Company</option>")
        < page.index(">Current chips</option>")
        < page.index(">Memory</option>")
    )


def test_rows_left_blank_on_a_new_vendor_are_not_saved_and_the_filled_ones_are(admin_client):
    attributes = [f.make_attribute(position=n) for n in range(4)]
    rows, initial = rows_on_page(admin_client.get(ADD_URL))
    rows["facts"][1]["value"] = "Amazon Web Services"
    rows["facts"][3]["value"] = "144 GB HBM3e"
    data = f.vendor_admin_post(f.make_vendor(published=False), rows=rows, initial=initial)

    response = admin_client.post(ADD_URL, {**data, "name": "AWS Trainium", "slug": "aws-trainium-2"})

    assert response.status_code == 302, response.context and response.context["error_summary"]
    vendor = Vendor.objects.get(slug="aws-trainium-2")
    assert [(fact.attribute, fact.value) for fact in vendor.facts.all()] == [
        (attributes[1], "Amazon Web Services"),
        (attributes[3], "144 GB HBM3e"),
    ]


def test_an_existing_vendor_gets_no_empty_fact_rows(admin_client):
    f.make_attribute()
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor)
    rows, initial = rows_on_page(admin_client.get(change_url(vendor)))
    assert len(rows["facts"]) == initial["facts"] == 1


# --- 4. sections ------------------------------------------------------------------------


def section_menu(html):
    """The section menu's links, in order: [(href, text)]."""
    menu = html[
        html.index('<nav class="section-menu"') : html.index("</nav>", html.index('class="section-menu"'))
    ]
    return [
        (href, " ".join(text.split()))
        for href, text in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', menu, re.S)
    ]


def test_the_change_page_has_a_menu_of_its_sections_each_linking_to_its_place(admin_client):
    vendor = vendor_with_faqs(1)
    html = admin_client.get(change_url(vendor)).content.decode()
    menu = section_menu(re.sub(r"<span[^>]*>|</span>", "", html))
    assert [text for _, text in menu] == [
        "Publishing",
        "Profile",
        "Summary and verdict",
        "At a glance",
        "Chips",
        "Chip availability",
        "Chip prices",
        "Measured results",
        "What changed",
        "Scores",
        "FAQs",
        "This save",
    ]
    assert all(href.removeprefix("#") in Page(html).ids for href, _ in menu)
    assert (
        html.index('id="section-at-a-glance"')
        < html.index('id="section-faqs"')
        < html.index('id="section-this-save"')
    )
    assert html.count('class="save-bar"') == 1


def test_the_menu_says_which_sections_hold_errors(admin_client):
    vendor = vendor_with_faqs(2)

    def empty_answers(rows):
        for row in rows["faqs"]:
            row["answer"] = ""

    html = post_page(admin_client, vendor, empty_answers).content.decode()
    menu = dict(section_menu(re.sub(r"<span[^>]*>|</span>", "", html)))
    assert menu["#section-faqs"] == "FAQs (2 errors)"
    assert menu["#section-profile"] == "Profile"


def test_two_scores_on_one_axis_are_listed_with_links_that_land_on_the_page(admin_client):
    vendor, axis = f.make_vendor(), f.make_axis(name="Performance")

    def score_twice(rows):
        rows["scores"] = [
            {"axis": axis.pk, "value": 3, "reason": "", "sources": []},
            {"axis": axis.pk, "value": 4, "reason": "", "sources": []},
        ]

    response = post_page(admin_client, vendor, score_twice)

    page = Page(response.content.decode())
    assert page.summary_links and all(href.removeprefix("#") in page.ids for href in page.summary_links)
    assert any(text.startswith("Score") and "duplicate" in text for text in page.summary_links.values())
    assert page.marked_sections == ["section-scores"]
    assert not vendor.scores.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, example",
    [
        ("/admin/vendors/vendor/add/", "/vendors/aws-trainium/"),
        ("/admin/comparisons/comparison/add/", "/compare/tpu-vs-trainium/"),
    ],
)
def test_the_slug_help_shows_an_address_an_editor_can_read(admin_client, url, example):
    page = admin_client.get(url).content.decode()
    assert "The last part of its address: " in page and example in page
    assert "/vendors//" not in page and "/compare//" not in page
