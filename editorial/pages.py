"""The one bridge from publishing to visitors' pages: the page cache and the page store.

This is the only module of the content apps (vendors, comparisons, editorial) that tells
``infra.cache`` and ``infra.stored`` that something changed. The workflow's writes only write
versions and send one event (``editorial.events``); ``on_change`` hears it and decides:

- a change visitors see now drops the cached pages and renders again the stored pages showing
  the keys it touches, and the item's own addresses (``infra.stored.changed``); one still to
  come (a schedule) drops those cached pages and marks those stored pages due at its moment
  (``infra.stored.changes_at``);
- a change to what is scheduled only (a schedule cancelled) drops the cached pages showing
  it, which note their own end again when rendered;
- every change tells the cache the schedule may have moved (``SCHEDULE_KEY``).

Each app declares its stored pages once, in its ``pages.py``, as a ``Pages``: the URL names
stored, every address, a live item's own addresses and the keys a change touches. ``declare``
hands the addresses to ``infra.stored`` and keeps the keys for ``on_change``. The admin's
deletes (``deleting``) and the shared vocabulary's saves (``vocabulary_changed``) come here too.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Min, Q

from infra import cache as page_cache
from infra import freshness, stored

from . import events
from .registry import next_scheduled, publications
from .selectors import live_version

if TYPE_CHECKING:
    from .models import Editable, PublishedVersion

# A live version's own addresses (its profile, its API answer...). Each app's function takes its
# own version model, hence Any: a Callable[[PublishedVersion], ...] would refuse it.
type ItemPaths = Callable[[Any], Iterable[str]]
# The keys a change from ``before`` (live until now, or None) to ``after`` (live now, or None) touches.
type PageKeys = Callable[[Any, Any], set[str]]


@dataclass(frozen=True)
class Pages:
    """One app's stored pages (infra/stored/), declared once.

    ``item_paths`` and ``page_keys`` are by kind of item, the versions' key prefix
    (``vendor``, ``comparison``): a surface that shows vendors again (the API) has pages
    of its own to render when one is published."""

    url_names: tuple[str, ...]  # responses stored when asked without a query (``vendors:detail``)
    every_path: Callable[[], Iterable[str]]  # every stored address the app has now
    item_paths: Mapping[str, ItemPaths] = field(default_factory=dict)  # rendered at the item's publish
    page_keys: Mapping[str, PageKeys] = field(default_factory=dict)  # what a change of its items touches


_page_keys: dict[str, list[PageKeys]] = {}


def declare(pages: Pages) -> None:
    """Store ``pages`` (called from the app's ``AppConfig.ready()``, once or more)."""
    stored.store_url_names(*pages.url_names)
    stored.register_paths(pages.every_path)
    for kind, paths in pages.item_paths.items():
        stored.register_item_paths(kind, paths)
    for kind, keys in pages.page_keys.items():
        if keys not in (declared := _page_keys.setdefault(kind, [])):
            declared.append(keys)


def live_paths(per_item: Mapping[str, ItemPaths]) -> Iterator[str]:
    """The addresses ``per_item[kind](version)`` gives for each live version of each kind, by
    slug. The version holds its slug only: one query per kind, whatever the number of items."""
    models = {
        publication.version_model.page_key_prefix(): publication.version_model
        for publication in publications()
    }
    for kind, paths in per_item.items():
        # Every concrete version model has ``slug``; django-stubs reads the abstract one, which has not.
        for version in models[kind].objects.live().only("slug").order_by("slug"):  # type: ignore[misc]
            yield from paths(version)


def surface(
    *,
    url_names: tuple[str, ...],
    fixed: Callable[[], Iterable[str]],
    per_item: Mapping[str, ItemPaths],
    at_publish: Mapping[str, ItemPaths] | None = None,
) -> Pages:
    """The stored pages of a surface that shows the items again (the API, the downloads, the
    feeds): its ``fixed`` addresses, then each live item's own (``per_item``, made from its slug),
    rendered at once when it is published. ``at_publish``, when a publish renders more than
    ``per_item`` gives: the API's chips, which ``fixed`` lists for every vendor in one query."""
    return Pages(
        url_names=url_names,
        every_path=lambda: itertools.chain(fixed(), live_paths(per_item)),
        item_paths=at_publish or per_item,
    )


def keys_changed(before: PublishedVersion | None, after: PublishedVersion | None) -> set[str]:
    """What visitors' pages show that changed when ``before`` gave way to ``after``: the keys
    its app declared (``Pages.page_keys``), else the item's own document."""
    version = after or before
    if version is None:
        return set()
    declared = _page_keys.get(version.page_key_prefix())
    if not declared:
        return {version.page_key}
    return set().union(*(keys(before, after) for keys in declared))


def on_change(event: events.Changed) -> None:
    """The workflow's one subscriber: what a write changes for the cache and the stored pages."""
    keys = keys_changed(event.before, event.after) | {page_cache.SCHEDULE_KEY}
    if event.kind is events.Kind.RESCHEDULED:
        # Nothing shows yet; the stored pages were marked due at its moment when it was scheduled.
        freshness.changed(keys)
        return
    if event.at is not None:  # its pages are due when its time comes (the worker's sweep renders them)
        stored.changes_at(keys, event.at)
    else:  # once the transaction commits, the pages showing it are rendered again, and its new ones
        stored.changed(keys, paths=stored.item_paths(event.after) if event.after else ())


def _shown(item: Editable) -> set[str]:
    live = live_version(item)
    return keys_changed(live, None) if live is not None else set()


@contextmanager
def deleting(items: Iterable[Editable]) -> Iterator[None]:
    """Around deleting ``items`` (the admin's delete): what visitors' pages showed of them is read
    before they go with their versions; after, the pages that showed them go (cached) or are
    rendered again without them (stored)."""
    shown = set().union(*(_shown(item) for item in items))
    yield
    stored.changed(shown)


def vocabulary_changed(keys: Iterable[str] | None) -> None:
    """An editor saved shared vocabulary visitors' pages show (lanes, attributes, axes, site
    text): the cached and stored pages showing ``keys`` go and are rendered again, or every
    page when ``keys`` is None (lanes and attributes are on every page)."""
    if keys is None:
        stored.changed_everywhere()
    else:
        stored.changed(keys)


@contextmanager
def rendered_together() -> Iterator[None]:
    """Inside, the pages that many writes change are gathered and rendered once, after the
    commit (the demo load's dozen publishes all show on the home page)."""
    with stored.changes_gathered():
        yield


def pages_expire(now: dt.datetime) -> Callable[[set[str]], dt.datetime | None]:
    """What tells when a stored page showing ``keys`` changes by itself: a version of one of its
    items scheduled to go live or off, or for a page about more than its items (a list), any
    scheduled version. Read once for a render batch: one query per kind of item, when first asked."""
    scheduled: dict[str, dict[int, dt.datetime]] = {}
    listed: list[dt.datetime | None] = []
    prefixes = {f"{p.version_model.page_key_prefix()}-": p for p in publications()}

    def moments_of(prefix: str) -> dict[int, dt.datetime]:
        if prefix not in scheduled:
            found = (
                prefixes[prefix]
                .version_model.objects.filter(Q(published_at__gt=now) | Q(superseded_at__gt=now))
                .values("item_id")  # type: ignore[misc]  # on every concrete version model, as ``slug``
                .annotate(
                    goes_live=Min("published_at", filter=Q(published_at__gt=now)),
                    goes_off=Min("superseded_at", filter=Q(superseded_at__gt=now)),
                )
            )
            # A version ends no sooner than it starts: the earlier of the two is the item's next change.
            scheduled[prefix] = {
                row["item_id"]: min(m for m in (row["goes_live"], row["goes_off"]) if m is not None)
                for row in found
            }
        return scheduled[prefix]

    def expires(keys: set[str]) -> dt.datetime | None:
        moments: list[dt.datetime] = []
        for key in keys:
            prefix = next((p for p in prefixes if key.startswith(p)), None)
            if prefix is not None and key[len(prefix) :].isdigit():
                if (moment := moments_of(prefix).get(int(key[len(prefix) :]))) is not None:
                    moments.append(moment)
            elif prefix is None and key != stored.EVERYTHING:  # a list: any scheduled version changes it
                if not listed:
                    listed.append(page_cache.next_scheduled_change())
                if listed[0] is not None:
                    moments.append(listed[0])
        return min(moments, default=None)

    return expires


def connect() -> None:
    """Called once from ``EditorialConfig.ready()``: the workflow's changes reach the pages."""
    events.subscribe(on_change)
    page_cache.changes_at(next_scheduled)  # a scheduled version going live changes visitors' pages
    stored.register_expiry(pages_expire)  # ... and its stored pages
