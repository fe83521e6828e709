"""Help for writing accessible pages (issue 25, part 4): warnings on save that never block."""

import html as markup
import re

import pytest

from claims.authoring import markdown_warnings, source_url_warnings
from claims.models import Source
from tests import factories as f
from tests.factories import admin_change_url as change_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text",
    [
        "Read the spec [here](https://example.org/spec).",
        "For pricing, [Click here!](https://example.org/pricing)",
        "[read more](https://example.org)",
    ],
)
def test_a_link_that_reads_here_or_click_here_is_warned_about(text):
    (warning,) = markdown_warnings(text)
    assert "a link reads “" in warning and "Name where it goes" in warning


def test_a_link_named_by_where_it_goes_is_fine():
    assert markdown_warnings("See [AWS's Trainium3 announcement](https://example.org/a) here.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("### Pricing\n\n#### Per hour\n\nText.", []),
        ("### Pricing\n\nText.\n\n### Access\n\nText.", []),
        ("#### Per hour\n\nText.", ["a heading skips from level 2 to level 4"]),
        ("## Pricing\n\nText.", ["a heading starts with ##: "]),
        ("### A\n\n##### B", ["a heading starts with #####: "]),
        ("Plain text, no heading.", []),
    ],
)
def test_headings_that_skip_a_level_or_cannot_be_shown_are_warned_about(text, expected):
    found = markdown_warnings(text)
    assert len(found) == len(expected)
    for warning, start in zip(found, expected, strict=True):
        assert warning.startswith(start)


def test_a_source_on_plain_http_is_warned_about_and_https_is_not():
    assert source_url_warnings("http://example.org/spec")[0].startswith("the address starts with http://")
    assert source_url_warnings("https://example.org/spec") == []


def warnings_on(html):
    """The warning summary's entries: {href: text}."""
    block = re.search(r'<div class="warning-summary".*?</div>', html, re.S)
    if block is None:
        return {}
    return {
        href: markup.unescape(re.sub(r"\s+", " ", text).strip())
        for href, text in re.findall(r'<a href="([^"]+)">(.*?)</a>', block.group(0), re.S)
    }


def test_a_save_with_vague_link_text_goes_through_and_the_page_lists_the_warning_linked_to_its_field(
    admin_client,
):
    vendor = f.make_vendor(name="AWS Trainium", summary="An intro.")
    summary = "AWS sells it by the hour: see [click here](https://example.org/pricing)."

    response = f.admin_post_vendor_page(admin_client, vendor, summary=summary, _continue="1")

    assert response.status_code == 302  # saved: a warning never blocks
    vendor.refresh_from_db()
    assert vendor.summary == summary
    page = admin_client.get(response.url, follow=True)
    assert "Saved with 1 accessibility warning" in page.content.decode()
    found = warnings_on(page.content.decode())
    assert list(found) == ["#id_summary"]
    assert found["#id_summary"].startswith("Summary: a link reads “click here”")

    # Saved again with the warning left as it is: the text stays as typed.
    again = f.admin_post_vendor_page(admin_client, vendor, _continue="1")
    assert again.status_code == 302
    vendor.refresh_from_db()
    assert vendor.summary == summary


def test_a_refused_save_lists_its_warnings_beside_its_errors_and_keeps_what_was_typed(admin_client):
    vendor = f.make_vendor(name="AWS Trainium")
    verdict = "#### Verdict\n\nGood value."

    response = f.admin_post_vendor_page(admin_client, vendor, company="", verdict=verdict)

    assert response.status_code == 200
    html = response.content.decode()
    assert "Nothing was saved: 1 error to correct." in html
    assert warnings_on(html) == {
        "#id_verdict": "Verdict: a heading skips from level 2 to level 4: screen reader users move by "
        "headings, and a skipped level reads as a missing section. Use ###."
    }
    assert response.context["adminform"].form["verdict"].value() == verdict


def test_a_row_citing_a_source_on_http_is_warned_about_at_its_sources_field(admin_client):
    vendor = f.make_vendor(name="AWS Trainium")
    plain = f.make_source(url="http://example.org/old-spec")
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), sources=[plain])
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Pricing"), sources=[f.make_source()])

    found = warnings_on(admin_client.get(change_url(vendor)).content.decode())

    assert list(found) == ["#id_facts-0-sources"]
    assert found["#id_facts-0-sources"].startswith(
        "Memory — Sources: http://example.org/old-spec: the address starts with http://"
    )


def test_a_logo_without_a_text_alternative_is_warned_about_and_pages_read_it_by_the_vendors_name(
    admin_client,
):
    vendor = f.make_vendor(name="AWS Trainium", logo="logos/trainium.png")

    found = warnings_on(admin_client.get(change_url(vendor)).content.decode())
    assert found == {
        "#id_logo_alt": "Logo: it has no text alternative of its own: pages read it as “AWS Trainium "
        "logo”. If the logo shows more than the name (a slogan, another company), write what it shows "
        "in “Logo's text alternative”."
    }

    vendor.logo_alt = "AWS Trainium, Amazon Web Services"
    vendor.save()
    assert warnings_on(admin_client.get(change_url(vendor)).content.decode()) == {}


def test_a_page_whose_text_has_nothing_to_check_shows_no_warnings(admin_client):
    vendor = f.make_vendor(name="AWS Trainium", summary="See [the Neuron SDK docs](https://example.org).")
    assert "warning-summary" not in admin_client.get(change_url(vendor)).content.decode()


def test_the_profile_reads_the_logo_by_its_text_alternative_or_else_by_the_vendors_name(client):
    named = f.make_vendor(
        name="AWS Trainium", slug="aws-trainium", logo="logos/a.png", logo_alt="Trainium, by AWS"
    )
    plain = f.make_vendor(name="Groq", slug="groq", logo="logos/b.png")

    assert 'alt="Trainium, by AWS"' in client.get(named.get_absolute_url()).content.decode()
    assert 'alt="Groq logo"' in client.get(plain.get_absolute_url()).content.decode()


def test_a_source_saved_on_http_is_kept_and_warned_about(admin_client):
    response = admin_client.post(
        "/admin/claims/source/add/",
        {
            "title": "Old spec",
            "publisher": "",
            "url": "http://example.org/old-spec",
            "accessed_on": "",
            "notes": "",
        },
        follow=True,
    )

    assert [str(m) for m in response.context["messages"] if m.level_tag == "warning"] == [
        "URL: the address starts with http://: readers' browsers mark it “Not secure”. "
        "Use its https:// address if the site has one."
    ]
    assert Source.objects.get().url == "http://example.org/old-spec"
