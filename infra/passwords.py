"""A password may not contain who it belongs to.

Django's UserAttributeSimilarityValidator compares the whole password with the username and
lets ``pub1pub1pub1`` through for ``pub1``: the similarity of a short name to a long password
is low. This check looks for the name inside the password instead.
"""

from typing import Any

from django.core.exceptions import ValidationError


class ContainsNameValidator:
    """Refuses a password that contains the username or the e-mail address's part before the
    ``@``, in any case. Parts shorter than ``min_part_length`` are not looked for: a user named
    ``al`` could otherwise not use "always" or "portal"."""

    def __init__(self, min_part_length: int = 3) -> None:
        self.min_part_length = min_part_length

    def _names(self, user: Any) -> list[tuple[str, str]]:
        username = str(getattr(user, "get_username", lambda: "")() or "")
        local_part = str(getattr(user, "email", "") or "").rpartition("@")[0]
        return [("the username", username), ("the e-mail address before its @", local_part)]

    def validate(self, password: str, user: Any = None) -> None:
        if user is None:
            return
        folded = password.casefold()
        for what, name in self._names(user):
            if len(name) >= self.min_part_length and name.casefold() in folded:
                raise ValidationError(
                    "This password contains %(what)s; choose one that does not.",
                    code="password_contains_name",
                    params={"what": what},
                )

    def get_help_text(self) -> str:
        return "Your password can’t contain your username or the part of your e-mail address before the @."
