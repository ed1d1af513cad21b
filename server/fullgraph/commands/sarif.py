"""SARIF 2.1.0 output for `fullgraph check --format sarif` (code-scanning tools)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from fullgraph import __version__
from fullgraph.findings import Finding, gb_doc_url
from fullgraph.rules.catalog import get_rule

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def _uri(path: str) -> str:
    """A relative or absolute URI reference for ``path``, percent-encoded (spaces, `,`, `:`, non-ASCII)."""
    return quote(Path(path).as_posix(), errors="surrogateescape")


def _region(line: int, col: int, end_line: int, end_col: int) -> dict:
    return {"startLine": line, "startColumn": col + 1, "endLine": end_line, "endColumn": end_col + 1}


def _rule(code: str) -> dict:
    rule = get_rule(code)
    if rule is None:
        return {"id": code}
    return {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "helpUri": rule.doc_url,
        "defaultConfiguration": {"level": LEVELS.get(rule.severity, "warning")},
        "properties": {"gb_ids": list(rule.gb_ids), "gb_urls": [gb_doc_url(g) for g in rule.gb_ids]},
    }


def _result(f: Finding) -> dict:
    result = {
        "ruleId": f.code,
        "level": LEVELS.get(f.severity, "warning"),
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(f.path)},
                                            "region": _region(f.line, f.col, f.end_line, f.end_col)}}],
        "properties": {"confidence": f.confidence, "gb_ids": list(f.gb_ids), "fix": f.fix},
    }
    if f.related:
        result["relatedLocations"] = [
            {"id": i, "message": {"text": r.message},
             "physicalLocation": {"artifactLocation": {"uri": _uri(r.path)},
                                  "region": _region(r.line, r.col, r.end_line, r.end_col)}}
            for i, r in enumerate(f.related)]
    return result


def sarif_log(findings: list[Finding]) -> dict:
    """One SARIF run holding every finding and the rules they reference."""
    codes = sorted({f.code for f in findings})
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "fullgraph", "version": __version__,
                                "informationUri": "https://github.com/fullgraph/fullgraph",
                                "rules": [_rule(c) for c in codes]}},
            "columnKind": "unicodeCodePoints",  # columns count code points, as every output of fullgraph
            "results": [_result(f) for f in findings],
        }],
    }
