"""The sitemap: every live profile and its change log, every lane with live vendors, every
live editorial comparison, the list pages and the open data (`/data/`), each with the time its
live content was published. Generated any-N comparisons, search, the admin and the probes are left out.

``/sitemap.xml`` is an index of its parts' pages, each at an address of its own
(``/sitemap-profiles-1.xml``) of at most PER_PAGE addresses: every page is a stored file of a
few tens of kilobytes, however many vendors the site holds (a query string would make it a
page rendered on demand).
"""

import datetime as dt
from typing import NamedTuple

from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import SitemapIndexItem, x_robots_tag
from django.contrib.sites.shortcuts import get_current_site
from django.core.paginator import EmptyPage
from django.db.models import Max
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from comparisons.models import ComparisonVersion
from infra.stored import shows, unrecorded
from vendors.models import Lane, VendorVersion
from vendors.pages import LIVE_VENDORS_KEY

PER_PAGE = 400  # addresses a page of the sitemap: some 60 KB, about a profile's size


class PagedSitemap(Sitemap):
    limit = PER_PAGE


class LiveVersionSitemap(PagedSitemap):
    """The live version of every published item of ``model``, dated by its publish time."""

    model: type[VendorVersion] | type[ComparisonVersion]  # each part names its model
    changefreq = "weekly"

    def items(self):
        return self.model.objects.live().only("slug", "published_at", "item").order_by("slug")

    def lastmod(self, version):
        return version.published_at


class ProfileSitemap(LiveVersionSitemap):
    """A page of it shows which vendors are live, in order (one going live, away or to a new
    address moves every later page; a new total or verified date moves none), and the date of
    each vendor it lists: a publish renders again the one page that names the vendor, not every
    page of the part."""

    model = VendorVersion
    priority = 0.8

    def items(self):
        shows(LIVE_VENDORS_KEY)
        return super().items()

    def lastmod(self, version):
        shows(version.page_key)  # called for the addresses of the page rendered only
        return super().lastmod(version)


class ChangeLogSitemap(ProfileSitemap):
    priority = 0.4

    def location(self, version):
        return reverse("vendors:changes", kwargs={"slug": version.slug})


class ComparisonSitemap(LiveVersionSitemap):
    model = ComparisonVersion
    priority = 0.7

    def items(self):
        shows("comparisons")  # every live comparison and its live version's date
        return self.model.objects.live().only("slug", "published_at").order_by("slug")


class LiveLane(NamedTuple):
    """A lane with live vendors, and the newest publish among them."""

    lane: Lane
    latest: dt.datetime


class LaneSitemap(PagedSitemap):
    changefreq = "weekly"
    priority = 0.6

    def items(self):
        shows("entries", "changes")  # the lanes with live vendors, and their newest publish
        latest = {
            lane: when
            for lane, when in VendorVersion.objects.live()
            .order_by()
            .values_list("lane")
            .annotate(latest=Max("published_at"))
        }
        lanes = Lane.objects.filter(pk__in=latest).order_by("position", "name")
        return [LiveLane(lane, latest[lane.pk]) for lane in lanes]

    def location(self, item):
        return item.lane.get_absolute_url()

    def lastmod(self, item):
        return item.latest


class ListSitemap(PagedSitemap):
    """The rankings, the list pages and the open data's downloads page change whenever any
    profile or comparison does."""

    changefreq = "daily"
    priority = 1.0
    names = [
        "vendors:rankings",
        "vendors:list",
        "vendors:lanes",
        "chips:list",
        "comparisons:list",
        "opendata:index",
    ]

    def items(self):
        shows("entries", "changes", "comparisons")  # their date is the newest publish
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


def page_paths() -> list[str]:
    """The address of every page of every part that has any address, in the index's order.
    How many there are follows the live items, not their dates."""
    shows("entries", "comparisons")
    paths = []
    with unrecorded():  # the parts' items note their dates too, which no index shows
        for section, part in SITEMAPS.items():
            paginator = part().paginator
            if paginator.count:
                paths += [
                    reverse("sitemap_section", kwargs={"section": section, "page": page})
                    for page in paginator.page_range
                ]
    return paths


@require_safe
@x_robots_tag
def index(request):
    """/sitemap.xml: the index of the parts' pages (how many there are follows every live item)."""
    items = [SitemapIndexItem(request.build_absolute_uri(path)) for path in page_paths()]
    return TemplateResponse(request, "sitemap_index.xml", {"sitemaps": items}, content_type="application/xml")


@require_safe
@x_robots_tag
def section(request, section, page):
    """One page of one part of the sitemap; a part or page that is not there is a 404."""
    if section not in SITEMAPS:
        raise Http404("No such part of the sitemap.")
    try:
        urls = SITEMAPS[section]().get_urls(
            page=page, site=get_current_site(request), protocol=request.scheme
        )
    except EmptyPage as error:
        raise Http404("No such page of the sitemap.") from error
    return TemplateResponse(request, "sitemap.xml", {"urlset": urls}, content_type="application/xml")
