"""Staff reach the admin only with a verified second factor, when settings say so."""

from urllib.parse import urlencode

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from . import services

# Set at sign-in (signals.py): whether the user had a second factor then. Read in optional mode,
# so that an admin page costs no query to find out.
ENROLLED_SESSION_KEY = "second_factor_enrolled"


def needs_second_factor(request: HttpRequest) -> bool:
    """A signed-in staff member whose session has not passed the second factor, where one is
    asked for: always when it is required, else only from those who enrolled one."""
    user = request.user
    # is_verified: added to the user by django_otp's OTPMiddleware, unknown to the stubs.
    if not (user.is_authenticated and user.is_staff) or user.is_verified():  # type: ignore[attr-defined]
        return False
    if services.required():
        return True
    enrolled = request.session.get(ENROLLED_SESSION_KEY)
    if enrolled is None:
        enrolled = request.session[ENROLLED_SESSION_KEY] = services.is_enrolled(user)
    return enrolled


class SecondFactorMiddleware:
    """After django_otp's OTPMiddleware. A staff member between password and second factor is
    sent to the second-factor page from any admin page but sign-in and sign-out; elsewhere on
    the site they count as a visitor, so a draft preview or anything else staff may see waits
    for the second factor too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        admin = reverse("admin:index")
        open_paths = (reverse("admin:login"), reverse("admin:logout"), reverse("second_factor:verify"))
        if request.path.startswith(admin):
            if not request.path.startswith(open_paths) and needs_second_factor(request):
                query = urlencode({"next": request.get_full_path()})
                return HttpResponseRedirect(f"{reverse('second_factor:verify')}?{query}")
        elif needs_second_factor(request):
            request.user = AnonymousUser()
        return self.get_response(request)
