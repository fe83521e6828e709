from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAME = "editor"
PASSWORD = "chipsite-demo"


class Command(BaseCommand):
    help = "Create the demo superuser for a laptop (DEBUG only) and print its login."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("Refusing to create a demo superuser with DEBUG off.")
        User = get_user_model()
        if not User.objects.filter(username=USERNAME).exists():
            User.objects.create_superuser(USERNAME, "editor@example.com", PASSWORD)
        self.stdout.write(
            self.style.SUCCESS(f"Demo login for /admin/: username “{USERNAME}”, password “{PASSWORD}”.")
        )
