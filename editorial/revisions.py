import reversion


def record_revision(obj, *, comment, user=None):
    """Save a revision of ``obj`` and everything it follows (a whole profile or comparison)."""
    with reversion.create_revision():
        reversion.add_to_revision(obj)
        reversion.set_comment(comment)
        if user is not None:
            reversion.set_user(user)
