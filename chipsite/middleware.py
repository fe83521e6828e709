"""Site-wide response headers Django does not set itself."""

from django.conf import settings


class PermissionsPolicyMiddleware:
    """``Permissions-Policy`` from settings.PERMISSIONS_POLICY: ``{"camera": []}`` -> ``camera=()``."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(allowed)})" for feature, allowed in settings.PERMISSIONS_POLICY.items()
        )

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.header)
        return response
