"""The read API, version 1: anonymous, read-only JSON of live published versions.

Mounted at /api/v1/ (chipsite/urls.py); api/middleware.py answers what is not an operation
(other methods, the rate limit, CORS, errors from outside the API as JSON). Pages and the API
share the page cache (editorial/cache.py): the same ETag, 304 and Cache-Control.
"""

from django.http import Http404
from django.urls import reverse
from ninja import NinjaAPI, Swagger
from ninja.errors import HttpError, ValidationError
from ninja.renderers import JSONRenderer

from infra.stored import unrecorded
from vendors.filters import TOTAL_THRESHOLDS
from vendors.models import SCORE_MAX, SCORE_MIN
from vendors.selectors import active_axes, lanes_with_vendor_counts

from .views import router

DESCRIPTION = """\
chipsite's editorial database of AI-chip vendors as data: the live published version of every
profile and editorial comparison, each value with its sources, whether the vendor stated it, and
the date an editor last verified it. Drafts and unpublished changes are never here.

Anonymous and read-only. Responses carry an `ETag` (send `If-None-Match` for a `304`) and
`Cache-Control`; any origin may read them (CORS). Each address may make a limited number of
requests a minute: beyond it the answer is `429` with `Retry-After`. Errors are JSON:
`{"status": 404, "message": "..."}`. Text that editors write (summaries, verdicts, answers) is
Markdown.
"""


class DocsPage(Swagger):
    """Swagger UI inside the site's own page (templates/api/docs.html): its header, a heading
    and landmarks. Deep links are off: Swagger UI puts them as links inside each operation's
    button, a control inside a control that keyboards and screen readers cannot use. Syntax
    highlighting is off: its colours on its dark background read under 4.5:1."""

    template = "api/docs.html"


class Renderer(JSONRenderer):
    json_dumps_params = {"ensure_ascii": False}  # “quotes” and names as written, in UTF-8


class ReadAPI(NinjaAPI):
    def get_openapi_schema(self, **kwargs):
        """The document, with the filters that depend on the data: the lanes there are, and
        one ``min_<axis>`` per active axis, as the vendor list offers them."""
        schema = super().get_openapi_schema(**kwargs)
        for operations in schema["paths"].values():
            operation = operations.get("get", {})
            if operation.get("operationId") == "listVendors":
                _describe_vendor_filters(operation)
        return schema


def _describe_vendor_filters(operation):
    parameters = operation.setdefault("parameters", [])
    with unrecorded():  # the lanes' slugs alone, which every page shows ("site"), not their counts
        slugs = [lane.slug for lane in lanes_with_vendor_counts()]
    for parameter in parameters:
        if parameter["name"] == "lane" and slugs:
            parameter["schema"] = {"type": "array", "items": {"type": "string", "enum": slugs}}
        if parameter["name"] == "min_total":
            parameter["schema"] = {"type": "integer", "enum": TOTAL_THRESHOLDS}
    parameters.extend(
        {
            "in": "query",
            "name": f"min_{axis.slug}",
            "required": False,
            "description": f"Minimum score on {axis.name}.",
            "schema": {"type": "integer", "minimum": SCORE_MIN, "maximum": SCORE_MAX},
        }
        for axis in active_axes()
    )


api = ReadAPI(
    title="chipsite read API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    renderer=Renderer(),
    docs_url="/docs/",
    docs=DocsPage(
        settings={
            "defaultModelsExpandDepth": 0,
            "tryItOutEnabled": True,
            "deepLinking": False,
            "syntaxHighlight": False,
        }
    ),
)
api.add_router("", router)


def _error(request, status, message):
    return api.create_response(request, {"status": status, "message": message}, status=status)


@api.exception_handler(ValidationError)
def bad_parameters(request, exc):
    """A parameter of the wrong type or out of range: 400, naming each one."""
    problems = []
    for error in exc.errors:
        name = ".".join(str(part) for part in error.get("loc", ())[1:]) or "request"
        problems.append(f"{name}: {error.get('msg', 'not valid')}")
    return _error(request, 400, "; ".join(problems) + ".")


@api.exception_handler(Http404)
def not_found(request, exc):
    # ninja's root view raises one naming its docs page: say it in words instead.
    message = str(exc) if str(exc) and not str(exc).startswith("docs_url") else "Nothing here."
    docs = request.build_absolute_uri(reverse("api:openapi-view"))
    return _error(request, 404, f"{message} The operations are listed at {docs}")


@api.exception_handler(HttpError)
def http_error(request, exc):
    return _error(request, exc.status_code, str(exc))
