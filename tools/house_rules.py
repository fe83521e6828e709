"""The house's size rules, checked by `make check`: no module over 400 lines and no function
above cyclomatic complexity 20 (radon's grade C), in every app and the benchmark; tests and
migrations aside. Prints each module or function that breaks one, and exits 1 if any does."""

import sys
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400
MAX_COMPLEXITY = 20  # radon's grade C ends at 20
SKIPPED = {".venv", "tests", "migrations", "node_modules", "staticfiles", "media", "stored-pages"}


def modules():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if not SKIPPED.intersection(parts) and not any(part.startswith(".") for part in parts):
            yield path


def broken(path):
    text = path.read_text()
    name = path.relative_to(ROOT)
    lines = text.count("\n")
    if lines > MAX_LINES:
        yield f"{name}: {lines} lines (at most {MAX_LINES})"
    for block in cc_visit(text):
        if block.complexity > MAX_COMPLEXITY:
            where = f"{name}:{block.lineno} {block.fullname}"
            yield f"{where}: complexity {block.complexity} (at most {MAX_COMPLEXITY})"


def main():
    problems = [problem for path in modules() for problem in broken(path)]
    print("\n".join(problems) or "House rules kept: no module over 400 lines, no function above 20.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
