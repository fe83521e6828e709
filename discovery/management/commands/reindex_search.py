from django.core.management.base import BaseCommand
from django.db import transaction

from discovery.models import SearchEntry
from discovery.search import index_all


class Command(BaseCommand):
    help = "Rebuild site search from the published versions that are live or scheduled."

    def handle(self, *args, **options):
        with transaction.atomic():
            index_all()
        self.stdout.write(f"Indexed {SearchEntry.objects.count()} search entries.")
