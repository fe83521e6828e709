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
    data = [product, *faq_page(profile.faqs)]
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
