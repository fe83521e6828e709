"""What every download shares: the licence, how a date and a source are written, the
scoring scale, and the addresses of profiles and versions."""

from django.urls import reverse

from vendors.models import SCORE_MAX, SCORE_MIN, total_max

LICENCE = {
    "name": "Creative Commons Attribution 4.0 International (CC BY 4.0)",
    "id": "CC-BY-4.0",
    "url": "https://creativecommons.org/licenses/by/4.0/",
    "attribution": "chipsite",
}
LICENCE_NOTE = (
    "You may share and adapt this data for any purpose, including commercially, if you credit "
    "“chipsite” and link to the licence. Each value names the sources it rests on."
)


def iso(day):
    return day.isoformat() if day else None


def source_dict(source):
    """A source as the downloads give it: the document's own fields."""
    return source.model_dump(mode="json")


def evidence_dict(evidence):
    """A citation's evidence as the downloads give it beside its source: the words and support."""
    if evidence is None:
        return {}
    return {"quote": evidence.quote, "support": evidence.support}


def scale(axes):
    return {
        "score_min": SCORE_MIN,
        "score_max": SCORE_MAX,
        "total_max": total_max(len(axes)),
        "axes": [axis.name for axis in axes],
    }


class Paths:
    """A profile's and a version's address for many rows at once: each URL pattern is
    reversed once, then filled in (a slug needs no quoting), not reversed once a row."""

    SLUG, NUMBER = "slug-placeholder", 987654321

    def __init__(self):
        self._profile = reverse("vendors:detail", kwargs={"slug": self.SLUG})
        self._version = reverse("vendors:version", kwargs={"slug": self.SLUG, "number": self.NUMBER})

    def profile(self, slug):
        return self._profile.replace(self.SLUG, slug)

    def version(self, slug, number):
        return self._version.replace(self.SLUG, slug).replace(str(self.NUMBER), str(number))
