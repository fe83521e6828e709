"""The demo's open corrections: where public sources disagree with the reference profile's
wording (``contradictions`` in vendors/demo/trainium_sources.json), sent as a reader would."""

import json

from vendors.demo import REFERENCE_SOURCES
from vendors.models import Fact, Vendor

from .models import Correction

VENDOR_SLUG = "aws-trainium"


def load(report):
    vendor = Vendor.objects.filter(slug=VENDOR_SLUG).first()
    if vendor is None:
        return
    data = json.loads(REFERENCE_SOURCES.read_text())
    facts = {
        fact.attribute.name: fact for fact in Fact.objects.filter(vendor=vendor).select_related("attribute")
    }
    for item in data["contradictions"]:
        fact = facts.get(item["label"])
        part = f"{item['label']}: {fact.value}" if fact else f"{item['label'].capitalize()}: {item['claim']}"
        problem = f"{item['issue']} The source says: “{item['quote']}”"
        _, created = Correction.objects.get_or_create(
            vendor=vendor,
            source_url=item["source_url"],
            part=part[:300],
            defaults={"fact": fact, "problem": problem[:2000]},
        )
        report.count("open corrections", created)
