"""Text positions: the one notion of a line every layer uses.

Lines break at CR, LF and CRLF only, as Python's tokenizer and LSP count them (``str.splitlines``
also breaks at form feeds, U+2028 and other separators, which neither does). Columns are code
points unless a function says otherwise; lines are 1-based where a function takes a line number.
Standard library only: the confirmation worker loads this file by path.
"""

from __future__ import annotations

import io
import re
import tokenize
from bisect import bisect_right

LINE_BREAK = re.compile(r"\r\n|\r|\n")
UNIT_ENCODINGS = ("utf-8", "utf-16", "utf-32")  # LSP's PositionEncodingKind values


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line ends (``n`` breaks give ``n + 1`` lines)."""
    if "\r" not in text:
        return text.split("\n")
    return LINE_BREAK.split(text)


def names_a_line(text: str) -> bool:
    """Whether `text` (a decline reason) names a line of its file ("... (line 355)"): it goes
    stale when an edit moves that line."""
    return NAMES_LINE.search(text) is not None


NAMES_LINE = re.compile(r"\bline (\d+)")


def common_ends(a: list[str], b: list[str]) -> tuple[int, int]:
    """How many leading and trailing lines `a` and `b` share (not overlapping): what lies between
    them is what changed."""
    most = min(len(a), len(b))
    head = common_prefix(a, b, most)
    return head, common_prefix(a[::-1], b[::-1], most - head)


def common_prefix(a: list[str], b: list[str], most: int) -> int:
    """How many leading lines `a` and `b` share, at most `most` (a binary search over slice
    comparisons, which run in C: a loop over the lines cost milliseconds per keystroke)."""
    low, high = 0, most
    while low < high:
        mid = (low + high + 1) // 2
        if a[low:mid] == b[low:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def source_encoding(data: bytes) -> str | None:
    """The encoding Python reads a source file's bytes in (a PEP 263 coding line, a UTF-8 BOM as
    `utf-8-sig`, else UTF-8), or None when the bytes do not decode in it."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None
    return encoding


def file_text(path: str) -> str:
    """A file's text for display and location lookups, in its source encoding (undecodable bytes
    replaced; "" when unreadable)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return ""
    return data.decode(source_encoding(data) or "utf-8", errors="replace")


def split_lines_keepends(text: str) -> list[str]:
    """The lines of ``text`` with their line ends; no empty last line (as ``splitlines(True)``)."""
    lines, start = [], 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[start:match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def has_line_break(text: str) -> bool:
    """True when ``text`` holds a CR or LF."""
    return "\n" in text or "\r" in text


def to_lf(text: str) -> str:
    """``text`` with every line end as LF (same lines, same columns, same ``ast``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def line_ends(text: str) -> list[str]:
    """The line end of each line that has one, in order."""
    return [m.group() for m in LINE_BREAK.finditer(text)]


def line_starts(text: str) -> list[int]:
    """Offsets of the start of each line (index 0 is line 1)."""
    return [0, *(m.end() for m in LINE_BREAK.finditer(text))]


class Text:
    """A text with its line starts: converts (line, column) positions and string offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_end(self, line: int) -> int:
        """Offset where 1-based ``line``'s text ends (before its line break)."""
        if line >= len(self.starts):
            return len(self.text)
        end = self.starts[line]
        if self.text[end - 1] == "\n" and end >= 2 and self.text[end - 2] == "\r":
            return end - 2
        return end - 1

    def line(self, line: int) -> str:
        """The text of 1-based ``line`` without its line end ("" outside the text)."""
        if not 0 < line <= len(self.starts):
            return ""
        return self.text[self.starts[line - 1]:self.line_end(line)]

    def offset(self, line: int, col: int) -> int:
        """String offset of (1-based ``line``, code-point ``col``), clamped to the line and the text."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        return start + min(max(col, 0), self.line_end(line) - start)

    def position(self, offset: int) -> tuple[int, int]:
        """(1-based line, code-point column) of a string offset."""
        offset = min(max(offset, 0), len(self.text))
        index = bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index]

    def ast_offset(self, line: int, byte_col: int) -> int:
        """String offset of an ``ast`` position (1-based line, UTF-8 byte column)."""
        return self.offset(line, code_point_col(self.line(line), byte_col))


def code_point_col(line_text: str, byte_col: int) -> int:
    """A UTF-8 byte column (``ast``'s ``col_offset``) as a code-point column."""
    if line_text.isascii():
        return byte_col
    return len(line_text.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", errors="ignore"))


def units(text: str, encoding: str) -> int:
    """Length of ``text`` in code units of ``encoding`` (``utf-8``, ``utf-16`` or ``utf-32``)."""
    if text.isascii() or encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def col_from_units(line_text: str, count: int, encoding: str) -> int:
    """The code-point column ``count`` code units of ``encoding`` into ``line_text`` (clamped)."""
    count = max(count, 0)
    if line_text.isascii() or encoding == "utf-32":
        return min(count, len(line_text))
    seen = 0
    for col, char in enumerate(line_text):
        if seen >= count:
            return col
        seen += units(char, encoding)
    return len(line_text)
