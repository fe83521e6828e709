"""A citation pasted into a reference manager: our BibTeX and CSL-JSON read by the parsers
reference managers are built on (bibtexparser; citeproc-py, a CSL processor), not by our own code."""

import pytest
from bibtexparser import parse_string
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
from citeproc.source.json import CiteProcJSON

from tests.comparisons.test_versions import comparison  # noqa: F401 - a fixture
from tests.vendors.test_versions import vendor  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

PAGES = [
    ("vendor", "/vendors/cited-chip/v/2/", "chipsite-cited-chip-v2", "Cited Chip: AI chip profile"),
    (
        "comparison",
        "/compare/alpha-vs-beta/v/1/",
        "chipsite-compare-alpha-vs-beta-v1",
        "Alpha vs Beta: AI chip comparison",
    ),
]


@pytest.mark.parametrize("page, address, key, title", PAGES)
def test_bibtex_parses_into_one_entry_with_title_address_and_verified_date(
    client, request, page, address, key, title
):
    request.getfixturevalue(page)
    library = parse_string(client.get(f"{address}cite.bib").content.decode())

    assert library.failed_blocks == []
    (entry,) = library.entries
    assert entry.entry_type == "misc" and entry.key == key
    assert entry["title"] == title
    assert entry["url"] == f"http://testserver{address}"
    assert entry["publisher"] == "chipsite"
    assert entry["note"].startswith("Version ") and "facts verified 2026-" in entry["note"]


@pytest.mark.parametrize("page, address, key, title", PAGES)
def test_csl_json_renders_as_a_bibliography_entry_in_a_citation_style(
    client, request, page, address, key, title
):
    request.getfixturevalue(page)
    source = CiteProcJSON(client.get(f"{address}cite.json").json())
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    bibliography.register(Citation([CitationItem(key)]))

    (rendered,) = [str(item) for item in bibliography.bibliography()]
    assert rendered.startswith("chipsite (2026)")
    assert title in rendered
    assert f"http://testserver{address}" in rendered
    assert rendered.count("chipsite") == 2  # the author and the publisher, nothing repeated
