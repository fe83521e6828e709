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
