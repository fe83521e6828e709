"""Helping editors write accessible pages (ATAG 2.0 part B; issue 25, part 4).

Each check looks at what an editor typed and says what a reader using a screen reader, or
reading a link out of its sentence, would miss. They warn and never block: a save goes
through, and the change page lists the warnings where a refused save lists its errors, each
a link to its field. The rules are written here once; the admin pages only show them.
"""

from .markdown import block_tokens

# Link text that says nothing when a screen reader lists the page's links (WCAG 2.4.4).
VAGUE_LINK_TEXT = {
    "here", "click here", "click", "this", "this link", "link", "more", "read more", "learn more",
    "more here", "go here", "see here",
}  # fmt: skip

# The page's own section headings are h2: a heading in an editor's text starts at ### (h3),
# and the renderer keeps only ### and #### (claims/markdown.py ALLOWED_TAGS).
FIRST_HEADING_LEVEL = 3
LAST_HEADING_LEVEL = 4


def _link_texts(tokens):
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        words: list[str] = []
        inside = False
        for child in token.children:
            if child.type == "link_open":
                words, inside = [], True
            elif child.type == "link_close":
                inside = False
                yield "".join(words)
            elif inside and child.type in {"text", "code_inline"}:
                words.append(child.content)


def markdown_warnings(text: str) -> list[str]:
    """What a Markdown text does that readers of assistive technology stumble on: links
    named “here”, headings that skip a level or that the page cannot show."""
    if not text or not text.strip():
        return []
    tokens = block_tokens(text)
    found = []
    for words in _link_texts(tokens):
        if " ".join(words.lower().strip(" .:!").split()) in VAGUE_LINK_TEXT:
            found.append(
                f"a link reads “{words.strip()}”: out of its sentence (a screen reader lists the "
                "links) it says nothing. Name where it goes, e.g. “AWS's Trainium3 announcement”."
            )
    previous = FIRST_HEADING_LEVEL - 1
    for token in tokens:
        if token.type != "heading_open":
            continue
        level = int(token.tag[1])
        if level < FIRST_HEADING_LEVEL or level > LAST_HEADING_LEVEL:
            found.append(
                f"a heading starts with {'#' * level}: the page's sections are level 2, so a heading "
                f"in this text is ### (level 3) or #### (level 4); this one is shown as plain text."
            )
        elif level > previous + 1:
            found.append(
                f"a heading skips from level {previous} to level {level}: screen reader users move "
                f"by headings, and a skipped level reads as a missing section. Use {'#' * (previous + 1)}."
            )
        previous = max(min(level, LAST_HEADING_LEVEL), FIRST_HEADING_LEVEL - 1)
    return found


def source_url_warnings(url: str) -> list[str]:
    """A source on plain http:// may be changed on the way to the reader, and browsers mark it
    as not secure: the https:// address is nearly always there."""
    if url and url.strip().lower().startswith("http://"):
        return [
            "the address starts with http://: readers' browsers mark it “Not secure”. "
            "Use its https:// address if the site has one."
        ]
    return []


def logo_warnings(*, has_logo: bool, text_alternative: str, name: str) -> list[str]:
    """A logo with no text alternative of its own is read as “<name> logo”."""
    if has_logo and not (text_alternative or "").strip():
        return [
            f"it has no text alternative of its own: pages read it as “{name or 'the vendor'} logo”. "
            "If the logo shows more than the name (a slogan, another company), write what it shows "
            "in “Logo's text alternative”."
        ]
    return []
