"""Findings and fix edits as LSP types (no analysis here, only translation)."""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import from_fs_path

from fullgraph.findings import Finding
from fullgraph.lsp.positions import Encoder
from fullgraph.rules.catalog import get_rule

SOURCE = "fullgraph"

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def _related(finding: Finding, uri: str, doc_path: str | None, enc: Encoder) -> list[types.DiagnosticRelatedInformation]:
    out = []
    for loc in finding.related:
        same = loc.path in (doc_path, finding.path)
        # Another file's text is not at hand: its columns are passed through as code points.
        where = enc.range(loc.line, loc.col, loc.end_line, loc.end_col) if same else types.Range(
            start=types.Position(line=max(0, loc.line - 1), character=loc.col),
            end=types.Position(line=max(0, loc.end_line - 1), character=loc.end_col),
        )
        target = uri if same else (from_fs_path(loc.path) or loc.path)
        out.append(types.DiagnosticRelatedInformation(
            location=types.Location(uri=target, range=where), message=loc.message or "related"))
    return out


def to_diagnostic(finding: Finding, uri: str, version: int | None, doc_path: str | None, enc: Encoder) -> types.Diagnostic:
    """One LSP diagnostic; ``data`` holds the version it was computed on and what a client shows of
    the finding (its code, whether it has a fix and why not): a quick fix finds the finding itself,
    among that version's, by code and range (a whole finding each made a publish ten times larger)."""
    rule = get_rule(finding.code)
    return types.Diagnostic(
        range=enc.range(finding.line, finding.col, finding.end_line, finding.end_col),
        message=finding.message,  # short, ruff style: links live in the hover and the rule page
        severity=SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=rule.doc_url) if rule and rule.doc_url else None,
        source=SOURCE,
        related_information=_related(finding, uri, doc_path, enc) or None,
        data={"uri": uri, "version": version,
              "finding": {"code": finding.code, "fix": finding.fix, "fix_blocked": finding.fix_blocked}},
    )


def to_text_edits(edits, enc: Encoder) -> list[types.TextEdit]:
    """``fullgraph.fixes.TextEdit`` list (code points on the snapshot) as LSP edits."""
    return [types.TextEdit(range=enc.range(e.line, e.col, e.end_line, e.end_col), new_text=e.new_text) for e in edits]


def versioned_edit(uri: str, version: int | None, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    """A WorkspaceEdit the client rejects when the document is no longer at ``version``."""
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=edits)])
