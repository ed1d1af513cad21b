"""Code-point columns (findings, fixes) to and from the negotiated LSP position encoding."""

from __future__ import annotations

import re

from lsprotocol import types

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(source: str) -> list[str]:
    """Lines as LSP and Python's tokenizer count them (only CR, LF and CRLF break lines)."""
    return _LINE_BREAK.split(source)


def _units(text: str, encoding: str) -> int:
    if text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Encoder:
    """Converts positions of one text snapshot; ``encoding`` is a PositionEncodingKind."""

    def __init__(self, lines: list[str], encoding: str = types.PositionEncodingKind.Utf16):
        self.lines = lines
        self.encoding = encoding or types.PositionEncodingKind.Utf16

    def position(self, line: int, col: int) -> types.Position:
        """LSP position of 1-based ``line`` and code-point ``col`` (clamped to the text)."""
        index = max(0, line - 1)
        if index >= len(self.lines):
            return types.Position(line=len(self.lines) - 1, character=_units(self.lines[-1], self.encoding))
        text = self.lines[index]
        return types.Position(line=index, character=_units(text[: max(0, col)], self.encoding))

    def range(self, line: int, col: int, end_line: int, end_col: int) -> types.Range:
        """LSP range of a finding-style span."""
        return types.Range(start=self.position(line, col), end=self.position(end_line, end_col))

    def from_client(self, position: types.Position) -> tuple[int, int]:
        """(1-based line, code-point column) of a client position, clamped to the text."""
        index = min(max(0, position.line), len(self.lines) - 1)
        text = self.lines[index]
        if text.isascii() or self.encoding == types.PositionEncodingKind.Utf32:
            return index + 1, min(position.character, len(text))
        units = 0
        for col, char in enumerate(text):
            if units >= position.character:
                return index + 1, col
            units += _units(char, self.encoding)
        return index + 1, len(text)
