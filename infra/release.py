"""Which release of the code and templates is serving, as a short digest.

Cached pages, cached data and ETags carry it (infra/cache.py), so a deploy that changes a
template, a style sheet or the code that renders a page never serves a page cached by the
release before it, nor answers 304 to a browser holding one; during a rolling deploy each
release reads only its own pages, while the change numbers of what pages show stay shared
(infra/freshness.py), so a publish through either release is fresh on both. ``RELEASE`` in
the environment (a commit id) overrides it.
"""

import hashlib
import os
from pathlib import Path

SOURCES = ("chipsite", "infra", "editorial", "vendors", "comparisons", "discovery", "templates", "static")
SUFFIXES = {".py", ".html", ".css", ".js", ".svg", ".json"}


def release(base_dir: Path) -> str:
    if value := os.environ.get("RELEASE"):
        return value[:40]
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((base_dir / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(base_dir)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
