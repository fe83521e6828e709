"""“Cite this page”: a profile or comparison version as plain text, BibTeX and CSL-JSON.

Every citation names the exact version's permanent address (/vendors/<slug>/v/<n>/,
/compare/<slug>/v/<n>/), which keeps showing that version, and the date its facts were
verified by the one verified rule (claims/verification.py), so a reader who follows it sees
what was cited.
"""

import datetime as dt
import json
from dataclasses import dataclass

from django.template.defaultfilters import date as format_date
from django.urls import reverse
from django.utils import timezone

PUBLISHER = "chipsite"


@dataclass
class Citation:
    title: str
    url: str
    number: int
    published: dt.datetime
    verified: dt.date | None
    key: str
    downloads: dict[str, str]  # {"bib": path, "json": path}

    @classmethod
    def of(cls, version, *, verification, request):
        """A profile's version."""
        return cls.of_page(
            version,
            namespace="vendors",
            title=f"{version.name}: AI chip profile",
            key=f"chipsite-{version.slug}-v{version.number}",
            verified=verification.oldest,
            request=request,
        )

    @classmethod
    def of_page(cls, version, *, namespace, title, key, verified, request):
        """Any page with a ``version`` and ``citation`` URL in ``namespace`` taking slug and number."""
        address = {"slug": version.slug, "number": version.number}
        return cls(
            title=title,
            url=request.build_absolute_uri(reverse(f"{namespace}:version", kwargs=address)),
            number=version.number,
            published=timezone.localtime(version.published_at),
            verified=verified,
            key=key,
            downloads={
                format: reverse(f"{namespace}:citation", kwargs={**address, "format": format})
                for format in CITATION_FORMATS
            },
        )

    def download(self, format):
        """(content type, file content) for ``format``, or None for a format we do not write."""
        if format not in CITATION_FORMATS:
            return None
        content_type, render = CITATION_FORMATS[format]
        return content_type, render(self)

    @property
    def text(self):
        verified = f"; facts verified {format_date(self.verified, 'j M Y')}" if self.verified else ""
        return (
            f"{PUBLISHER}. “{self.title}.” Version {self.number}, published "
            f"{format_date(self.published, 'j M Y')}{verified}. {self.url}"
        )

    def bibtex(self):
        note = f"Version {self.number}" + (
            f"; facts verified {self.verified.isoformat()}" if self.verified else ""
        )
        fields = {
            "title": self.title,
            "author": f"{{{PUBLISHER}}}",
            "publisher": PUBLISHER,
            "year": str(self.published.year),
            "month": format_date(self.published, "b"),
            "url": self.url,
            "note": note,
            "urldate": timezone.localdate().isoformat(),
        }
        body = ",\n".join(
            f"  {name} = {{{value if name in {'url', 'author'} else _bibtex_escape(value)}}}"
            for name, value in fields.items()
        )
        return f"@misc{{{self.key},\n{body}\n}}\n"

    def csl(self):
        item = {
            "id": self.key,
            "type": "webpage",
            "title": self.title,
            "author": [{"literal": PUBLISHER}],
            "publisher": PUBLISHER,
            "URL": self.url,
            "version": str(self.number),
            "issued": {"date-parts": [[self.published.year, self.published.month, self.published.day]]},
            "accessed": {"date-parts": [list(timezone.localdate().timetuple()[:3])]},
        }
        if self.verified:
            item["note"] = f"Facts verified {self.verified.isoformat()}"
        return json.dumps([item], ensure_ascii=False, indent=2) + "\n"


def _bibtex_escape(value):
    return "".join("\\" + c if c in "{}&%$#_" else c for c in value)


CITATION_FORMATS = {
    "bib": ("application/x-bibtex; charset=utf-8", Citation.bibtex),
    "json": ("application/vnd.citationstyles.csl+json; charset=utf-8", Citation.csl),
}


def citation_response(citation, format):
    """The citation as a file for a reference manager; None for an unknown format."""
    from django.http import HttpResponse

    found = citation.download(format)
    if found is None:
        return None
    content_type, content = found
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{citation.key}.{format}"'
    return response
