from django.apps import AppConfig


class DiscoveryConfig(AppConfig):
    """How readers, search engines and feed readers find what is published: site search,
    the sitemap, robots.txt and Atom feeds of what changed. Reads live versions only."""

    name = "discovery"

    def ready(self):
        from django.db.backends.signals import connection_created

        from editorial.registry import on_version_written

        from .trigrams import register_on_sqlite

        # SQLite forgives typos as pg_trgm does: its word similarity, ported (discovery/trigrams.py).
        connection_created.connect(register_on_sqlite, dispatch_uid="discovery.word_similarity")

        from .search import index_version

        on_version_written(index_version)

        from . import pages

        pages.register()  # its stored pages (infra/stored/)
