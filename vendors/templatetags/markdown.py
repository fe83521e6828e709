from django import template

from claims.markdown import render_markdown, render_markdown_inline

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text):
    return render_markdown(text)


@register.filter(name="markdown_inline")
def markdown_inline_filter(text):
    return render_markdown_inline(text)
