"""JSON-LD in a page's <head>, built here from what the page shows, so that the content apps'
views and templates never import discovery: a template loads these tags and passes its own
objects; the view only says whether the page is the visitors' live one."""

import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from discovery import structured_data

register = template.Library()

# What json_script escapes, so that nothing in the data can end the element early.
_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.simple_tag
def json_ld(data):
    """``<script type="application/ld+json">``: a data block, which the strict CSP allows (the
    browser never runs it), with every <, > and & escaped."""
    if not data:
        return ""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(text))  # noqa: S308


@register.simple_tag(takes_context=True)
def profile_json_ld(context, profile):
    """A profile's JSON-LD: ``{% profile_json_ld profile %}``, on the live page only."""
    return json_ld(structured_data.profile(context["request"], profile))


@register.simple_tag(takes_context=True)
def comparison_json_ld(context, comparison, table):
    """An editorial comparison's JSON-LD: ``{% comparison_json_ld comparison table %}``."""
    return json_ld(structured_data.comparison(context["request"], comparison, table))


@register.simple_tag(takes_context=True)
def rankings_json_ld(context, page):
    """The rankings' JSON-LD, numbered from the page's first rank: ``{% rankings_json_ld page_obj %}``."""
    return json_ld(structured_data.rankings(context["request"], page))


@register.simple_tag(takes_context=True)
def chips_json_ld(context, chips):
    """A table of chips' JSON-LD (Products with their numbers): ``{% chips_json_ld chips %}``."""
    return json_ld(structured_data.chips(context["request"], chips))


@register.simple_tag(takes_context=True)
def breadcrumbs_ld(context, *names_and_paths):
    """A list page's BreadcrumbList: ``{% breadcrumbs_ld "Rankings" url1 "Lanes" url2 %}``."""
    trail = list(zip(names_and_paths[::2], names_and_paths[1::2], strict=True))
    return json_ld([structured_data.breadcrumbs(context["request"], trail)])
