from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

PASSWORD = "chipsite-demo"
# username: (group, superuser?) — a newsroom to try the workflow with.
DEMO_USERS = {
    "admin": (None, True),
    "editor": ("Editor", False),
    "editor2": ("Editor", False),
    "publisher": ("Publisher", False),
}


class Command(BaseCommand):
    help = "Create the demo logins for a laptop (DEBUG only) and print them."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("Refusing to create demo logins with DEBUG off.")
        User = get_user_model()
        hashed = None  # one hash for the four (each costs most of a second): a laptop's demo logins
        for username, (group, superuser) in DEMO_USERS.items():
            if User.objects.filter(username=username).exists():
                continue
            hashed = hashed or make_password(PASSWORD)
            user = User(
                username=username,
                email=f"{username}@example.com",
                password=hashed,
                is_staff=True,
                is_superuser=superuser,
            )
            user.save()
            if group:
                user.groups.add(Group.objects.get(name=group))
        names = ", ".join(f"“{name}”" for name in DEMO_USERS)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo logins for /admin/: {names} (superuser, two Editors, a Publisher), "
                f"each with the password “{PASSWORD}”."
            )
        )
