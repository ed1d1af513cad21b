"""Findings an open document's analysis places in other workspace files (a helper its model's
`forward` calls): shown in those files, open or not, next to their own diagnostics, and dropped
when the document that found them is closed or no longer reaches them."""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import from_fs_path

from fullgraph.findings import Finding
from fullgraph.lsp.convert import to_diagnostic
from fullgraph.lsp.positions import Encoder
from fullgraph.text import file_text, split_lines


class Elsewhere:
    """Diagnostics by target file URI, then by the URI of the document whose analysis found them."""

    def __init__(self) -> None:
        self.by_target: dict[str, dict[str, list[types.Diagnostic]]] = {}
        self.found: dict[tuple[str, str], list[Finding]] = {}  # (target, source) -> the findings behind them
        self.lines: dict[tuple[str, str], list[str]] = {}  # (target, source) -> the target's lines they are on

    def update(self, source: str, findings: list[Finding], lines_of, encoding: str) -> set[str]:
        """Record what the analysis of ``source`` found in other files; the target URIs whose
        diagnostics changed. ``lines_of(uri, path)``: the lines of a target (its buffer if open)."""
        groups: dict[str, list[Finding]] = {}
        for finding in findings:
            groups.setdefault(from_fs_path(finding.path) or finding.path, []).append(finding)
        changed = {target for target, per_source in self.by_target.items()
                   if source in per_source and target not in groups}
        for target in changed:
            del self.by_target[target][source]
            self.found.pop((target, source), None)
            self.lines.pop((target, source), None)
        for target, found in groups.items():
            if self.found.get((target, source)) == found:
                continue  # the usual keystroke: nothing to convert, no file to read
            path = found[0].path
            lines = lines_of(target, path)
            enc = Encoder(lines, encoding)
            self.by_target.setdefault(target, {})[source] = [to_diagnostic(f, target, None, path, enc) for f in found]
            self.found[(target, source)] = found
            self.lines[(target, source)] = lines
            changed.add(target)
        return {t for t in changed if t != source}

    def drop(self, source: str) -> set[str]:
        """Forget what ``source`` found (it was closed); the targets that changed."""
        changed = {target for target, per_source in self.by_target.items() if per_source.pop(source, None) is not None}
        for target in changed:
            self.found.pop((target, source), None)
            self.lines.pop((target, source), None)
        return {t for t in changed if t != source}

    def placed(self, target: str, text: str) -> list[Finding]:
        """The findings other documents' analyses placed in ``target`` on this very ``text``: those
        its quick fixes and fix-all may rewrite, each once (the text is split only when some were)."""
        found = {}
        lines = split_lines(text) if target in self.by_target else None
        for (where, source), findings in self.found.items():
            if where == target and self.lines.get((where, source)) == lines:
                for f in findings:
                    found.setdefault((f.line, f.col, f.code), f)
        return [found[key] for key in sorted(found)]

    def of(self, target: str) -> list[types.Diagnostic]:
        """What the other documents found in ``target``, each finding once."""
        seen, out = set(), []
        for diagnostics in self.by_target.get(target, {}).values():
            for d in diagnostics:
                key = (d.range.start.line, d.range.start.character, d.code, d.message)
                if key not in seen:
                    seen.add(key)
                    out.append(d)
        return out


def disk_lines(path: str) -> list[str]:
    """The lines of a file that is not open (none when it cannot be read)."""
    return split_lines(file_text(path))
