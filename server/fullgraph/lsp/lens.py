"""CodeLens above each compiled entry: ``N likely graph breaks · Fix all``."""

from __future__ import annotations

from lsprotocol import types

from fullgraph.lsp.documents import SYNTAX_ERROR, Analysis
from fullgraph.lsp.positions import Encoder


def _belongs(finding, entry) -> bool:
    named = finding.data.get("entry")
    if named:
        return named == entry.message
    return entry.line <= finding.line <= entry.end_line


def breaks_lenses(uri: str, analysis: Analysis, encoding: str, command: str) -> list[types.CodeLens]:
    """One lens per compiled entry with findings; clicking it runs ``command`` (uri, version)."""
    enc = Encoder(analysis.lines, encoding)
    lenses = []
    for entry in analysis.entries:
        count = sum(1 for f in analysis.findings if f.code != SYNTAX_ERROR and _belongs(f, entry))
        if not count:
            continue
        noun = "likely graph break" if count == 1 else "likely graph breaks"
        lenses.append(types.CodeLens(
            range=enc.range(entry.line, entry.col, entry.line, entry.col),
            command=types.Command(title=f"{count} {noun} · Fix all", command=command,
                                  arguments=[uri, analysis.version])))
    return lenses
