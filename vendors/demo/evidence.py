"""How the demo's data becomes a citation's evidence: which sources of the reference's
contradictions still partly support it, and one page's texts for one row joined as one
citation's words with one support."""

from claims.models import QUOTE_MAX, Support

# The sources of trainium_sources.json's ``contradictions`` whose issue says the claim still holds
# in part ("20TB", "AWS only" with AI Factories, "up to 1 million", customers): the rest contradict.
PARTLY_CONTRADICTING = {
    "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trn3-arch.html",
    "https://www.aibase.com/news/23291",
    "https://www.refactored.pro/blog/2025/12/3/from-cloud-agnostic-to-ai-sovereign-architecting-your-private-ai-factory-with-aws",
    "https://hyper.ai/en/stories/3eb11dbda7caa334001794a9c55a5d81",
    "https://aidigest.shelfcritter.com/topics/uber",
}


QUOTE_JOIN = " … "


def overall_support(supports):
    """One citation's support from its texts' own: full or contradicting when all are, else partial."""
    given = set(supports)
    return given.pop() if len(given) == 1 else Support.PARTIAL


def join_quotes(quotes):
    """The file's quotes from one page for one row, each once, as one citation's words: joined
    by an ellipsis, and cut at a word with one when they pass the citation's limit."""
    text = QUOTE_JOIN.join(dict.fromkeys(quote.strip() for quote in quotes if quote.strip()))
    if len(text) <= QUOTE_MAX:
        return text
    return text[: QUOTE_MAX - 1].rsplit(" ", 1)[0].rstrip(" ,;:…") + "…"
