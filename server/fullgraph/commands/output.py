"""How `fullgraph check` prints findings: full, concise, json, sarif, github, gitlab, statistics."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter

from fullgraph.findings import Finding
from fullgraph.text import file_text, split_lines
from fullgraph.wording import counted

FORMATS = ("full", "concise", "json", "sarif", "github", "gitlab")
FORMAT_ALIASES = {"text": "concise"}  # `--format text` from before `--output-format`
FIX_MARK = "[*]"
GITLAB_SEVERITIES = {"error": "major", "warning": "minor", "info": "info", "hint": "info"}


def use_colour(stream) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


class Paint:
    """ANSI styles, or plain text when colour is off."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _sgr(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on and text else text

    def bold(self, text: str) -> str:
        return self._sgr("1", text)

    def code(self, text: str) -> str:
        return self._sgr("1;31", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def mark(self, text: str) -> str:
        return self._sgr("36", text)

    def good(self, text: str) -> str:
        return self._sgr("32", text)


def _head(f: Finding, paint: Paint, unsafe: bool) -> str:
    where = f"{paint.bold(f.path)}{paint.dim(':')}{f.line}{paint.dim(':')}{f.col + 1}{paint.dim(':')}"
    mark = f" {paint.mark(FIX_MARK)}" if f.fixable(unsafe) else ""
    return f"{where} {paint.code(f.code)}{mark} {f.message}"


def concise(findings: list[Finding], paint: Paint, unsafe: bool = False) -> list[str]:
    """`path:line:col: CODE [*] message`, one line per finding (``unsafe``: unsafe fixes marked too)."""
    return [_head(f, paint, unsafe) for f in findings]


def _source_lines(path: str, cache: dict, sources: dict[str, str]) -> list[str]:
    if path not in cache:
        text = sources.get(path)
        cache[path] = split_lines(file_text(path) if text is None else text)
    return cache[path]


def full(findings: list[Finding], paint: Paint, sources: dict[str, str], unsafe: bool = False) -> list[str]:
    """Each finding with its source line underlined and the fix (or why there is none; ``unsafe``:
    the unsafe fixes are offered too)."""
    from fullgraph.rules.catalog import get_rule

    out: list[str] = []
    cache: dict = {}
    for f in findings:
        out.append(_head(f, paint, unsafe))
        lines = _source_lines(f.path, cache, sources)
        if 0 < f.line <= len(lines):
            text = lines[f.line - 1].expandtabs(1)
            end = f.end_col if f.end_line == f.line else len(text)
            gutter = str(f.line)
            pad = " " * len(gutter)
            out += [f"{pad} {paint.dim('|')}", f"{paint.dim(gutter)} {paint.dim('|')} {text}",
                    f"{pad} {paint.dim('|')} {' ' * f.col}{paint.code('^' * max(1, end - f.col))}"]
        rule = get_rule(f.code)
        if f.fixable(unsafe) and rule and rule.fix_title:
            out.append(f"  = help: {rule.fix_title}{' (unsafe)' if f.unsafe_fix else ''}")
        elif f.fix_blocked:
            out.append(f"  = no safe fix: {f.fix_blocked}")
        out.append("")
    return out


def github(findings: list[Finding]) -> list[str]:
    """GitHub Actions workflow commands (`::warning file=...,line=...::message`)."""
    from fullgraph.commands.github import finding_annotation

    return [finding_annotation(f) for f in findings]


def gitlab(findings: list[Finding]) -> str:
    """GitLab Code Quality report (a JSON list; fingerprints stable across runs)."""
    seen: Counter = Counter()
    report = []
    for f in findings:
        key = (f.path, f.code, f.message)
        seen[key] += 1
        fingerprint = hashlib.sha256(json.dumps([*key, seen[key]]).encode()).hexdigest()
        report.append({
            "description": f"{f.code} {f.message}", "check_name": f.code, "fingerprint": fingerprint,
            "severity": GITLAB_SEVERITIES.get(f.severity, "minor"),
            "location": {"path": f.path, "lines": {"begin": f.line, "end": f.end_line}},
        })
    return json.dumps(report, indent=2)


def statistics(findings: list[Finding], as_json: bool, unsafe: bool = False) -> list[str]:
    """Count per rule with how many of them `fullgraph fix` can rewrite (``unsafe``: the unsafe
    fixes too), most frequent first."""
    from fullgraph.rules.catalog import get_rule

    counts = Counter(f.code for f in findings)
    fixes = Counter(f.code for f in findings if f.fixable(unsafe))
    rows = [(code, count, fixes[code], (get_rule(code).name if get_rule(code) else ""))
            for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    if as_json:
        return [json.dumps([{"code": c, "name": n, "count": k, "fixable": x} for c, k, x, n in rows], indent=2)]
    if not rows:
        return []
    return [f"{'count':>5}  {'code':<6} {'fixable':>7}  rule"] + [f"{k:5d}  {c:<6} {x:7d}  {n}" for c, k, x, n in rows]


def summary(findings: list[Finding], paint: Paint, unsafe: bool = False, fixed: int = 0) -> str:
    """The closing line: `Found N findings (M fixable with `fullgraph fix`, K more with `fullgraph fix
    --unsafe-fixes`).` or `All checks passed!`; with ``unsafe`` (the `unsafe-fixes` setting) plain
    `fullgraph fix` applies both; after `check --fix` fixed some, `Found N findings (F fixed, R
    remaining).` (and the unsafe fixes left, when not applied)."""
    n_unsafe = 0 if unsafe else sum(1 for f in findings if f.unsafe_fix)
    if fixed:
        tail = f"; {n_unsafe} fixable with `--unsafe-fixes`" if n_unsafe else ""
        return f"Found {counted(len(findings) + fixed, 'finding')} ({fixed} fixed, {len(findings)} remaining{tail})."
    if not findings:
        return paint.good("All checks passed!")
    n_fixable = sum(1 for f in findings if f.fixable(unsafe))
    parts = [f"{n_fixable} fixable with `fullgraph fix`"] if n_fixable else []
    if n_unsafe:
        parts.append(f"{n_unsafe} {'more' if n_fixable else 'fixable'} with `fullgraph fix --unsafe-fixes`")
    tail = " (" + ", ".join(parts) + ")" if parts else ""
    return f"Found {counted(len(findings), 'finding')}{tail}."


def render(findings: list[Finding], fmt: str, paint: Paint, sources: dict[str, str], unsafe: bool = False,
           fixed: int = 0) -> list[str]:
    """The lines `check` prints for `fmt` (the closing summary included for full and concise;
    ``unsafe``: the `unsafe-fixes` setting; ``fixed``: findings `--fix` fixed first)."""
    if fmt == "json":
        return [json.dumps([f.to_dict() for f in findings], indent=2)]
    if fmt == "sarif":
        from fullgraph.commands.sarif import sarif_log

        return [json.dumps(sarif_log(findings), indent=2)]
    if fmt == "github":
        return github(findings)
    if fmt == "gitlab":
        return [gitlab(findings)]
    body = full(findings, paint, sources, unsafe) if fmt == "full" else concise(findings, paint, unsafe)
    return [*body, summary(findings, paint, unsafe, fixed)]
