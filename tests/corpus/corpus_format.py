"""Read the rule corpus: one example per file under ``examples/`` (see README.md).

Stdlib only, so the checker test and the accuracy bench can load it without torch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"

_EXPECT = re.compile(r"^# expect: (clean|FG\d{3}(?:, FG\d{3})*)\s*$")
_CHECKER_XFAIL = re.compile(r"^# checker-xfail: (.+)$")
_MARKER = re.compile(r"#\s*<-\s*((?:(?:FG|GB)\d{3,4}\s*)+)$")


@dataclass(frozen=True)
class Marker:
    """A line where the example breaks: the rule codes and the Dynamo ids expected there."""

    line: int
    codes: frozenset[str]
    gb_ids: frozenset[str]


@dataclass(frozen=True)
class Example:
    """One corpus file: its expected rule codes (empty for a counter-example) and break lines."""

    path: Path
    codes: frozenset[str]
    markers: tuple[Marker, ...]
    checker_xfail: str | None

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def clean(self) -> bool:
        return not self.codes

    def expected_findings(self) -> set[tuple[int, str]]:
        """``(line, code)`` pairs the checker should report."""
        return {(m.line, code) for m in self.markers for code in m.codes}


def parse_example(path: Path) -> Example:
    """Parse the header comments and the ``# <- FG101 GB0170`` markers of one file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = _EXPECT.match(lines[0]) if lines else None
    if not header:
        raise ValueError(f"{path.name}: first line must be '# expect: clean' or '# expect: FG101[, FG...]'")
    codes = frozenset() if header.group(1) == "clean" else frozenset(header.group(1).split(", "))
    xfail = next((m.group(1) for m in map(_CHECKER_XFAIL.match, lines[1:3]) if m), None)
    markers = []
    for number, text in enumerate(lines, start=1):
        found = _MARKER.search(text)
        if found:
            tokens = found.group(1).split()
            markers.append(
                Marker(
                    number,
                    frozenset(t for t in tokens if t.startswith("FG")),
                    frozenset(t for t in tokens if t.startswith("GB")),
                )
            )
    marked = {code for m in markers for code in m.codes}
    if marked != codes:
        raise ValueError(f"{path.name}: header codes {sorted(codes)} differ from marked codes {sorted(marked)}")
    return Example(path, codes, tuple(markers), xfail)


def load_examples(directory: Path = EXAMPLES_DIR) -> list[Example]:
    """Every example, sorted by file name."""
    return [parse_example(p) for p in sorted(directory.glob("*.py"))]


def rule_of(example: Example) -> str:
    """The rule an example belongs to, from its file name (``fg101_...`` -> ``FG101``)."""
    return example.name.split("_", 1)[0].upper()
