"""``manage.py load_demo``: each app's demo loader in turn, in INSTALLED_APPS order.

An app takes part by naming its loader on its AppConfig (``demo_loader = "app.demo.load"``);
a loader takes the shared Report and adds what it created. The workflow app names none.
"""

from dataclasses import dataclass, field

from django.apps import apps
from django.db import transaction
from django.utils.module_loading import import_string


@dataclass
class Report:
    created: dict = field(default_factory=dict)

    def count(self, kind, created):
        if created:
            self.created[kind] = self.created.get(kind, 0) + 1

    def __str__(self):
        if not self.created:
            return "Nothing to do: the demo content is already there."
        return "Created " + ", ".join(f"{n} {kind}" for kind, n in self.created.items()) + "."


class DryRun(Exception):
    pass


def load_demo(*, dry_run: bool = False) -> Report:
    """Load the demo content in one transaction; with dry_run, report and roll back."""
    report = Report()
    try:
        with transaction.atomic():
            for config in apps.get_app_configs():
                if loader := getattr(config, "demo_loader", None):
                    import_string(loader)(report)
            if dry_run:
                raise DryRun
    except DryRun:
        pass
    return report
