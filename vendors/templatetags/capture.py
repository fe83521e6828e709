"""``{% capture name %}...{% endcapture %}``: render once, reuse the result.

base.html captures the page's title and description blocks so that <title>, the meta
description and the OpenGraph tags all say the same without each page repeating it.
"""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


class CaptureNode(template.Node):
    child_nodelists = ("nodelist",)  # so {% extends %} finds the blocks inside

    def __init__(self, nodelist, name):
        self.nodelist = nodelist
        self.name = name

    def render(self, context):
        # The output is already escaped template output: keep it from being escaped twice.
        context[self.name] = mark_safe(self.nodelist.render(context).strip())  # noqa: S308
        return ""


@register.tag
def capture(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("Usage: {% capture name %}...{% endcapture %}")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[1])
