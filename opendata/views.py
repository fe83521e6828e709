from collections import defaultdict

from django.http import Http404, HttpResponse
from django.views.generic import TemplateView

from chips.selectors import CHIPS_KEY
from claims.freshness import stale_before
from comparisons.documents import comparison_document_of
from infra.cache import cached, cached_each
from infra.stored import DEFERRED, expires, shows
from vendors.documents import document_of
from vendors.listings import KeysFirstPaginator
from vendors.selectors import active_axes, live_version

from . import exports, files, selectors

PROFILES_PER_PAGE = 50


def _send(file):
    response = HttpResponse(file.content, content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    return response


def _per_host(request, name, compute, **options):
    """``compute()`` once per change (infra/cache.py) and host: the files hold
    absolute addresses, and /data/ and the download itself share one build of a large file."""
    return cached(f"opendata:{name}:{request.scheme}://{request.get_host()}", compute, **options)


def _rankings(request, axes):
    """The rankings' entries, and when the newest of their versions went live."""
    shows("entries")

    def compute():
        versions, scores = selectors.ranked_vendors(axes=axes)
        updated = max((version.published_at for version in versions), default=None)
        return exports.ranking_entries(versions, scores, axes=axes, url=request.build_absolute_uri), updated

    return _per_host(request, "rankings", compute)


# What a build of every live chip gives, each a download of its own: the chips' values, their
# prices and their measured results (opendata/exports/). One draw of the chips makes all three.
CHIP_DATA = {"chips": exports.chip_values, "prices": exports.price_values, "results": exports.result_values}


def _chips(request):
    """Every live chip's values, prices and results ({name of ``CHIP_DATA``: its entries}), and
    when the newest version holding one went live. A stored file of them shows any chip's
    change and each vendor it holds, and expires when a value turns stale, whether the values
    were built now or found in the cache. Each version's values are kept until the freshness
    cutoff moves (a version never changes): a publish draws again only the chips of the
    version it wrote."""

    def compute():
        versions = {row.version_id: row.version for row in selectors.live_chip_rows()}
        each = cached_each("chip-data", list(versions), _chip_values, stamp=stale_before().isoformat())
        data = {name: [entry for pk in versions for entry in each[pk][0][name]] for name in CHIP_DATA}
        turns_stale = [at for pk in versions if (at := each[pk][1]) is not None]
        updated = max((version.published_at for version in versions.values()), default=None)
        keys = sorted(version.page_key for version in versions.values())
        return data, updated, keys, min(turns_stale, default=None)

    data, updated, keys, until = _per_host(request, "chip-data", compute)
    shows(CHIPS_KEY, *keys)
    expires(until)
    return data, updated


def _chip_values(version_ids):
    """{version pk: (its chips' entries by name of ``CHIP_DATA``, when one of them turns stale)}."""
    chips = defaultdict(list)
    for chip in selectors.chips_of_versions(version_ids):
        chips[chip.version.pk].append(chip)

    def turns_stale(pk):
        return document_of(chips[pk][0].version).turns_stale_at if chips[pk] else None

    return {
        pk: ({name: build(chips[pk]) for name, build in CHIP_DATA.items()}, turns_stale(pk))
        for pk in version_ids
    }


def _site(request, axes, *, rankings=None):
    shows(DEFERRED)  # built from everything: again by the worker's sweep, not at each publish

    def compute():
        entries = rankings if rankings is not None else _rankings(request, axes)[0]
        return files.site_file(axes=axes, url=request.build_absolute_uri, rankings=entries)

    # Seconds at 10,000 vendors: one request builds it while the others wait for its result.
    return _per_host(request, "site", compute, single_flight=True)


def rankings_download(request, format):
    axes = active_axes()
    entries, _ = _rankings(request, axes)
    return _send(files.rankings_file(entries, format, axes=axes, url=request.build_absolute_uri))


def _chip_download(request, name, format):
    # Every live chip's values, prices or results: seconds at 10,000 vendors, so again by the
    # worker's sweep, not at each publish (the index /data/ and the whole-site file are built so too).
    shows(DEFERRED)
    data, _ = _chips(request)
    return _send(CHIP_FILES[name](data[name], format, url=request.build_absolute_uri))


CHIP_FILES = {"chips": files.chips_file, "prices": files.prices_file, "results": files.results_file}


def chips_download(request, format):
    return _chip_download(request, "chips", format)


def prices_download(request, format):
    """Every price of every live chip, with its amount per chip-hour, stated or derived."""
    return _chip_download(request, "prices", format)


def results_download(request, format):
    """Every measured result of every live chip."""
    return _chip_download(request, "results", format)


def vendor_download(request, slug, format):
    version = live_version(slug=slug)
    if version is None:
        raise Http404("No such published vendor.")
    return _send(files.profile_file(version, format, axes=active_axes(), url=request.build_absolute_uri))


def comparison_download(request, slug, format):
    version = selectors.live_comparison(slug=slug)
    if version is None:
        raise Http404("No such published comparison.")
    page = comparison_document_of(version)
    columns = selectors.comparison_columns([page])[page.pk]
    file = files.comparison_file(
        version, page, columns, format, axes=active_axes(), url=request.build_absolute_uri
    )
    return _send(file)


def site_download(request):
    return _send(_site(request, active_axes()))


class DownloadListView(TemplateView):
    """/data/: every download with its size and the date its data last changed, and the licence."""

    template_name = "opendata/download_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        url = self.request.build_absolute_uri
        axes = active_axes()
        rankings, rankings_updated = _rankings(self.request, axes)
        site = _site(self.request, axes, rankings=rankings)
        chips, chips_updated = _chips(self.request)
        page = KeysFirstPaginator(selectors.vendor_versions_with_documents(), PROFILES_PER_PAGE).get_page(
            self.request.GET.get("page")
        )
        context.update(
            licence=exports.LICENCE,
            licence_note=exports.LICENCE_NOTE,
            site_files=[site],
            site_updated=site.updated,
            rankings_files=[files.rankings_file(rankings, f, axes=axes, url=url) for f in files.FORMATS],
            rankings_updated=rankings_updated,
            chips_files=[files.chips_file(chips["chips"], f, url=url) for f in files.FORMATS],
            prices_files=[files.prices_file(chips["prices"], f, url=url) for f in files.FORMATS],
            results_files=[files.results_file(chips["results"], f, url=url) for f in files.FORMATS],
            chips_updated=chips_updated,
            page_obj=page,
            profiles=files.profile_listing(page.object_list, axes=axes, url=url),
            comparisons=files.comparison_listing(axes=axes, url=url),
        )
        return context
