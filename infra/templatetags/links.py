"""``{% link 'name' %}``: the address of a page that takes no arguments, as ``{% url %}`` writes
it, reversed once a process for each URL configuration and script prefix. Every page's header and
footer name eight of them, and Django's reverse was most of what a small page's template cost
beside its content."""

from functools import lru_cache

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()


@lru_cache(maxsize=256)
def _reversed(name: str, urlconf: str, prefix: str) -> str:
    return reverse(name, urlconf=urlconf)  # under ``prefix``, the one active, which keys this memo


@register.simple_tag
def link(name: str) -> str:
    return _reversed(name, get_urlconf() or settings.ROOT_URLCONF, get_script_prefix())
