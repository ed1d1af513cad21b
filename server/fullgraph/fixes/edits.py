"""Text edits in finding coordinates (1-based lines, 0-based code-point columns)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from fullgraph.text import Text, line_ends


@dataclass(frozen=True)
class TextEdit:
    """Replace the range [(line, col), (end_line, end_col)) with ``new_text``."""

    line: int
    col: int
    end_line: int
    end_col: int
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A quick fix: a title and the non-overlapping edits that make it."""

    title: str
    edits: tuple[TextEdit, ...]
    preferred: bool = False  # fix-all applies it
    kind: str | None = None
    unsafe: bool = False  # it leaves or changes behaviour the user must accept: fix-all applies it only when asked


def apply_edits(text: str, edits) -> str:
    """Apply non-overlapping edits (any order) to ``text``."""
    positions = Text(text)
    spans = sorted(((positions.offset(e.line, e.col), positions.offset(e.end_line, e.end_col), e.new_text)
                    for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def minimal_edit(text: str, start: int, end: int, replacement: str) -> TextEdit | None:
    """The smallest edit turning ``text[start:end]`` into ``replacement``; None when equal."""
    old = text[start:end]
    if old == replacement:
        return None
    prefix = 0
    limit = min(len(old), len(replacement))
    while prefix < limit and old[prefix] == replacement[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == replacement[len(replacement) - 1 - suffix]:
        suffix += 1
    positions = Text(text)
    line, col = positions.position(start + prefix)
    end_line, end_col = positions.position(end - suffix)
    return TextEdit(line, col, end_line, end_col, replacement[prefix:len(replacement) - suffix])



def with_line_ends(edits, original: str) -> tuple[TextEdit, ...]:
    """Edits computed on ``original`` with LF line ends, each writing the line end of the line it
    starts on (fixes run on LF text: libcst and the rewrites know no other line end)."""
    ends = line_ends(original) if "\r" in original else []
    if not ends:
        return tuple(edits)
    return tuple(replace(e, new_text=e.new_text.replace("\n", ends[min(e.line, len(ends)) - 1])) if "\n" in e.new_text
                 else e for e in edits)
