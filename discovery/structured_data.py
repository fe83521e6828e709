"""JSON-LD for search engines and assistants, built from what the page shows: the same
profile, sources, FAQs and order, so the structured data can never say more than the page."""

from django.urls import reverse
from django.utils.html import strip_tags

from vendors.markdown import render_markdown


def _text(markdown):
    return " ".join(strip_tags(render_markdown(markdown)).split())


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


def profile(request, profile, *, url):
    """A profile: the chip line as a Product by its maker, dated by the verified rule, citing
    every source the page lists; its FAQs as a FAQPage; where it sits, as breadcrumbs."""
    vendor = profile.vendor
    product = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": vendor.name,
        "url": request.build_absolute_uri(url),
        "brand": {"@type": "Organization", "name": vendor.company},
        "category": vendor.lane.name,
        "citation": [
            {"@type": "CreativeWork", "name": source.title, "url": source.url, "publisher": source.publisher}
            for source in profile.sources
        ],
    }
    if vendor.summary:
        product["description"] = _text(vendor.summary)
    if profile.verification.oldest:
        product["dateModified"] = profile.verification.oldest.isoformat()
    data = [product]
    if profile.faqs:
        data.append(
            {
                "@context": "https://schema.org",
                "@type": "FAQPage",
                "mainEntity": [
                    {
                        "@type": "Question",
                        "name": faq.question,
                        "acceptedAnswer": {"@type": "Answer", "text": _text(faq.answer)},
                    }
                    for faq in profile.faqs
                ],
            }
        )
    data.append(
        breadcrumbs(
            request,
            [
                ("Rankings", reverse("vendors:rankings")),
                (vendor.lane.name, vendor.lane.get_absolute_url()),
                (vendor.name, url),
            ],
        )
    )
    return data


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
