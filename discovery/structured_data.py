"""JSON-LD for search engines and assistants, built from what the page shows: the same
profile, sources, FAQs and order, so the structured data can never say more than the page."""

from html import unescape

from django.urls import reverse
from django.utils.html import strip_tags

from chips import quantities
from claims.citation import PUBLISHER
from claims.markdown import render_markdown
from vendors.models import SCORE_MIN


def _text(markdown):
    """Markdown as the plain words a reader sees (``AT&T``, not ``AT&amp;T``)."""
    return " ".join(unescape(strip_tags(render_markdown(markdown))).split())


def breadcrumbs(request, trail):
    """``trail``: [(name, path)], from the home page down to this one."""
    return {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": n, "name": name, "item": request.build_absolute_uri(path)}
            for n, (name, path) in enumerate(trail, start=1)
        ],
    }


def _source(source):
    data = {"@type": "CreativeWork", "name": source.title, "url": source.url}
    if source.publisher:
        data["publisher"] = {"@type": "Organization", "name": source.publisher}
    return data


def publisher(request):
    """The site, as the author of its reviews and the publisher of its pages."""
    return {
        "@type": "Organization",
        "name": PUBLISHER,
        "url": request.build_absolute_uri(reverse("vendors:rankings")),
    }


def review(request, profile):
    """The editorial total as a Review by the site, on the scale the page shows (every active
    axis from SCORE_MIN to SCORE_MAX); None unless every active axis is scored, since a
    partial total is not on that scale."""
    axes = len(profile.score_rows)
    if not axes or profile.total is None or not all(row.score for row in profile.score_rows):
        return None
    data = {
        "@type": "Review",
        "author": publisher(request),
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": profile.total,
            "bestRating": profile.total_max,
            "worstRating": SCORE_MIN * axes,
        },
    }
    if profile.vendor.verdict:
        data["reviewBody"] = _text(profile.vendor.verdict)
    return data


def profile(request, profile):
    """A profile: the page as a WebPage dated by the verified rule and citing every source it
    lists, about the chip line as a Product reviewed by the site (or, until it is scored, about
    its maker: a Product needs a review); its FAQs as a FAQPage; where it sits, as breadcrumbs."""
    vendor = profile.vendor
    url = vendor.get_absolute_url()
    brand = {"@type": "Organization", "name": vendor.company}
    description = _text(vendor.summary) if vendor.summary else ""
    subject = brand
    rating = review(request, profile)
    if rating is not None:
        subject = {
            "@type": "Product",
            "name": vendor.name,
            "url": request.build_absolute_uri(url),
            "brand": brand,
            "category": vendor.lane.name,
            "review": rating,
        }
        if description:
            subject["description"] = description
        if vendor.logo_url:
            subject["image"] = request.build_absolute_uri(vendor.logo_url)
    page = {
        "@context": "https://schema.org",
        "@type": "WebPage",
        "name": vendor.name,
        "url": request.build_absolute_uri(url),
        "publisher": publisher(request),
        "mainEntity": subject,
        "citation": [_source(source) for source in profile.sources],
    }
    if description:
        page["description"] = description
    if profile.verification.oldest:
        page["dateModified"] = profile.verification.oldest.isoformat()
    trail = [
        ("Rankings", reverse("vendors:rankings")),
        (vendor.lane.name, vendor.lane.get_absolute_url()),
        (vendor.name, url),
    ]
    return [page, *faq_page(profile.faqs), breadcrumbs(request, trail)]


def faq_page(faqs):
    """The FAQs as a FAQPage, answers in plain words (nothing, when there are none)."""
    if not faqs:
        return []
    return [
        {
            "@context": "https://schema.org",
            "@type": "FAQPage",
            "mainEntity": [
                {
                    "@type": "Question",
                    "name": faq.question,
                    "acceptedAnswer": {"@type": "Answer", "text": _text(faq.answer)},
                }
                for faq in faqs
            ],
        }
    ]


def comparison(request, page, table):
    """An editorial comparison: its vendors as an ItemList in column order, its FAQs, and
    breadcrumbs."""
    url = page.get_absolute_url()
    vendors = {
        "@context": "https://schema.org",
        "@type": "ItemList",
        "name": page.title,
        "url": request.build_absolute_uri(url),
        "numberOfItems": len(table.vendors),
        "itemListElement": [
            {
                "@type": "ListItem",
                "position": n,
                "name": vendor.name,
                "url": request.build_absolute_uri(vendor.get_absolute_url()),
            }
            for n, vendor in enumerate(table.vendors, start=1)
        ],
    }
    trail = [("Comparisons", reverse("comparisons:list")), (page.title, url)]
    return [vendors, *faq_page(page.faqs), breadcrumbs(request, trail)]


def rankings(request, page):
    """The rankings page as an ItemList in rank order, numbered from the page's first rank."""
    return [
        {
            "@context": "https://schema.org",
            "@type": "ItemList",
            "name": "AI chip companies: the rankings",
            "itemListOrder": "https://schema.org/ItemListOrderDescending",
            "numberOfItems": page.paginator.count,
            "itemListElement": [
                {
                    "@type": "ListItem",
                    "position": page.start_index() + n,
                    "name": vendor.name,
                    "url": request.build_absolute_uri(vendor.get_absolute_url()),
                }
                for n, vendor in enumerate(page.object_list)
            ],
        },
        breadcrumbs(request, [("Rankings", reverse("vendors:rankings"))]),
    ]


def chips(request, chips):
    """A table of chips as an ItemList of Products, each number a PropertyValue with its unit,
    as the source gave it, and the month it became generally available as its releaseDate:
    ``chips`` are chips.selectors.LiveChip, in the page's order."""
    if not chips:
        return None

    def released(chip):
        """{"releaseDate": "2025-10"} when the chip is generally available, else nothing."""
        ga = [row for row in chip.availability if row.stage == "ga"]
        return {"releaseDate": f"{ga[0].month:%Y-%m}"} if ga else {}

    return {
        "@context": "https://schema.org",
        "@type": "ItemList",
        "itemListElement": [
            {
                "@type": "ListItem",
                "position": n,
                "item": {
                    "@type": "Product",
                    "name": chip.name,
                    "brand": {"@type": "Brand", "name": chip.vendor.name},
                    "url": request.build_absolute_uri(chip.profile_url),
                    **released(chip),
                    "additionalProperty": [
                        {
                            "@type": "PropertyValue",
                            "name": spec.label,
                            "value": quantities.number(quantities.figure(spec.quantity)),
                            "unitText": spec.unit,
                            **({"description": spec.as_given} if spec.qualifier else {}),
                        }
                        for spec in chip.specs
                    ],
                },
            }
            for n, chip in enumerate(chips, start=1)
        ],
    }
