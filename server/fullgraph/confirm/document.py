"""Confirm one document: run its targets on the worker and merge with static findings.

Shared by ``fullgraph confirm`` and the language server.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from fullgraph.confirm.client import DEFAULT_TIMEOUT, ConfirmClient, ConfirmError
from fullgraph.confirm.merge import merge
from fullgraph.confirm.targets import Target, setting, targets_for
from fullgraph.findings import Finding


@dataclass
class Outcome:
    """What one target gave: the worker result, or the error that stopped it."""

    target: Target
    result: dict | None = None
    error: ConfirmError | None = None

    def problems(self) -> list[str]:
        """What went wrong, one line each: the error that stopped the target, or each distinct
        error its runs raised (with synthesized inputs, where to edit them)."""
        if self.error is not None:
            return [f"{self.target.label}: {self.error}"]
        runs = (self.result or {}).get("input_sets", [])
        errors = list(dict.fromkeys(r["error"] for r in runs if r.get("error")))
        hint = ""
        if errors and (self.result or {}).get("synthesized"):
            made = self.result["synthesized"]["description"].removeprefix("inputs synthesized: ")
            hint = (f"; these inputs were synthesized ({made}): write them into the "
                    f"file as fullgraph_example_{self.target.name}() (`fullgraph confirm --write-example`, or the "
                    "editor's code action) and edit them")
        return [f"{self.target.label}: {e}{hint}" for e in errors]

    def summary(self) -> dict:
        """Per-target figures for reports (graph counts per input set, errors)."""
        out = {"target": self.target.label, "path": self.target.path, "name": self.target.name}
        if self.result is not None:
            runs = self.result.get("input_sets", [])
            out.update(
                graphs=[r.get("graphs") for r in runs],
                ops_per_graph=[r.get("ops_per_graph") for r in runs],
                run_errors=[r.get("error") for r in runs if r.get("error")],
                breaks=len(self.result.get("breaks", [])),
                recompilations=len(self.result.get("recompilations", [])),
                seconds=self.result.get("seconds"),
            )
            if self.result.get("synthesized"):
                out["synthesized"] = self.result["synthesized"]
        if self.error is not None:
            out["error"] = {"kind": self.error.kind, "message": str(self.error), "output": self.error.output[-2000:]}
        return out


@dataclass
class DocumentResult:
    """Merged findings of a document and the outcome of each target."""

    findings: list[Finding]
    outcomes: list[Outcome] = field(default_factory=list)


def confirm_document(
    client: ConfirmClient,
    path: str,
    source: str,
    static: list[Finding],
    config=None,
    name: str | None = None,
    explicit: bool = False,
    cancel: threading.Event | None = None,
    progress=None,
    roots: tuple[str, ...] = (),
) -> DocumentResult:
    """Run the document's targets (or ``name``) and merge; failed targets keep static findings.

    ``progress(done, total, label)`` is called before each target; ``roots`` are the workspace
    folders (on the worker's sys.path).
    """
    targets = targets_for(path, source, config, name=name, explicit=explicit, roots=roots)
    outcomes = []
    for i, target in enumerate(targets):
        if cancel is not None and cancel.is_set():
            break
        if progress is not None:
            progress(i, len(targets), target.label)
        try:
            outcomes.append(Outcome(target, result=client.request(target.payload(), cancel=cancel)))
        except ConfirmError as e:
            outcomes.append(Outcome(target, error=e))
            if e.kind == "cancelled":
                break
    results = [o.result for o in outcomes if o.result is not None]
    if not results:
        return DocumentResult(list(static), outcomes)
    severity = setting(config, "severity")
    return DocumentResult(merge(static, results, path, source, severity=severity), outcomes)


def client_for(config=None, python: str | None = None) -> ConfirmClient:
    """A client using the configured interpreter and timeout (``[tool.fullgraph.confirm]``)."""
    return ConfirmClient(
        python=python or setting(config, "python", "interpreter"),
        timeout=float(setting(config, "timeout", default=DEFAULT_TIMEOUT)),
    )
