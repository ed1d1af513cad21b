"""Text edits in finding coordinates (1-based lines, 0-based code-point columns)."""

from __future__ import annotations

from dataclasses import dataclass


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
    preferred: bool = False
    kind: str | None = None


def line_starts(text: str) -> list[int]:
    """Offsets of the start of each line (index 0 is line 1)."""
    starts = [0]
    index = text.find("\n")
    while index != -1:
        starts.append(index + 1)
        index = text.find("\n", index + 1)
    return starts


def offset_of(starts: list[int], text: str, line: int, col: int) -> int:
    """String offset of a (1-based line, code-point column) position, clamped to the text."""
    if line - 1 >= len(starts):
        return len(text)
    return min(starts[line - 1] + col, len(text))


def position_of(starts: list[int], offset: int) -> tuple[int, int]:
    """(1-based line, column) of a string offset."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1, offset - starts[lo]


def apply_edits(text: str, edits) -> str:
    """Apply non-overlapping edits (any order) to ``text``."""
    starts = line_starts(text)
    spans = sorted(((offset_of(starts, text, e.line, e.col), offset_of(starts, text, e.end_line, e.end_col), e.new_text)
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
    starts = line_starts(text)
    line, col = position_of(starts, start + prefix)
    end_line, end_col = position_of(starts, end - suffix)
    return TextEdit(line, col, end_line, end_col, replacement[prefix:len(replacement) - suffix])


def code_point_col(line_text: str, byte_col: int) -> int:
    """An ``ast`` UTF-8 byte column as a code-point column."""
    return len(line_text.rstrip("\r").encode()[:byte_col].decode(errors="ignore"))
