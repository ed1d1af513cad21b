"""The realistic fixtures under ``fixtures/`` and their ``.expected`` files (see fixtures/README.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"

_FINDING = re.compile(r"^(\d+):(\d+) (FG\d{3})$")
_XFAIL = re.compile(r"^# xfail: (.+)$")
_DYNAMO_ONLY = re.compile(r"^# dynamo-only: (\d+) ")
_SUPPRESSED = re.compile(r"#\s*fullgraph:\s*ignore")


@dataclass(frozen=True)
class Expected:
    """What a fixture should produce: ``(line, col, code)`` findings, sorted; a known
    disagreement (xfail reason); lines where Dynamo breaks but no rule applies."""

    findings: tuple[tuple[int, int, str], ...]
    xfail: str | None
    dynamo_only: frozenset[int]


def fixture_sources() -> list[Path]:
    """Every fixture model (``fixtures/fixes/`` holds rewrite pairs, not fixtures)."""
    return sorted(p for p in FIXTURES_DIR.rglob("*.py") if "fixes" not in p.relative_to(FIXTURES_DIR).parts)


def fixture_id(path: Path) -> str:
    return path.relative_to(FIXTURES_DIR).with_suffix("").as_posix()


def read_expected(path: Path) -> Expected:
    """Parse ``<fixture>.expected``: ``line:col CODE`` lines and ``#`` comments."""
    findings, xfail, dynamo_only = [], None, set()
    for text in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines():
        if m := _FINDING.match(text):
            findings.append((int(m.group(1)), int(m.group(2)), m.group(3)))
        elif m := _XFAIL.match(text):
            xfail = m.group(1)
        elif m := _DYNAMO_ONLY.match(text):
            dynamo_only.add(int(m.group(1)))
        elif text and not text.startswith("#"):
            raise ValueError(f"{path.name}: bad expected line {text!r}")
    return Expected(tuple(sorted(findings)), xfail, frozenset(dynamo_only))


def suppressed_lines(path: Path) -> set[int]:
    """Lines carrying a ``# fullgraph: ignore`` comment."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {n for n, text in enumerate(lines, start=1) if _SUPPRESSED.search(text)}


def has_factory(path: Path) -> bool:
    """Package ``__init__`` files hold no model; every other fixture has ``fullgraph_example``."""
    return path.name != "__init__.py"
