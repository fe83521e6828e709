"""What the browser tests share: where screenshots go, and reading a PNG's size.

Screenshots land in docs/screenshots (shown by the README) only when asked for with
WRITE_SCREENSHOTS=1; otherwise in a temporary folder, so a test run leaves the tree clean.
"""

import os
import struct
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = (
    REPO_ROOT / "docs" / "screenshots"
    if os.environ.get("WRITE_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "chipsite-screenshots"
)
STYLESHEET = "/static/css/site.css"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from a PNG's IHDR chunk."""
    data = path.read_bytes()[:24]
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


# One address of every page type a visitor can reach, with the status it answers and a selector
# that shows the page has finished drawing (the API's page is drawn by Swagger UI's script).
FIVE_VENDORS = "/compare/vendors/amd-instinct/aws-trainium/cerebras/google-tpu/nvidia/"
PAGE_TYPES = {
    "/": (200, "table.rankings"),
    "/?w-performance=3&w-momentum-2026=0": (200, "td.yours"),
    "/vendors/": (200, ".cards"),
    "/vendors/?lane=merchant-gpu&lane=hyperscaler-custom-silicon&min_total=15": (200, "main h1"),
    "/vendors/aws-trainium/": (200, "table.scores"),
    "/vendors/aws-trainium/changes/": (200, "main h1"),
    "/vendors/aws-trainium/v/1/": (200, "table.scores"),
    "/lanes/": (200, "main h1"),
    "/lanes/merchant-gpu/": (200, "main h1"),
    "/compare/": (200, "main h1"),
    "/compare/google-tpu-vs-aws-trainium-vs-nvidia-gpu/": (200, "table.compare"),
    FIVE_VENDORS: (200, "table.compare"),
    "/search/?q=HBM3e": (200, "main h1"),
    "/data/": (200, "table.downloads"),
    "/chips/?min_memory=150&sort=-bandwidth": (200, "table.chip-table"),
    "/chips/compare/?chips=trainium3,tpu7x,mi355x": (200, "table.chip-compare"),
    "/chips/mi300x/": (200, "svg.price-svg"),
    "/chips/trends/": (200, "svg.trend-svg"),
    "/chips/fit/?params=405&bits=16": (200, "main h1"),
    "/api/v1/docs/": (200, ".opblock"),
    "/no-such-page/": (404, "main h1"),
}


def whole_page_screenshot(page, path):
    """The whole page in one picture, with sticky bars where a reader meets them at the end.

    A full-page screenshot of a short window paints a sticky bar (the rankings' "Compare
    selected") over the rows in the middle; a window as tall as the page puts it in place.
    """
    size = page.viewport_size
    height = page.evaluate("document.scrollingElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": height})
    page.screenshot(path=str(path))
    page.set_viewport_size(size)
