from django.contrib.sitemaps.views import sitemap
from django.urls import path

from . import feeds, views
from .sitemaps import SITEMAPS

urlpatterns = [
    path("search/", views.search, name="search"),
    path("robots.txt", views.robots_txt, name="robots"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("feeds/changes/", feeds.SiteChangesFeed(), name="feed"),
    path("vendors/<slug:slug>/feed/", feeds.VendorChangesFeed(), name="vendor_feed"),
    path("lanes/<slug:slug>/feed/", feeds.LaneChangesFeed(), name="lane_feed"),
]
