"""Merge worker results with static findings: confirmed, Dynamo-only, or not reached.

Nothing is dropped: every static finding comes back (marked), and every break Dynamo
reported in this file that no static finding explains becomes an ``FG900`` finding.
Recompilations become ``FG901`` findings at the recompiled function.
"""

from __future__ import annotations

import os

from fullgraph.findings import Finding, Location
from fullgraph.text import file_text, split_lines

UNMATCHED = "FG900"
RECOMPILED = "FG901"
NOT_REACHED = "not reached by the sample inputs"
NO_BREAK = "reached by the sample inputs, but Dynamo did not break here"


def same_file(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def line_span(lines: list[str], line: int) -> tuple[int, int]:
    """Columns of the code on a 1-based line (without indentation or trailing blanks)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    stripped = text.rstrip()
    return len(stripped) - len(stripped.lstrip()), len(stripped)


def anchor(brk: dict, path: str, result: dict) -> dict:
    """The outermost frame of the break in ``path``; else the target's def line."""
    here = [f for f in brk.get("frames", []) if same_file(f["file"], path)]
    if here:
        return here[0]
    where = result.get("target_location") or {}
    return {"file": path, "line": where.get("line", 1) if same_file(where.get("file", ""), path) else 1}


def location(frame: dict, lines: list[str], message: str = "") -> Location:
    """A Location for a worker frame (caret columns when known, else the whole line)."""
    col, end = line_span(lines, frame["line"])
    if frame.get("col") is not None and frame.get("end_col") is not None:
        col, end = frame["col"], frame["end_col"]
    return Location(frame["file"], frame["line"], col, frame["line"], end, message)


def break_ids(brk: dict) -> tuple[str, ...]:
    return tuple(i for i in [brk.get("gb_id"), *(c.get("gb_id") for c in brk.get("chained", []))] if i)


def describe_break(brk: dict) -> str:
    """``gb_type (GBnnnn): explanation; hint`` plus where in a library it broke and a frame-skip note."""
    ids = ", ".join(break_ids(brk))
    text = f"Dynamo graph break: {brk.get('gb_type') or 'unknown'}" + (f" ({ids})" if ids else "")
    library = brk.get("library_frame")
    if library:
        text += f", inside library code at {library['file']}:{library['line']} (`{library['name']}`)"
    if brk.get("explanation"):
        text += f": {brk['explanation']}"
    if brk.get("hints"):
        text += f" Hint: {brk['hints'][0]}"
    if brk.get("frame_skipped"):
        text += " Dynamo skipped the whole function and ran it eagerly."
    return text


def merge(static: list[Finding], results, path: str | None = None, source: str | None = None,
          severity: str | None = None) -> list[Finding]:
    """Static findings marked against one or more worker results, plus Dynamo-only findings.

    ``results`` is a worker ``confirm`` result or a list of them (one per target);
    ``path`` defaults to the target's file; ``severity`` (config ``confirm.severity``)
    raises confirmed findings to that level.
    """
    results = [results] if isinstance(results, dict) else list(results)
    if path is None:
        path = next((r["target_location"]["file"] for r in results if r.get("target_location")), "<unknown>")
    lines = split_lines(file_text(path) if source is None else source)
    breaks = [(b, r) for r in results for b in r.get("breaks", [])]
    reached = {ln for r in results for f, ls in r.get("reached", {}).items() if same_file(f, path) for ln in ls}
    out, explained = [], set()
    for finding in static:
        hits = [i for i, (b, _) in enumerate(breaks) if _touches(b, finding, path)]
        explained.update(hits)
        out.append(_marked(finding, [breaks[i][0] for i in hits], reached, severity))
    for i, (brk, result) in enumerate(breaks):
        if i not in explained:
            out.append(_dynamo_only(brk, result, path, lines, severity))
    for result in results:
        out += [_recompiled(rc, path, lines) for rc in result.get("recompilations", [])
                if same_file(rc.get("file", ""), path)]
    return sorted(out, key=lambda f: (f.line, f.col, f.code))


def _touches(brk: dict, finding: Finding, path: str) -> bool:
    """True when a frame of the break lies on the finding's lines in this file."""
    return any(
        same_file(f["file"], path) and finding.line <= f["line"] <= finding.end_line for f in brk.get("frames", [])
    )


def _marked(finding: Finding, hits: list[dict], reached: set[int], severity: str | None) -> Finding:
    if hits:
        seen = ", ".join(dict.fromkeys(f"{b.get('gb_type')} ({b.get('gb_id')})" for b in hits))
        return finding.with_(
            confirmed=True,
            severity=severity or finding.severity,
            message=f"{finding.message} [confirmed by Dynamo: {seen}]",
            data={**finding.data, "dynamo": [_summary(b) for b in hits]},
        )
    was_reached = any(finding.line <= ln <= finding.end_line for ln in reached)
    note = NO_BREAK if was_reached else NOT_REACHED
    return finding.with_(confirmed=False, message=f"{finding.message} [{note}]",
                         data={**finding.data, "reached": was_reached})


def _summary(brk: dict) -> dict:
    keys = ("gb_type", "gb_id", "explanation", "hints", "frame_skipped", "input_sets", "library_frame")
    return {k: brk.get(k) for k in keys}


def _dynamo_only(brk: dict, result: dict, path: str, lines: list[str], severity: str | None) -> Finding:
    at = location(anchor(brk, path, result), lines)
    inner = [f for f in brk.get("frames", []) if (f["file"], f["line"]) != (at.path, at.line)]
    related = tuple(location(f, _lines_of(f["file"], path, lines), f"inside {f.get('name') or 'callee'}")
                    for f in inner)
    return Finding(
        path=path, line=at.line, col=at.col, end_line=at.end_line, end_col=at.end_col,
        code=UNMATCHED, message=describe_break(brk), severity=severity or "warning", confidence="certain",
        gb_ids=break_ids(brk), related=related, confirmed=True, data={"dynamo": [_summary(brk)]},
    )


def _recompiled(rc: dict, path: str, lines: list[str]) -> Finding:
    col, end = line_span(lines, rc["line"])
    guards = "; ".join(rc.get("guards", [])) or "unknown guard"
    return Finding(
        path=path, line=rc["line"], col=col, end_line=rc["line"], end_col=end, code=RECOMPILED,
        message=f"Dynamo recompiled {rc.get('function')} on input set {rc.get('input_set', 0) + 1}: "
        f"guard failed: {guards}",
        severity="info", confidence="certain", confirmed=True, data={"recompilation": rc},
    )


def _lines_of(file: str, path: str, lines: list[str]) -> list[str]:
    """Source lines of ``file`` (the document's own text when it is ``path``)."""
    return lines if same_file(file, path) else split_lines(file_text(file))
