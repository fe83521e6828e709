from django.apps import AppConfig


class ChipsiteConfig(AppConfig):
    """The site itself: sign-in logging (chipsite.auth) connects here."""

    name = "chipsite"
    verbose_name = "chipsite"

    def ready(self):
        from . import auth  # noqa: F401 - connects the sign-in signal receivers
