"""“Cite this page”: a profile version as plain text, BibTeX and CSL-JSON.

Every citation names the exact version's permanent address (/vendors/<slug>/v/<n>/), which
keeps showing that version, and the date its facts were verified by the one verified rule
(vendors/verification.py), so a reader who follows it sees what was cited.
"""

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
    published: object  # datetime
    verified: object  # date or None
    key: str

    @classmethod
    def of(cls, version, *, verification, request):
        path = reverse("vendors:version", kwargs={"slug": version.slug, "number": version.number})
        return cls(
            title=f"{version.name}: AI chip profile",
            url=request.build_absolute_uri(path),
            number=version.number,
            published=timezone.localtime(version.published_at),
            verified=verification.oldest,
            key=f"chipsite-{version.slug}-v{version.number}",
        )

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
            "container-title": PUBLISHER,
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
