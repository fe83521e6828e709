"""Quotes checked against their source: is a citation's quote on the page it cites?

Each check of a source that reads its page (claims/source_checks.py) keeps the page's visible
text (``Source.page_text``, compressed, at most PAGE_TEXT_MAX characters) and looks for the quote
of every citation of it whose wording is a quote. Both texts are compared normalised
(``normalise``): Unicode NFKC, case folded, typographic quotes, apostrophes and dashes as ASCII,
thousands separators dropped (“2,517” is 2517) and white space ignored, since a page's text comes
in pieces (one element's text, then the next one's) whose spacing proves nothing. An ellipsis in a
quote (“…”, “...”, “[…]” or “(…)”) marks words left out: each part must be on the page; quotation
marks around the whole quote (pasted with it) are not the source's words.

A page cut short (its body past MAX_BYTES, its text past PAGE_TEXT_MAX) proves nothing of a quote
not found in what was read: that quote is recorded as not checked, never as missing.

A quote not found is a problem moment (``quote_missing_at``), like a dead source: what cites the
source and was verified before it is stale (claims/freshness.py). Summaries are never checked.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
import unicodedata
import zlib
from array import array
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.apps import apps
from django.utils.text import Truncator

from .models import Citation, Wording

PAGE_TEXT_MAX = 200_000  # characters of a page's visible text kept; a quote past them is not checked
PASSAGE_CONTEXT = 160  # characters shown either side of a quote to an editor
QUOTE_FIELDS = ["quote_found", "quote_checked_at", "quote_missing_at"]

# --- Normalising -------------------------------------------------------------------------

_TYPOGRAPHIC = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
        "\u00ad": "",  # a soft hyphen is invisible
    }
)
_THOUSANDS = re.compile(r"(?<=\d)[,\u00a0\u2009\u202f](?=\d{3}(?!\d))")
_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"[\[(]\s*\.{3,}\s*[\])]|\.{3,}")  # after NFKC: “[…]” is “[...]”


def _fold(text: str) -> str:
    """``text`` as compared, white space kept: thousands separators out, NFKC, case folded,
    typographic marks as ASCII."""
    text = _THOUSANDS.sub("", text)
    return unicodedata.normalize("NFKC", text).casefold().translate(_TYPOGRAPHIC)


def normalise(text: str) -> str:
    """``text`` as quotes and pages are compared: folded (see the module) and without white space."""
    return _SPACE.sub("", _fold(text))


def quote_parts(quote: str) -> list[str]:
    """The normalised parts of ``quote`` that must each be on the page: split at its ellipses."""
    folded = _fold(quote).strip()  # NFKC makes “…” three dots; typographic quotes are '"'
    if len(folded) > 1 and folded[0] == folded[-1] == '"':
        folded = folded[1:-1]  # the quote pasted inside its own quotation marks
    return [part for part in (_SPACE.sub("", piece) for piece in _ELLIPSIS.split(folded)) if part]


def is_on_page(quote: str, normalised_page: str) -> bool:
    """Whether every part of ``quote`` is in ``normalised_page`` (a ``normalise``d page text)."""
    parts = quote_parts(quote)
    return bool(parts) and all(part in normalised_page for part in parts)


@dataclass(frozen=True)
class Found:
    """What looking for a quote on a page found: whether it is there and, for an editor, the page's
    own words around its first part (``before``, ``match``, ``after``; empty when not found)."""

    found: bool
    before: str = ""
    match: str = ""
    after: str = ""


@functools.lru_cache(maxsize=4)
def _index(page_text: str) -> tuple[str, str, array[int]]:
    """``page_text`` normalised, and again character by character with where each normalised
    character came from in ``page_text`` (for the passage): once per page, for all its quotes."""
    separators = {match.start() for match in _THOUSANDS.finditer(page_text)}
    table = {char: normalise(char) for char in set(page_text)}
    compact: list[str] = []
    origin = array("i")  # 4 bytes a character, not a Python int each
    for index, char in enumerate(page_text):
        if index not in separators:
            compact.extend(table[char])
            origin.extend([index] * len(table[char]))
    return normalise(page_text), "".join(compact), origin


def find_quote(quote: str, page_text: str, *, context: int = PASSAGE_CONTEXT) -> Found:
    """Look for ``quote`` in ``page_text`` (the page's own visible text, not normalised)."""
    normalised, compact, origin = _index(page_text)
    if not is_on_page(quote, normalised):
        return Found(False)
    # Where the first part starts and ends in the page's own text.
    first = quote_parts(quote)[0]
    start = compact.find(first)
    if start < 0:  # a composed character split across the part's edge: found, without a passage
        return Found(True)
    begin, end = origin[start], origin[start + len(first) - 1] + 1
    # At most ``context`` characters either side, cut between words.
    first_shown, last_shown = max(0, begin - context), min(len(page_text), end + context)
    while 0 < first_shown < begin and not page_text[first_shown - 1].isspace():
        first_shown += 1
    while end < last_shown < len(page_text) and not page_text[last_shown].isspace():
        last_shown -= 1
    before, after = page_text[first_shown:begin], page_text[end:last_shown]
    return Found(
        True,
        before=("…" if first_shown else "") + " ".join(before.split()),
        match=" ".join(page_text[begin:end].split()),
        after=" ".join(after.split()) + ("…" if last_shown < len(page_text) else ""),
    )


def missing_quote_text(quote: str) -> str:
    """The reason a row is in the staleness queue when its source stopped saying its quote."""
    return f"the source no longer says: “{Truncator(' '.join(quote.split())).chars(80)}”"


# --- The page's visible text -------------------------------------------------------------

BLOCKS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "caption",
        "dd",
        "div",
        "dl",
        "dt",
        "figcaption",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "td",
        "th",
        "title",
        "tr",
        "ul",
    ]
)


class TextCollector(HTMLParser):
    """The text a reader sees: everything outside script, style, template and noscript. ``parts``
    are its pieces, for the fingerprint; ``text`` reads as the page does, a line per block."""

    HIDDEN = {"script", "style", "template", "noscript"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.pieces: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag in BLOCKS:
            self.pieces.append("\n")

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1
        elif tag in BLOCKS:
            self.pieces.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)
            self.pieces.append(data)

    @property
    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.pieces).splitlines())
        return "\n".join(line for line in lines if line)[:PAGE_TEXT_MAX]  # see is_cut


def compress_text(text: str) -> bytes:
    """What ``Source.page_text`` stores: at most PAGE_TEXT_MAX characters, zlib-compressed UTF-8."""
    return zlib.compress(text[:PAGE_TEXT_MAX].encode(), 6) if text else b""


def decompress_text(data: bytes | memoryview | None) -> str:
    """The text ``compress_text`` stored ("" for none)."""
    return zlib.decompress(bytes(data)).decode() if data else ""


def read_page(body, *, content_type="", encoding=None):
    """(fingerprint, visible text) of a page: the fingerprint is the SHA-256 of its visible text,
    white space collapsed (of the bytes for anything not HTML); the text is empty for a page
    that is neither HTML nor plain text (a PDF, say)."""
    if "html" in content_type or not content_type:
        collector = TextCollector()
        collector.feed(body.decode(encoding or "utf-8", errors="replace"))
        collector.close()
        data = " ".join(" ".join(collector.parts).split()).encode()
        return hashlib.sha256(data).hexdigest(), collector.text
    text = body.decode(encoding or "utf-8", errors="replace") if content_type.startswith("text/") else ""
    text = text[:PAGE_TEXT_MAX]  # as kept; see is_cut
    return hashlib.sha256(body).hexdigest(), text


def fingerprint(body, *, content_type="", encoding=None):
    """SHA-256 of the page's visible text, white space collapsed; of the bytes for anything not HTML."""
    return read_page(body, content_type=content_type, encoding=encoding)[0]


def keep_text(source, text, *, now):
    """Keep ``text``, the page's visible text just read, on ``source`` (unsaved); the text it
    replaces, when different, becomes the previous one."""
    if not text:
        return
    compressed = compress_text(text)
    if compressed != bytes(source.page_text or b""):
        if source.page_text:
            source.previous_page_text = source.page_text
        source.page_text = compressed
    source.page_text_at = now


# --- Checking the citations of sources ---------------------------------------------------


def citation_tables() -> list[type[Citation]]:
    """Every concrete citation table, whichever app declares it."""
    return [
        model
        for model in apps.get_models()
        if issubclass(model, Citation) and not model._meta.abstract and not model._meta.proxy
    ]


def record(citation: Citation, *, found: bool | None, now: dt.datetime) -> bool:
    """Set what a check found of ``citation``'s quote (None: not checked, a summary or no text to
    look in); True when readers must be told: its problem moment (``quote_missing_at``) moved, or
    whether it was found changed (a quote found for the first time reads “Found on the source”)."""
    before = (citation.quote_missing_at, citation.quote_found)
    if found is None:
        citation.quote_found = citation.quote_checked_at = citation.quote_missing_at = None
    else:
        citation.quote_found, citation.quote_checked_at = found, now
        if found:
            citation.quote_missing_at = None
        elif citation.quote_missing_at is None:
            citation.quote_missing_at = now
    return (citation.quote_missing_at, citation.quote_found) != before


def is_cut(text: str) -> bool:
    """Whether ``text`` (a page's visible text as kept) may have been cut at PAGE_TEXT_MAX."""
    return len(text) >= PAGE_TEXT_MAX


def look_for(citation: Citation, normalised_page: str, *, cut: bool) -> bool | None:
    """Whether ``citation``'s quote is on the page (``normalise``d); None when it is not a quote
    to check, or when it was not found in a page read only in part (``cut``)."""
    if not is_checked(citation) or not normalised_page:
        return None
    return True if is_on_page(citation.quote, normalised_page) else (None if cut else False)


def is_checked(citation: Citation) -> bool:
    """Whether ``citation``'s words are a quote to look for on its source."""
    return citation.wording == Wording.QUOTE and bool(citation.quote.strip())


@dataclass
class QuoteResults:
    """What checking the quotes of some sources found: per source id, how many quotes were found
    and how many not; and the sources whose citations readers must be told of (see record)."""

    found: dict[int, int] = field(default_factory=dict)
    missing: dict[int, int] = field(default_factory=dict)
    newly_missing: dict[int, int] = field(default_factory=dict)  # not found, found (or new) before
    moved: set[int] = field(default_factory=set)


def check_quotes(
    *, texts: dict[int, str], now: dt.datetime, save: bool = True, cut: Collection[int] = ()
) -> QuoteResults:
    """Look for the quote of every citation of the sources in ``texts`` ({source id: the page's
    visible text just read}; ``cut``: the sources whose page was read only in part) and, unless
    ``save`` is false, record what was found: one query to read and one to write each citation
    table, whatever the number of citations."""
    results = QuoteResults()
    pages = {pk: normalise(text) for pk, text in texts.items()}
    for table in citation_tables():
        changed = []
        citations = table.objects.filter(source_id__in=list(pages)).only(
            "pk", "source", "quote", "wording", *QUOTE_FIELDS
        )
        for citation in citations:
            pk = citation.source_id
            found = look_for(citation, pages[pk], cut=pk in cut or is_cut(texts[pk]))
            if found is not None:
                tally = results.found if found else results.missing
                tally[pk] = tally.get(pk, 0) + 1
            before = [getattr(citation, name) for name in QUOTE_FIELDS]
            was_missing = citation.quote_missing_at is not None
            if record(citation, found=found, now=now):
                results.moved.add(pk)
            if found is False and not was_missing:
                results.newly_missing[pk] = results.newly_missing.get(pk, 0) + 1
            if [getattr(citation, name) for name in QUOTE_FIELDS] != before:
                changed.append(citation)
        if save and changed:
            table.objects.bulk_update(changed, QUOTE_FIELDS)
    return results


def check_typed(citations: Iterable[Citation], *, now: dt.datetime) -> list[Citation]:
    """Check quotes an editor has just typed against their sources' text already read (no fetch):
    each of ``citations`` (with its ``source``) is given its result, unsaved. Returns them.

    The words are new, so what was found of the old ones no longer applies: a miss of the new
    words is a new problem moment, even when the old words were missing already."""
    texts: dict[int, tuple[str, bool]] = {}
    rows = list(citations)
    for citation in rows:
        source = citation.source
        if source.pk not in texts:
            text = decompress_text(source.page_text)
            texts[source.pk] = (normalise(text), is_cut(text))
        page, cut = texts[source.pk]
        citation.quote_found = citation.quote_checked_at = citation.quote_missing_at = None
        record(citation, found=look_for(citation, page, cut=cut), now=now)
    return rows
