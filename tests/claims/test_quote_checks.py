"""Quotes checked against their source: each check of a source looks for its citations' quotes in
the page's text (pages served by a local server, as in test_source_checks; nothing from the internet)."""

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from claims import quotes, source_checks
from claims.freshness import is_stale, stale_before
from claims.models import Wording
from claims.quotes import compress_text, decompress_text, find_quote
from claims.services import EvidenceInput, set_evidence
from editorial.revisions import record_revision
from tests import factories as f
from tests.claims.test_source_checks import Site, check, serve
from vendors.models import Fact, FactCitation

PAGE = """<html><head><title>Trainium3</title><script>var hidden = "5 TB/s";</script></head><body>
<h1>AWS Trainium3</h1>
<p>Each chip delivers 2,517&nbsp;MXFP8 <b>TFLOPS</b> &mdash; and 144&nbsp;GB of HBM3e.</p>
<p>It&rsquo;s built on a 3&#8209;nm process.</p>
<p>The &ldquo;Trn3 UltraServer&rdquo; holds 144 chips.</p>
</body></html>"""


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("Each chip delivers 2517 MXFP8 TFLOPS", True),  # thousands separator, tags, spacing
        ("delivers 2,517 mxfp8 tflops - and 144 GB", True),  # case, an em dash as a hyphen
        ('The "Trn3 UltraServer" holds 144 chips', True),  # typographic quotation marks
        ("It’s built on a 3–nm process", True),  # apostrophe, dash and non-breaking hyphen alike
        ("Each chip delivers … 144 GB of HBM3e", True),  # an ellipsis leaves words out
        ("AWS Trainium3 […] Each chip delivers", True),  # so does one in brackets
        ("Each chip delivers [...] 144 GB", True),
        ("Each chip delivers (…) 144 GB of HBM3e", True),
        ("Each chip delivers (...) 144 GB", True),
        ("“Each chip delivers 2,517 MXFP8 TFLOPS”", True),  # pasted in its own quotation marks
        ('"144 GB of HBM3e."', True),
        ("Each chip delivers […] 5 TB/s", False),
        ("Each chip delivers 2,517 FP8 TFLOPS", False),
        ("5 TB/s", False),  # a script is not what a reader sees
    ],
)
def test_a_quote_is_found_in_the_pages_visible_text_normalised(quote, found):
    text = source_checks.read_page(PAGE.encode(), content_type="text/html")[1]

    assert find_quote(quote, text).found is found


def test_the_passage_around_a_found_quote_is_the_pages_own_words():
    text = source_checks.read_page(PAGE.encode(), content_type="text/html")[1]

    found = find_quote("2517 mxfp8 tflops", text, context=20)

    assert (found.before, found.match, found.after) == (
        "…Each chip delivers",
        "2,517 MXFP8 TFLOPS",
        "— and 144 GB of…",
    )


@pytest.fixture
def site(settings):
    settings.SOURCE_CHECK_ALLOW_PRIVATE = True
    yield from serve(Site())


def cite(fact, source, *, quote, wording=Wording.QUOTE):
    FactCitation.objects.filter(cited=fact, source=source).update(quote=quote, wording=wording)
    return FactCitation.objects.get(cited=fact, source=source)


def stale_by_both_rules(fact):
    """Whether ``fact`` is stale in the queue (the database's rule) and by is_stale, given the
    problem moments of its sources and its citations' quotes."""
    fact = Fact.objects.get(pk=fact.pk)
    citations = FactCitation.objects.filter(cited=fact).select_related("source")
    problems = [moment for c in citations for moment in (c.source.problem_at, c.quote_missing_at)]
    python = is_stale(
        verified_on=fact.verified_on, verified_at=fact.verified_at, problems=problems, cutoff=stale_before()
    )
    return Fact.objects.stale().filter(pk=fact.pk).exists(), python


@pytest.mark.django_db
def test_a_check_finds_one_quote_misses_another_and_stales_only_the_row_whose_quote_went(site, monkeypatch):
    moved = []
    monkeypatch.setattr(source_checks, "_problem_moved_handlers", [lambda sources: moved.append(sources)])
    site.pages["/trn3"] = (200, PAGE, {})
    source = f.make_source(url=site.url("/trn3"))
    vendor = f.make_vendor()
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    on_page, gone, summary = (
        f.make_fact(vendor=vendor, sources=[source], verified_on=yesterday) for _ in "abc"
    )
    cite(on_page, source, quote="2,517 MXFP8 TFLOPS")
    cite(gone, source, quote="up to 5 TB/s of bandwidth")
    cite(summary, source, quote="Our words, not the page's.", wording=Wording.SUMMARY)
    out = StringIO()

    call_command("check_sources", stdout=out)

    source.refresh_from_db()
    found, missing, summarised = (FactCitation.objects.get(cited=fact) for fact in (on_page, gone, summary))
    assert (found.quote_found, found.quote_checked_at, found.quote_missing_at) == (
        True,
        source.checked_at,
        None,
    )
    assert (missing.quote_found, missing.quote_missing_at) == (False, source.checked_at)
    assert (summarised.quote_found, summarised.quote_checked_at) == (None, None)
    assert "144 GB of HBM3e" in decompress_text(source.page_text) and source.page_text_at == source.checked_at
    assert "quotes: 1 found, 1 not found" in out.getvalue().splitlines()[0]
    assert (
        out.getvalue()
        .rstrip()
        .endswith("quotes: 1 found, 1 not found (1 newly, putting what cites them into the queue).")
    )
    assert moved == [[source.pk]]  # the published pages citing it follow without a publish
    assert [stale_by_both_rules(fact) for fact in (on_page, gone, summary)] == [
        (False, False),
        (True, True),
        (False, False),
    ]
    admin = Client()
    admin.force_login(f.make_superuser())
    queue = admin.get("/admin/vendors/stalefact/").content.decode()
    assert "the source no longer says: “up to 5 TB/s of bandwidth”" in queue

    # Checked again unchanged: still not found, but nothing new for the queue.
    again = StringIO()
    call_command("check_sources", stdout=again)
    assert (
        again.getvalue().rstrip().endswith("1 not found (0 newly, putting what cites them into the queue).")
    )
    moved.clear()

    # The page comes to say it: the next check finds it, and the row is no longer stale.
    site.pages["/trn3"] = (200, PAGE.replace("</body>", "<p>Up to 5 TB/s of bandwidth.</p></body>"), {})
    check(source)

    missing.refresh_from_db()
    assert (missing.quote_found, missing.quote_missing_at) == (True, None)
    assert stale_by_both_rules(gone) == (False, False)
    assert "5 TB/s" not in decompress_text(source.previous_page_text)  # the text before, kept
    assert moved == [[source.pk]]


@pytest.mark.django_db
def test_a_failed_check_leaves_the_quote_results_as_they_were(site):
    site.pages["/trn3"] = (200, PAGE, {})
    source = f.make_source(url=site.url("/trn3"))
    fact = f.make_fact(vendor=f.make_vendor(), sources=[source])
    cite(fact, source, quote="144 GB of HBM3e")
    check(source)
    before = FactCitation.objects.get(cited=fact)

    del site.pages["/trn3"]
    check(source)
    check(source)

    after = FactCitation.objects.get(cited=fact)
    assert source.problem == "returned 404"
    assert (after.quote_found, after.quote_checked_at, after.quote_missing_at) == (
        True,
        before.quote_checked_at,
        None,
    )
    assert decompress_text(source.page_text)  # the last text read is kept


@pytest.mark.django_db
def test_a_quote_typed_in_the_admin_is_checked_at_once_against_the_text_already_read():
    editor = Client()
    editor.force_login(f.make_staff_user(group="Editor"))
    text = source_checks.read_page(PAGE.encode(), content_type="text/html")[1]
    source = f.make_source(
        title="Trainium3 guide", page_text=compress_text(text), page_text_at=timezone.now()
    )
    vendor = f.make_vendor(published=False)
    on_page, not_on_page = (f.make_fact(vendor=vendor, sources=[source]) for _ in "ab")
    record_revision(vendor, comment="Set up.")

    def type_quotes(rows):
        for row, quote in zip(
            rows["facts"], ["It’s built on a 3-nm process.", "Built on 2 nm."], strict=True
        ):
            row["evidence-quote"] = [quote]

    response = f.admin_post_vendor_page(editor, vendor, edit=type_quotes)

    assert response.status_code == 302
    found, missing = (FactCitation.objects.get(cited=fact) for fact in (on_page, not_on_page))
    assert found.quote_found is True and found.quote_checked_at is not None
    assert missing.quote_found is False and missing.quote_missing_at == missing.quote_checked_at
    page = editor.get(f.admin_change_url(vendor)).content.decode()
    assert "Not found on the source at its last check" in page and "Found on the source (" in page

    # The editor says the second one is our summary: no longer a quote to check.
    def summarise(rows):
        rows["facts"][1][f"evidence-wording-{source.pk}"] = ["summary"]

    f.admin_post_vendor_page(editor, vendor, edit=summarise)

    missing.refresh_from_db()
    assert (missing.wording, missing.quote_found, missing.quote_missing_at) == ("summary", None, None)


@pytest.mark.django_db
def test_the_source_page_shows_the_passage_of_a_found_quote_and_the_earlier_words_of_a_lost_one(
    admin_client,
):
    before = "Trainium3 offers <b>4.9 TB/s</b> of memory bandwidth."
    now = "Trainium3 offers 144 GB of HBM3e."
    source = f.make_source(page_text=compress_text(now), previous_page_text=compress_text(before))
    vendor = f.make_vendor()
    fine = f.make_source()
    kept, lost = (f.make_fact(vendor=vendor, sources=[source, fine]) for _ in "ab")
    moment = timezone.now()
    FactCitation.objects.filter(cited=kept, source=source).update(
        quote="144 GB", quote_found=True, quote_checked_at=moment
    )
    FactCitation.objects.filter(cited=lost, source=source).update(
        quote="4.9 TB/s", quote_found=False, quote_checked_at=moment, quote_missing_at=moment
    )

    page = admin_client.get(f"/admin/claims/source/{source.pk}/change/").content.decode()

    assert "On the page: Trainium3 offers <mark>144 GB</mark> of HBM3e." in page
    listed = admin_client.get("/admin/claims/source/?check=quotes").content.decode()
    assert f"/admin/claims/source/{source.pk}/change/" in listed
    assert f"/admin/claims/source/{fine.pk}/change/" not in listed
    # The page's words are escaped, never markup.
    assert "Before: Trainium3 offers &lt;b&gt; <mark>4.9 TB/s</mark> &lt;/b&gt; of memory bandwidth." in page


@pytest.mark.django_db
def test_a_reworded_quote_not_on_the_page_is_a_new_problem_after_the_last_verification():
    text = source_checks.read_page(PAGE.encode(), content_type="text/html")[1]
    source = f.make_source(page_text=compress_text(text), page_text_at=timezone.now())
    now = timezone.now()
    first_missed, verified = now - dt.timedelta(hours=2), now - dt.timedelta(hours=1)
    fact = f.make_fact(
        vendor=f.make_vendor(), sources=[source], verified_on=timezone.localdate(), verified_at=verified
    )
    FactCitation.objects.filter(cited=fact).update(
        quote="Up to 5 TB/s", quote_found=False, quote_checked_at=first_missed, quote_missing_at=first_missed
    )
    assert stale_by_both_rules(fact) == (False, False)  # re-verified after the miss

    set_evidence(row=fact, evidence={source.pk: EvidenceInput(quote="Up to 6 TB/s")})

    citation = FactCitation.objects.get(cited=fact)
    assert citation.quote_found is False and citation.quote_missing_at > verified
    assert citation.quote_missing_at == citation.quote_checked_at
    assert stale_by_both_rules(fact) == (True, True)  # its current words were never found


@pytest.mark.django_db
@pytest.mark.parametrize("limit", ["bytes", "text"])
def test_a_quote_past_where_a_page_was_cut_is_not_checked_while_one_before_it_is_found(
    site, monkeypatch, limit
):
    if limit == "bytes":
        monkeypatch.setattr(source_checks, "MAX_BYTES", 1_000)
    else:
        monkeypatch.setattr(quotes, "PAGE_TEXT_MAX", 1_000)
    filler = "<p>Filler words about something else.</p>" * 20_000
    site.pages["/long"] = (200, f"<p>Trainium3 offers 144 GB.</p>{filler}<p>Up to 5 TB/s.</p>", {})
    source = f.make_source(url=site.url("/long"))
    early, late = (f.make_fact(vendor=f.make_vendor(), sources=[source]) for _ in "ab")
    cite(early, source, quote="Trainium3 offers 144 GB")
    cite(late, source, quote="Up to 5 TB/s")

    outcome = check(source)

    found, unchecked = (FactCitation.objects.get(cited=fact) for fact in (early, late))
    assert (found.quote_found, found.quote_checked_at) == (True, source.checked_at)
    assert [getattr(unchecked, name) for name in quotes.QUOTE_FIELDS] == [None, None, None]
    assert (outcome.quotes_found, outcome.quotes_missing) == (1, 0)
    assert outcome.fetched.truncated is True
