"""Query strings a view cannot use, refused before they reach it.

A NUL character is never meant in an address. PostgreSQL refuses it in text, so a value
carrying one that reaches a query is a 500 there (``/chips/compare/?chips=%00``). Pages whose
forms clean their own parameters (the vendor list, search) ignore such a value and say so;
a view that hands parameters straight to a query takes ``@refuses_nul``, which answers 400
saying what was wrong. tests/test_query_strings.py fuzzes every public address.
"""

from collections.abc import Callable
from functools import wraps
from typing import Concatenate

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict

NUL_REFUSED = "The address holds a character it cannot use (NUL).\n"


def holds_nul(query: QueryDict) -> bool:
    """Whether any name or value of ``query`` holds a NUL character."""
    return any("\x00" in name or any("\x00" in value for value in values) for name, values in query.lists())


def refuses_nul[**P](
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """A view that answers 400, unread, to a query string holding a NUL character."""

    @wraps(view)
    def checked(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if holds_nul(request.GET):
            return HttpResponseBadRequest(NUL_REFUSED, content_type="text/plain; charset=utf-8")
        return view(request, *args, **kwargs)

    return checked
