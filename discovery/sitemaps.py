"""/sitemap.xml: every live profile and its change log, every lane with live vendors, every
live editorial comparison, the list pages and the open data (`/data/`), each with the time its
live content was published. Generated any-N comparisons, search, the admin and the probes are left out."""

from django.contrib.sitemaps import Sitemap
from django.db.models import Max
from django.urls import reverse

from comparisons.models import ComparisonVersion
from infra.stored import shows
from vendors.models import Lane, VendorVersion


class LiveVersionSitemap(Sitemap):
    """The live version of every published item of ``model``, dated by its publish time."""

    model = None
    changefreq = "weekly"

    def items(self):
        shows("entries", "changes", "comparisons")  # every live item and its live version's date
        return self.model.objects.live().only("slug", "published_at").order_by("slug")

    def lastmod(self, version):
        return version.published_at


class ProfileSitemap(LiveVersionSitemap):
    model = VendorVersion
    priority = 0.8


class ChangeLogSitemap(ProfileSitemap):
    priority = 0.4

    def location(self, version):
        return reverse("vendors:changes", kwargs={"slug": version.slug})


class ComparisonSitemap(LiveVersionSitemap):
    model = ComparisonVersion
    priority = 0.7


class LaneSitemap(Sitemap):
    changefreq = "weekly"
    priority = 0.6

    def items(self):
        latest = {
            lane: when
            for lane, when in VendorVersion.objects.live()
            .order_by()
            .values_list("lane")
            .annotate(latest=Max("published_at"))
        }
        lanes = list(Lane.objects.filter(pk__in=latest).order_by("position", "name"))
        for lane in lanes:
            lane.latest = latest[lane.pk]
        return lanes

    def lastmod(self, lane):
        return lane.latest


class ListSitemap(Sitemap):
    """The rankings, the list pages and the open data's downloads page change whenever any
    profile or comparison does."""

    changefreq = "daily"
    priority = 1.0
    names = [
        "vendors:rankings",
        "vendors:list",
        "vendors:lanes",
        "vendors:chips",
        "comparisons:list",
        "opendata:index",
    ]

    def items(self):
        return self.names

    def location(self, name):
        return reverse(name)

    def lastmod(self, name):
        if not hasattr(self, "_latest"):
            times = [
                model.objects.live().aggregate(latest=Max("published_at"))["latest"]
                for model in (VendorVersion, ComparisonVersion)
            ]
            self._latest = max((t for t in times if t), default=None)
        return self._latest


SITEMAPS = {
    "lists": ListSitemap,
    "profiles": ProfileSitemap,
    "changes": ChangeLogSitemap,
    "lanes": LaneSitemap,
    "comparisons": ComparisonSitemap,
}
