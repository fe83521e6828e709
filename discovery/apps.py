from django.apps import AppConfig


class DiscoveryConfig(AppConfig):
    """How readers, search engines and feed readers find what is published: the sitemap,
    robots.txt and Atom feeds of what changed. Reads live versions only."""

    name = "discovery"
