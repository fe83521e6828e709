"""Atom feeds of what changed: the whole site, one vendor, one lane.

Each entry is a published version that changed what readers see (versions that only moved
verified dates make none), worded as the change log words it ("Memory: 96 GB -> 144 GB"),
for items that are live now. An entry's id names the item and the version's number, so it
stays the same however often the feed is rebuilt or the item republished.

A summary quotes what editors typed (a note, a fact's old and new value) and is sent as plain
text, never as HTML: a reader shows ``<img onerror=...>`` typed into a fact as those characters.
A long text's word diff reads as text too (``editorial.document_diff.plain``: “a [fast -> faster]
chip”), not with the marks the change log page draws as struck-through and underlined words.
"""

from django.contrib.syndication.views import Feed
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from claims.citation import PUBLISHER
from comparisons.models import ComparisonVersion
from editorial.document_diff import plain
from infra.stored import shows
from vendors.models import Lane, VendorVersion

ENTRIES = 50
LIGHT = ("document", "history")  # the feed needs neither the page nor its whole history


def _changed(model, **filters):
    live = model.objects.live().values("item_id")
    return (
        model.objects.past()
        .filter(content_changed=True, item_id__in=live, **filters)
        .defer(*LIGHT)
        .order_by("-published_at", "-pk")
    )


class PlainTextAtomFeed(Atom1Feed):
    """Atom whose entry summaries are ``type="text"`` (Django writes them as ``type="html"``)."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, {**item, "description": None})
        if item["description"] is not None:
            handler.addQuickElement("summary", item["description"], {"type": "text"})


class ChangesFeed(Feed):
    feed_type = PlainTextAtomFeed
    # The site is the author of the feed and of each entry (the editors write as chipsite), so
    # a reader that shows an entry on its own still names who wrote it.
    author_name = PUBLISHER
    item_author_name = PUBLISHER

    def item_title(self, version):
        if isinstance(version, ComparisonVersion):
            return f"New comparison: {version.title}" if version.number == 1 else f"{version.title}, updated"
        return f"New profile: {version.name}" if version.number == 1 else f"{version.name}, updated"

    def item_description(self, version):
        lines = [version.note] if version.note else []
        if version.number == 1:
            lines.append("First published.")
        else:
            lines += [plain(line) for line in version.changes] or ["Republished."]
        return "\n".join(lines)

    def item_link(self, version):
        if isinstance(version, ComparisonVersion):
            return version.get_absolute_url()
        return f"{reverse('vendors:changes', kwargs={'slug': version.slug})}#v{version.number}"

    def item_guid(self, version):
        kind = "comparison" if isinstance(version, ComparisonVersion) else "vendor"
        return f"urn:chipsite:{kind}:{version.item_id}:version:{version.number}"

    item_guid_is_permalink = False

    def item_pubdate(self, version):
        return version.published_at

    def item_updateddate(self, version):
        return version.published_at


class SiteChangesFeed(ChangesFeed):
    title = "chipsite: what changed"
    subtitle = "Every published change to an AI-chip vendor profile or comparison, newest first."

    def link(self):
        return reverse("vendors:rankings")

    def items(self):
        shows("changes")
        versions = list(_changed(VendorVersion)[:ENTRIES]) + list(_changed(ComparisonVersion)[:ENTRIES])
        versions.sort(key=lambda v: (v.published_at, v.number), reverse=True)
        return versions[:ENTRIES]


class VendorChangesFeed(ChangesFeed):
    def get_object(self, request, slug):
        version = VendorVersion.objects.live().filter(slug=slug).defer(*LIGHT).first()
        if version is None:
            raise Http404("No published vendor here.")
        return version

    def title(self, version):
        return f"{version.name} on chipsite: what changed"

    def link(self, version):
        return version.get_absolute_url()

    def items(self, version):
        shows(version.history_key)
        return _changed(VendorVersion, item_id=version.item_id)[:ENTRIES]


class LaneChangesFeed(ChangesFeed):
    def get_object(self, request, slug):
        return get_object_or_404(Lane, slug=slug)

    def title(self, lane):
        return f"{lane.name} on chipsite: what changed"

    def link(self, lane):
        return lane.get_absolute_url()

    def items(self, lane):
        shows(f"lane-changes-{lane.pk}")
        in_lane = VendorVersion.objects.live().filter(lane=lane).values("item_id")
        return _changed(VendorVersion).filter(item_id__in=in_lane)[:ENTRIES]
