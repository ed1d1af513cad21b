"""Code-point columns (findings, fixes) to and from the negotiated LSP position encoding."""

from __future__ import annotations

from lsprotocol import types

from fullgraph.text import col_from_units, units


class Encoder:
    """Converts positions of one text snapshot; ``encoding`` is a PositionEncodingKind."""

    def __init__(self, lines: list[str], encoding: str = types.PositionEncodingKind.Utf16):
        self.lines = lines
        self.encoding = encoding or types.PositionEncodingKind.Utf16

    def position(self, line: int, col: int) -> types.Position:
        """LSP position of 1-based ``line`` and code-point ``col`` (clamped to the text)."""
        index = max(0, line - 1)
        if index >= len(self.lines):
            return types.Position(line=len(self.lines) - 1, character=units(self.lines[-1], self.encoding))
        text = self.lines[index]
        return types.Position(line=index, character=units(text[: max(0, col)], self.encoding))

    def range(self, line: int, col: int, end_line: int, end_col: int) -> types.Range:
        """LSP range of a finding-style span."""
        return types.Range(start=self.position(line, col), end=self.position(end_line, end_col))

    def from_client(self, position: types.Position) -> tuple[int, int]:
        """(1-based line, code-point column) of a client position, clamped to the text."""
        index = min(max(0, position.line), len(self.lines) - 1)
        return index + 1, col_from_units(self.lines[index], position.character, self.encoding)
