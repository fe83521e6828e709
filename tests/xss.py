"""Markup an editor (or an imported file) might type into a text field, and a reader's view of
it: each payload must reach a visitor as the characters typed, never as an element."""

from html.parser import HTMLParser

PAYLOADS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "<svg onload=alert(1)>",
    '<iframe src="javascript:alert(1)"></iframe>',
    '<a href="javascript:alert(1)">click</a>',
    "<body onload=alert(1)>",
    '"><script>alert(1)</script>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<object data="javascript:alert(1)"></object>',
    "]]><script>alert(1)</script>",  # ends a CDATA section
    "&lt;script&gt;alert(1)&lt;/script&gt;",  # escaped once already: must not be unescaped into a tag
]


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def read_html(html):
    """(the elements a browser would build from ``html``, the text it would show)."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.tags, "".join(reader.text)
