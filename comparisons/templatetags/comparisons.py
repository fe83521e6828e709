"""``{% comparisons_for_profile vendor_id %}``: a profile's “Head-to-head comparisons”.

The comparisons app owns it, so the vendors app needs to know nothing of comparisons.
"""

from django import template

from ..selectors import comparisons_for

register = template.Library()


@register.inclusion_tag("comparisons/includes/for_profile.html")
def comparisons_for_profile(vendor_id):
    return {"comparisons": comparisons_for(vendor_id) if vendor_id else []}
