"""Break sites and statements: what the scorer and the fix arm read from the truth (stdlib only)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from truth import decode_lines

LOOP_TYPE = "graph break in loop"
SHARED_MODELS = 3


@dataclass
class Site:
    """One line where Dynamo broke, over every run that broke there."""

    file: str
    line: int
    gb_types: list[str] = field(default_factory=list)
    gb_ids: set[str] = field(default_factory=set)
    runs: set[str] = field(default_factory=set)
    models: set[str] = field(default_factory=set)
    variants: set[str] = field(default_factory=set)
    skipped: bool = False

    @property
    def gb_type(self) -> str:
        """The break's own type; the chained "graph break in loop" only when nothing else was seen."""
        own = [t for t in self.gb_types if t != LOOP_TYPE]
        return own[0] if own else self.gb_types[0]

    @property
    def shared(self) -> bool:
        """Shared infrastructure: the same line breaks in runs of several models."""
        return len(self.models) >= SHARED_MODELS

    @property
    def only_in(self) -> str | None:
        """The variants it broke in, when it never broke in a base run."""
        kinds = sorted({v.split("-")[0] for v in self.variants})
        return None if "base" in kinds else "/".join(kinds)


def collect_sites(runs: dict[str, dict]) -> tuple[dict[tuple[str, int], Site], list[dict]]:
    """Sites by (file, line), and the breaks no package frame could place."""
    sites: dict[tuple[str, int], Site] = {}
    unplaced: list[dict] = []
    for rid, row in runs.items():
        for b in row.get("breaks", []):
            if not b.get("file"):
                unplaced.append(dict(b, run=rid))
                continue
            site = sites.setdefault((b["file"], b["line"]), Site(b["file"], b["line"]))
            for gb_type in (b.get("cause"), b["gb_type"]):
                if gb_type and gb_type not in site.gb_types:
                    site.gb_types.append(gb_type)
            if b.get("gb_id"):
                site.gb_ids.add(b["gb_id"])
            site.runs.add(rid)
            site.models.add(row["model"])
            site.variants.add(row["variant"])
            site.skipped |= bool(b.get("skipped"))
    return sites, unplaced


def reached(runs: dict[str, dict], key: str = "reached") -> dict[str, set[int]]:
    """Union over runs of the lines per file (``reached``: run eagerly and traced by Dynamo)."""
    out: dict[str, set[int]] = {}
    for row in runs.values():
        for f, text in row.get(key, {}).items():
            out.setdefault(f, set()).update(decode_lines(text))
    return out


class Statements:
    """Maps a line to the line span of the statement it belongs to (compound: the header only)."""

    def __init__(self, source: str) -> None:
        self.span: dict[int, tuple[int, int]] = {}
        self.lines = source.splitlines()
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt):
                start, end = node.lineno, node.end_lineno or node.lineno
                body = getattr(node, "body", None)
                if isinstance(body, list) and body and isinstance(body[0], ast.AST):
                    end = max(start, body[0].lineno - 1)
                for decorator in getattr(node, "decorator_list", []):
                    self._set(decorator.lineno, decorator.end_lineno or decorator.lineno)
                self._set(start, end)

    def _set(self, start: int, end: int) -> None:
        for n in range(start, end + 1):
            old = self.span.get(n)
            if old is None or (old[1] - old[0]) >= (end - start):
                self.span[n] = (start, end)

    def of(self, line: int) -> tuple[int, int]:
        return self.span.get(line, (line, line))

    def text(self, line: int) -> str:
        return self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""


def statements_for(root: Path, files) -> dict[str, Statements]:
    """Statements of each package file (relative path -> Statements); unreadable files parse empty."""
    out = {}
    for f in files:
        try:
            out[f] = Statements((root / f).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            out[f] = Statements("")
    return out
