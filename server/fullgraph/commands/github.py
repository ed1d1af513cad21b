"""GitHub Actions workflow annotations (``--output-format github``): one ``::level ...::message`` line each."""

from __future__ import annotations

LEVELS = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def _escape(text: str, prop: bool = False) -> str:
    """Workflow-command escaping (properties also escape ``:`` and ``,``)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def annotation(level: str, message: str, title: str, path: str | None = None, line: int = 0, col: int = 0,
               end_line: int = 0, end_col: int = 0) -> str:
    """One annotation; ``col``/``end_col`` are 0-based like findings (GitHub counts from 1)."""
    props = [f"title={_escape(title, True)}"]
    if path:
        props = [f"file={_escape(path, True)}", f"line={line}", f"endLine={end_line or line}",
                 f"col={col + 1}", f"endColumn={max(end_col, col) + 1}", *props]
    return f"::{LEVELS.get(level, level)} {','.join(props)}::{_escape(message)}"


def finding_annotation(f, level: str | None = None) -> str:
    """A finding as an annotation at its range (level: the finding's severity unless given), worded as
    ruff words its own: title ``fullgraph (CODE)``, message ``path:line:col: CODE message``."""
    message = f"{f.path}:{f.line}:{f.col + 1}: {f.code} {f.message}"
    return annotation(level or f.severity, message, f"fullgraph ({f.code})", f.path, f.line, f.col, f.end_line,
                      f.end_col)
