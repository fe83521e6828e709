from django.urls import path

from . import feeds, sitemaps, views

urlpatterns = [
    path("search/", views.search, name="search"),
    path("robots.txt", views.robots_txt, name="robots"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("sitemap.xml", sitemaps.index, name="sitemap"),
    path("sitemap-<slug:section>-<int:page>.xml", sitemaps.section, name="sitemap_section"),
    path("feeds/changes/", feeds.SiteChangesFeed(), name="feed"),
    path("vendors/<slug:slug>/feed/", feeds.VendorChangesFeed(), name="vendor_feed"),
    path("lanes/<slug:slug>/feed/", feeds.LaneChangesFeed(), name="lane_feed"),
]
