from django.apps import AppConfig


class DiscoveryConfig(AppConfig):
    """How readers, search engines and feed readers find what is published: site search,
    the sitemap, robots.txt and Atom feeds of what changed. Reads live versions only."""

    name = "discovery"

    def ready(self):
        from editorial.registry import on_version_written

        from .search import index_version

        on_version_written(index_version)

        from . import pages

        pages.register()  # its stored pages (infra/stored/)
