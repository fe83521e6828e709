from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "What `make run` does before serving, in one process: migrate, load the demo content "
        "(load_demo), create the demo logins (demo_superuser). Safe to run again."
    )

    def handle(self, *args, **options):
        call_command("migrate", interactive=False, stdout=self.stdout)
        call_command("load_demo", stdout=self.stdout)
        call_command("demo_superuser", stdout=self.stdout)
