"""The one way a working copy's revision is recorded outside the admin's own saves."""

import reversion
from reversion.models import Version


def record_revision(obj, *, comment, user=None):
    """Save a revision of ``obj`` and everything it follows (a whole profile or comparison).

    Returns the primary key of ``obj``'s Version in it.
    """
    with reversion.create_revision():
        reversion.add_to_revision(obj)
        reversion.set_comment(comment)
        if user is not None and user.is_authenticated:
            reversion.set_user(user)
    return latest_version_id(obj)


def latest_version_id(obj):
    """The primary key of the newest revision of ``obj``, 0 when it has none."""
    if obj is None or obj.pk is None:
        return 0
    return latest_version_id_of(type(obj), obj.pk)


def latest_version_id_of(model, object_id):
    """The same, from the model and the primary key alone (no need to load the item)."""
    versions = Version.objects.get_for_object_reference(model, object_id)
    return versions.order_by("-pk").values_list("pk", flat=True).first() or 0
