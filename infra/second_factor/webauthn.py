"""Passkeys belong to the host the site is served from.

The relying party ID and the one origin a ceremony may come from are the request's own host
and scheme: ALLOWED_HOSTS has vetted the host, and a page on any other origin (a look-alike
site relaying to ours) gets a client origin that does not match, so its passkey is refused.
"""

from django.http import HttpRequest
from django.http.request import split_domain_port
from django_otp_webauthn.helpers import WebAuthnHelper


def relying_party_id(request: HttpRequest) -> str:
    return split_domain_port(request.get_host())[0]


class SameOriginHelper(WebAuthnHelper):
    def get_allowed_origins(self) -> list[str]:
        return [f"{self.request.scheme}://{self.request.get_host()}"]
