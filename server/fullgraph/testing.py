"""Graph-break and recompilation guards for tests: ``assert_no_graph_breaks``, ``assert_no_recompiles``.

They compile the callable in the test's own process (Dynamo's caches are reset before and
after) and collect what broke, where, with the same code as ``fullgraph confirm``'s worker
(``fullgraph.confirm.capture``). torch is imported on the first call, not on import.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from fullgraph.wording import counted


@dataclass
class GraphReport:
    """What one guarded run compiled: graphs per call, the breaks and the recompilations."""

    graphs: list[int] = field(default_factory=list)
    breaks: list[dict] = field(default_factory=list)
    recompilations: list[dict] = field(default_factory=list)
    target: dict | None = None


def assert_no_graph_breaks(fn, *args, max_graphs: int | None = None, allow=(), dynamic: bool | None = None,
                           backend="eager", **kwargs) -> GraphReport:
    """Compile ``fn`` (a function or module), call it with ``args``/``kwargs`` and fail when Dynamo
    breaks or skips a frame.

    ``allow``: registry ids (``GB0170``) or gb_types to tolerate; ``max_graphs``: tolerate ordinary
    breaks while at most this many graphs run (frame skips still fail); ``dynamic`` and ``backend``
    are passed to ``torch.compile`` (default backend ``eager``: nothing is code-generated).
    """
    __tracebackhide__ = True
    report = _guarded(fn, [(args, kwargs)], dynamic, backend)
    allowed = {str(a).lower() for a in allow}
    counted_breaks = [b for b in report.breaks if not _allowed(b, allowed)]
    graphs = report.graphs[0] if report.graphs else 0
    if max_graphs is not None:
        failing = [b for b in counted_breaks if b.get("frame_skipped")] if graphs <= max_graphs else counted_breaks
        over = graphs > max_graphs
    else:
        failing, over = counted_breaks, False
    if failing or over:
        limit = f", more than max_graphs={max_graphs}" if over else ""
        head = f"{counted(len(failing), 'graph break')} in {_name(report)} ({counted(graphs, 'graph')}{limit}):"
        raise AssertionError("\n".join([head, *(format_break(b, report.target) for b in failing)]))
    return report


def assert_no_recompiles(fn, input_sets, *, dynamic: bool | None = None, backend="eager") -> GraphReport:
    """Compile ``fn`` once, call it on each ``(args, kwargs)`` of ``input_sets`` in turn and fail when
    a later set recompiles, naming the guard that failed."""
    __tracebackhide__ = True
    sets = [(tuple(s[0]), dict(s[1]) if len(s) > 1 else {}) for s in input_sets]
    report = _guarded(fn, sets, dynamic, backend)
    later = [rc for rc in report.recompilations if rc["input_set"] > 0]
    if later:
        head = f"{counted(len(later), 'recompilation')} of {_name(report)} over {counted(len(sets), 'input set')}:"
        raise AssertionError("\n".join([head, *(format_recompile(rc) for rc in later)]))
    return report


def format_break(brk: dict, target: dict | None = None) -> str:
    """``path:line: gb_type (GBxxxx): explanation`` at the user's outermost frame, then its inner
    frames (a break without a user frame is placed at the compiled function)."""
    frames = brk.get("frames") or ([target] if target else [])
    outer = frames[0] if frames else {"file": "<unknown>", "line": 0}
    ids = ", ".join(i for i in [brk.get("gb_id"), *(c.get("gb_id") for c in brk.get("chained", []))] if i)
    text = f"{_path(outer['file'])}:{outer['line']}: {brk.get('gb_type') or 'graph break'}" + (f" ({ids})" if ids else "")
    if brk.get("explanation"):
        text += f": {brk['explanation']}"
    if brk.get("frame_skipped"):
        text += " Dynamo skipped the whole function and ran it eagerly."
    lines = [f"  {text}"]
    lines += [f"      in {f.get('name') or 'callee'} at {_path(f['file'])}:{f['line']}" for f in frames[1:]]
    library = brk.get("library_frame")
    if library:
        lines.append(f"      inside library code at {library['file']}:{library['line']} ({library['name']})")
    return "\n".join(lines)


def format_recompile(rc: dict) -> str:
    """``path:line: function recompiled on input set N: guard failed: ...``."""
    guards = "; ".join(rc.get("guards", [])) or "unknown guard"
    return f"  {_path(rc['file'])}:{rc['line']}: {rc['function']} recompiled on input set {rc['input_set'] + 1}: " \
           f"guard failed: {guards}"


def _guarded(fn, sets: list[tuple], dynamic, backend) -> GraphReport:
    """Run ``fn`` compiled on each set in one fresh Dynamo session, collecting breaks and recompiles."""
    import torch

    from fullgraph.confirm import capture

    session = capture.Session(torch)
    report = GraphReport(target=capture.code_location(capture.code_of(capture.original(fn))))
    seen = set()
    with session.records.installed(torch):
        session.reset(backend)
        try:
            compiled = session.compile(fn, {"dynamic": dynamic} if dynamic is not None else None)
            for i, (args, kwargs) in enumerate(sets):
                run, breaks, recompiled = session.run(compiled, args, kwargs)
                if run["error"]:
                    raise AssertionError(f"{_name(report)} could not run: {run['error']}")
                report.graphs.append(run["graphs"])
                for b in breaks:
                    key = (b["gb_type"], *((b["frames"][-1]["file"], b["frames"][-1]["line"]) if b["frames"] else ()))
                    if key not in seen:
                        seen.add(key)
                        report.breaks.append(b)
                report.recompilations += [{**rc, "input_set": i} for rc in recompiled]
        finally:
            torch._dynamo.reset()
    return report


def _allowed(brk: dict, allowed: set[str]) -> bool:
    every = [brk, *brk.get("chained", [])]
    return any(str(b.get(k) or "").lower() in allowed for b in every for k in ("gb_id", "gb_type"))


def _name(report: GraphReport) -> str:
    target = report.target or {}
    return target.get("name") or "the target"


def _path(file: str) -> str:
    """A path relative to the working folder when it lies under it."""
    try:
        rel = os.path.relpath(file)
    except ValueError:
        return file
    return file if rel.startswith("..") else rel
