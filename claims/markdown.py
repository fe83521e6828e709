"""The one place where editor-written Markdown becomes HTML."""

import html
from functools import lru_cache

import nh3
from django.utils.html import strip_tags
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

# Raw HTML in the source is escaped, not passed through; nh3 then removes anything
# that is not on this list, so nothing an editor typed can run as HTML.
_parser = MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough")

ALLOWED_TAGS = {
    "p",
    "br",
    "strong",
    "em",
    "del",
    "code",
    "pre",
    "blockquote",
    "a",
    "ul",
    "ol",
    "li",
    "h3",
    "h4",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "hr",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


def _clean(html: str) -> SafeString:
    return mark_safe(  # noqa: S308 - sanitized by nh3 on the line above the return
        nh3.clean(
            html,
            tags=ALLOWED_TAGS,
            attributes=ALLOWED_ATTRIBUTES,
            url_schemes=URL_SCHEMES,
            link_rel="noopener noreferrer nofollow",
        )
    )


# The HTML depends on the text alone, and published text never changes under its version:
# each process renders a text once and reuses the result (a bounded memo, never stale).
MEMO_SIZE = 2048


@lru_cache(maxsize=MEMO_SIZE)
def render_markdown(text: str) -> SafeString:
    """Block Markdown (paragraphs, lists, tables) as sanitized HTML."""
    return _clean(_parser.render(text or ""))


@lru_cache(maxsize=MEMO_SIZE)
def render_markdown_inline(text: str) -> SafeString:
    """One line of Markdown (emphasis, links) without a wrapping paragraph."""
    return _clean(_parser.renderInline(text or ""))


def plain_text(text: str) -> str:
    """The words a Markdown text shows, without its markup: what search indexes and quotes."""
    return " ".join(html.unescape(strip_tags(_parser.render(text or ""))).split())


def links_somewhere(text: str) -> bool:
    """Whether the text, once rendered, holds a link a reader can follow (nh3 drops an
    ``href`` whose scheme it refuses, so ``[x](javascript:...)`` is no link)."""
    return ' href="' in render_markdown(text)


def block_tokens(text: str) -> list:
    """The parsed tokens of a block Markdown text, as the renderer reads them (for the
    authoring checks in claims/authoring.py, which look at links and headings)."""
    return _parser.parse(text or "")
