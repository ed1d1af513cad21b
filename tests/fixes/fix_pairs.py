"""Fixture pairs under ``fixtures/fixes/``: each ``*.in.py`` names its findings in a ``# fix:`` header."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from fullgraph.engine import analyze
from fullgraph.findings import Finding
from fullgraph.fixes import apply_edits, fixes_for

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "fixes"
HEADER = re.compile(r"^# fix(?: \(unsafe\))?: (.+)$", re.MULTILINE)
UNSAFE_HEADER = "# fix (unsafe):"  # the fixes change behaviour fix-all keeps: applied only with `unsafe`


def pair_inputs() -> list[Path]:
    """Every ``*.in.py`` fixture, sorted."""
    return sorted(ROOT.glob("*/*.in.py"))


def expected_path(path: Path) -> Path:
    return path.with_name(path.name.replace(".in.py", ".out.py"))


def header_rounds(source: str) -> list[list[tuple[str, int]]]:
    """The header's findings, ``# fix: FG301@13; FG101@95``: (code, line) items, in rounds separated
    by ``;``, each round's lines in the text the rounds before it left (a fix that enables another)."""
    match = HEADER.search(source)
    rounds = match.group(1).split(";") if match else []
    return [[(code, int(line)) for code, _, line in (item.strip().partition("@") for item in round_.split(","))]
            for round_ in rounds]


def header_codes(source: str) -> set[str]:
    """The codes the header's fixes remove."""
    return {code for round_ in header_rounds(source) for code, _ in round_}


def header_findings(source: str, path: str, items: list[tuple[str, int]] | None = None) -> list[Finding]:
    """The engine's findings that a fixture's ``# fix: FG101@12, FG301@20`` header names, or
    ``items`` (with what the engine knows there, which the fixes read); the first round's by default."""
    if items is None:
        rounds = header_rounds(source)
        items = rounds[0] if rounds else []
    found = {(f.code, f.line): f for f in analyze(source, path)}
    return [found.get((code, line)) or _unflagged(source, path, code, line) for code, line in items]


def _unflagged(source: str, path: str, code: str, line: int) -> Finding:
    """A finding for a shape the engine does not flag (a tensor `assert` with a literal message,
    which Dynamo already lowers by itself): every expression on the line counts as a known tensor."""
    assert "ORIGINAL_BREAKS = False" in source, f"{path}: the engine reports no {code} at line {line}"
    exprs = {ast.unparse(n) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.expr) and getattr(n, "lineno", 0) == line}
    return Finding(path, line, 0, line, 0, code, "", fix="trap", data={"tensors": sorted(exprs)})


def apply_header_fixes(source: str, path: str) -> str:
    """Apply each named finding's main fix (the first), round by round, in a round last line first
    so earlier positions stay valid."""
    for items in header_rounds(source):
        for finding in sorted(header_findings(source, path, items), key=lambda f: -f.line):
            fix = next(iter(fixes_for(source, finding)), None)
            assert fix is not None, f"{path}: no fix for {finding.code} at line {finding.line}"
            source = apply_edits(source, fix.edits)
    return source
