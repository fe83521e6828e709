"""What the workflow knows of each kind of item: each app registers its own in AppConfig.ready().

The workflow app names no model: vendors and comparisons each hand it a Publication that
says how to write their published versions.
"""

_publications = {}
_version_hooks = []


class Publication:
    """How one kind of item is published. Subclass per app and register an instance."""

    model = None  # the working copy, e.g. Vendor
    version_model = None  # its PublishedVersion, e.g. VendorVersion
    noun = "item"
    diff_kinds = {}  # {model label: editorial.diff.Kind}: how its child rows read in a diff

    def document(self, obj):
        """The whole page as visitors would read it now, as JSON-ready data."""
        raise NotImplementedError

    def columns(self, document):
        """The version's indexed columns (slug, name, ...) taken from its document."""
        return {}

    def history_entry(self, document):
        """What the change log keeps of a version besides its date, changes and note."""
        return {}

    def after_write(self, version):
        """Write the version's child rows (indexed scores, member vendors, ...)."""

    def search_entries(self, document):
        """What site search finds in a version, as dicts: ``kind``, ``title`` (weighs most),
        ``keywords``, ``body`` (plain text), ``url`` (the exact section) and ``position``."""
        return []

    def content(self, document):
        """The document with anything that is not content (verified dates) left out."""
        return document

    def restamp(self, document, obj):
        """The document with the working copy's newer verified dates on unchanged rows, or itself."""
        return document

    def carry_verification(self, obj, document):
        """After a revert or discard: keep the newer verified dates ``document`` holds for unchanged rows."""


def register(publication):
    from .diff import describe_rows_as

    _publications[publication.model._meta.label_lower] = publication
    describe_rows_as(publication.diff_kinds)
    return publication


def publication_for(obj_or_model):
    return _publications[obj_or_model._meta.label_lower]


def publications():
    return list(_publications.values())


def next_scheduled(now):
    """When the next version scheduled to go live goes live, of any kind of item, or None.

    The page cache (infra.cache) asks it, so that a page cached now is not served past it."""
    moments = []
    for publication in publications():
        pending = (
            publication.version_model.objects.pending(at=now)
            .order_by("published_at")
            .values_list("published_at", flat=True)
            .first()
        )
        if pending is not None:
            moments.append(pending)
    return min(moments, default=None)


def on_version_written(hook):
    """Call ``hook(publication, version)`` after every published version is written.

    Other apps (site search) keep their own data about versions this way; the workflow
    knows them no more than it knows a model."""
    _version_hooks.append(hook)
    return hook


def version_written(version):
    """A new published version has been stored: its app's rows, then every hook."""
    publication = publication_for(version.item)
    publication.after_write(version)
    for hook in _version_hooks:
        hook(publication, version)
