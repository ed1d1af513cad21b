"""Generate `docs/rules/FGxxx.md` pages and an index from the catalog.

Run as ``python -m fullgraph.rules.docs docs/rules``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fullgraph.rules.catalog import RULES


def index_markdown() -> str:
    """The index page: one table row per rule."""
    rows = ["# fullgraph rules", "",
            "Generated from `server/fullgraph/rules/` by `python -m fullgraph.rules.docs docs/rules`.", "",
            "| code | name | summary | fix | severity |", "|---|---|---|---|---|"]
    for r in RULES.values():
        summary = r.summary.replace("|", "\\|")
        rows.append(f"| [{r.code}]({r.code}.md) | {r.name} | {summary} | "
                    f"{r.fix_kind or '-'} | {r.severity} |")
    return "\n".join(rows) + "\n"


def write_docs(folder: str | Path) -> list[Path]:
    """Write every page (and README.md) into `folder`; returns the written paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for rule in RULES.values():
        page = out / f"{rule.code}.md"
        page.write_text(rule.doc_markdown(), encoding="utf-8")
        written.append(page)
    index = out / "README.md"
    index.write_text(index_markdown(), encoding="utf-8")
    written.append(index)
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m fullgraph.rules.docs OUTPUT_FOLDER", file=sys.stderr)
        return 2
    print(f"wrote {len(write_docs(argv[0]))} pages to {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
