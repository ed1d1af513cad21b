"""Verify fix-all by running the target before and after it on a scratch copy.

The fixed text is written to a temporary folder (the user's file is not touched); the
worker runs the original and the fixed code on the same input sets, compares the
outputs and counts graphs. The fix may be applied only when every output is identical.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from contextlib import nullcontext
from dataclasses import dataclass, field

from fullgraph.confirm.client import ConfirmClient, ConfirmError
from fullgraph.confirm.targets import targets_for
from fullgraph.wording import counted


@dataclass
class Verification:
    """The outcome: ``ok`` means apply ``source`` (the fixed text); ``lines`` explain why."""

    ok: bool
    source: str
    edits: tuple = ()
    applied: int = 0
    lines: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        return "\n".join(self.lines)


def graphs(run: dict) -> int:
    """The most graphs any input set compiled to."""
    return max((s.get("graphs", 0) for s in run.get("input_sets", [])), default=0)


def describe(label: str, result: dict) -> tuple[bool, str]:
    """Whether one target's outputs matched, and its report line."""
    n = result.get("input_set_count", 0)
    change = f"graphs {graphs(result['before'])} → {graphs(result['after'])}"
    diffs = result.get("differences", [])
    if not diffs:
        return True, f"{label}: {change}, outputs identical on {counted(n, 'input set')}"
    where = "; ".join(f"input set {d['input_set'] + 1}: {d['where']} differs" for d in diffs)
    return False, f"{label}: {change}, but outputs differ ({where})"


def verify_fix_all(client: ConfirmClient, path: str, source: str, config=None, name: str | None = None,
                   cancel: threading.Event | None = None, fixed=None, project=None) -> Verification:
    """Fix-all ``source`` (or take ``fixed``, its FixAllResult) and check it on the sample inputs;
    ``project``: the project index the analysis uses.

    Never touches ``path``.
    """
    from fullgraph.fixes import fix_all

    path = os.path.abspath(path)
    if fixed is None:
        with project.readonly() if project is not None else nullcontext():
            fixed = fix_all(source, path, config, project)
    file = os.path.basename(path)
    if fixed.source == source:
        return Verification(False, source, lines=[f"{file}: nothing to fix"])
    targets = targets_for(path, source, config, name=name, explicit=name is not None)
    if not targets:
        why = "no sample inputs (define fullgraph_example() or a [tool.fullgraph.confirm] entry)"
        return Verification(False, source, lines=[f"{file}: cannot verify: {why}"])
    lines, ok = [], True
    with tempfile.TemporaryDirectory(prefix="fullgraph-verify-") as scratch:
        fixed_path = os.path.join(scratch, os.path.basename(path))
        with open(fixed_path, "w", encoding="utf-8") as f:
            f.write(fixed.source)
        for target in targets:
            try:
                result = client.request(target.payload("verify", fixed_path=fixed_path), cancel=cancel)
            except ConfirmError as e:
                ok = False
                lines.append(f"{target.label}: could not verify: {e}")
                continue
            same, line = describe(target.label, result)
            ok = ok and same
            lines.append(line)
    if not ok:
        lines.append(f"{file}: nothing applied")
    return Verification(ok, fixed.source if ok else source, fixed.edits if ok else (), fixed.applied if ok else 0,
                        lines)


class CliVerifier:
    """``fullgraph fix --verify``: one warm worker for every file; prints each report."""

    def __init__(self, config=None):
        from fullgraph.confirm.document import client_for

        self.client = client_for(config)

    def __call__(self, path: str, source: str, config, fixed) -> bool:
        """True when the fixed text may be written."""
        result = verify_fix_all(self.client, path, source, config, fixed=fixed)
        print(result.message, file=sys.stderr)
        return result.ok

    def close(self) -> None:
        self.client.close()
