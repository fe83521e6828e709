from claims.markdown import render_markdown, render_markdown_inline


def test_markdown_renders_emphasis_lists_and_links():
    html = render_markdown("**Fast** and [docs](https://example.com)\n\n- one\n- two")
    assert "<strong>Fast</strong>" in html
    assert '<a href="https://example.com" rel="noopener noreferrer nofollow">docs</a>' in html
    assert "<li>one</li>" in html


def test_html_an_editor_typed_never_runs():
    html = render_markdown('<script>alert(1)</script> <img src=x onerror="alert(1)"> hi')
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;script&gt;" in html


def test_javascript_links_are_dropped():
    html = render_markdown("[click](javascript:alert(1)) <a href='javascript:alert(2)'>x</a>")
    assert "<a " not in html
    assert 'href="javascript' not in html


def test_inline_markdown_has_no_paragraph():
    assert str(render_markdown_inline("*AWS* only")) == "<em>AWS</em> only"
