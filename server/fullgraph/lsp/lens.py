"""CodeLens above each compiled entry: ``N likely graph breaks · M fixable`` (Fix all when M > 0).

The counts come from the published analysis the lens is asked about, so they always match
the squiggles of that version. Syntax errors (FG000) and recompilation notes (FG901) are not
graph breaks and are not counted.
"""

from __future__ import annotations

from lsprotocol import types

from fullgraph.lsp.documents import SYNTAX_ERROR, Analysis
from fullgraph.lsp.positions import Encoder

NOT_BREAKS = frozenset((SYNTAX_ERROR, "FG901"))


def _belongs(finding, entry) -> bool:
    named = finding.data.get("entry")
    if named:
        return named == entry.message
    return entry.line <= finding.line <= entry.end_line


def is_break(finding) -> bool:
    """Whether a finding counts as a likely graph break (in the lens and the status bar)."""
    return finding.code not in NOT_BREAKS


def lens_counts(analysis: Analysis) -> list[tuple]:
    """Per compiled entry with breaks: (entry, breaks, fixable)."""
    out = []
    for entry in analysis.entries:
        mine = [f for f in analysis.findings if is_break(f) and _belongs(f, entry)]
        if mine:
            out.append((entry, len(mine), sum(1 for f in mine if f.rewritable())))
    return out


def lens_title(breaks: int, fixable: int) -> str:
    """``2 likely graph breaks · 1 fixable`` (no fixable part when nothing is)."""
    noun = "likely graph break" if breaks == 1 else "likely graph breaks"
    return f"{breaks} {noun}" + (f" · {fixable} fixable" if fixable else "")


def breaks_lenses(uri: str, analysis: Analysis, encoding: str, command: str | None) -> list[types.CodeLens]:
    """One lens per compiled entry with breaks; it runs ``command`` (uri, version) only when
    something is fixable and a command is given (None: the client cannot apply edits)."""
    enc = Encoder(analysis.lines, encoding)
    lenses = []
    for entry, breaks, fixable in lens_counts(analysis):
        runs = command if fixable and command else ""  # an empty command: the lens is plain text
        lenses.append(types.CodeLens(
            range=enc.range(entry.line, entry.col, entry.line, entry.col),
            command=types.Command(title=lens_title(breaks, fixable), command=runs,
                                  arguments=[uri, analysis.version] if runs else None)))
    return lenses
