"""What broke, where: Dynamo's graph breaks and recompilations, collected while code runs.

Standard library at import; torch is handed in by the caller. Shared by the confirm worker
(``worker.py``, run in the user's interpreter) and by ``fullgraph.testing`` (the pytest plugin,
run in the test's own process): one implementation of the collection.
"""

from __future__ import annotations

import contextlib
import functools
import linecache
import logging
import os
import re
import sysconfig
import traceback

if __name__.startswith("fullgraph."):
    from fullgraph.text import split_lines
else:  # loaded from its folder by the worker: fullgraph may not be installed in that interpreter
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "_fullgraph_text", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "text.py"))
    _text = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_text)
    split_lines = _text.split_lines

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE) + os.sep  # fullgraph itself is never the user's code
GB_URL = re.compile(r"compile-graph-break-site/gb/gb(\d+)\.html", re.I)
AT_LINE = re.compile(r"in user code at (.+):(\d+)\s*$")
FRAME_LINE = re.compile(r'^  File "(.+)", line (\d+), in (.+)$')
RECOMPILE_HEAD = re.compile(r"Recompiling function (\S+) in (.+):(\d+)")
RESUMED = re.compile(r"torch_dynamo_resume_in_(\w+)_at_(\d+)")
GUARD_ID = re.compile(r"^\d+/\d+: ")  # the frame/compile id a guard line starts with
GUARD_AT = re.compile(r"(.+):(\d+) in \S+$")  # "file.py:27 in fn" after a guard's source comment
OBSERVED = "Observed exception"  # Dynamo's gb_type when an exception leaves a frame it traces
CHAINED = "*** While handling this graph break, another graph break occurred: ***"
SKIPPED = "Skipping the function and falling back to eager"
BREAK_LOGGERS = (
    "torch._dynamo.symbolic_convert.__graph_breaks",
    "torch._dynamo.convert_frame.__graph_breaks",
    "torch._dynamo.exc.__graph_breaks",
)
RECOMPILE_LOGGER = "torch._dynamo.guards.__recompiles"
LIBRARY_DIRS = tuple(
    os.path.realpath(p) + os.sep
    for p in {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
)


# --- log records ----------------------------------------------------------------------


class Records(logging.Handler):
    """Collects the messages of Dynamo's graph_breaks and recompiles artifact loggers."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.breaks: list[str] = []
        self.recompiles: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        target = self.recompiles if record.name == RECOMPILE_LOGGER else self.breaks
        try:
            target.append(record.getMessage())
        except Exception:  # a record that cannot format itself is not worth a crash
            pass

    def clear(self) -> None:
        self.breaks.clear()
        self.recompiles.clear()

    def install(self, torch) -> None:
        """Take over Dynamo's break and recompile loggers (for good: the worker's way)."""
        for name in (*BREAK_LOGGERS, RECOMPILE_LOGGER):
            lg = logging.getLogger(name)
            lg.setLevel(logging.DEBUG)
            lg.propagate = False
            lg.handlers[:] = [self]
        try:  # without it Dynamo does not format recompile reasons at all
            torch._logging._internal.log_state.enable_artifact("recompiles")
        except AttributeError:  # other torch versions: recompilations go unreported
            pass

    @contextlib.contextmanager
    def installed(self, torch):
        """``install`` for a while, then the loggers and artifacts as they were (in-process use)."""
        saved = [(lg, lg.level, lg.propagate, lg.handlers[:])
                 for lg in map(logging.getLogger, (*BREAK_LOGGERS, RECOMPILE_LOGGER))]
        names = getattr(getattr(torch._logging, "_internal", None), "log_state", None)
        names = getattr(names, "artifact_names", None)
        had = set(names) if names is not None else None
        self.install(torch)
        try:
            yield self
        finally:
            for lg, level, propagate, handlers in saved:
                lg.setLevel(level)
                lg.propagate = propagate
                lg.handlers[:] = handlers
            if had is not None:
                names.intersection_update(had)


@functools.lru_cache(maxsize=None)
def realpath(path: str) -> str:
    """``os.path.realpath``, remembered: every request asks about the same thousands of files."""
    return os.path.realpath(path)


CLAIMED: list[str] = []  # folders that are the user's code even inside site-packages (a confirmed target's package)


def claim(folder: str) -> None:
    """Count the files under ``folder`` as the user's (the package of a target being confirmed)."""
    prefix = os.path.realpath(folder) + os.sep
    if prefix not in CLAIMED:
        CLAIMED.append(prefix)


def is_user_file(filename: str) -> bool:
    """True for files of the user's project (not stdlib, site-packages, torch or fullgraph), and
    for files under a claimed folder."""
    if not filename or filename.startswith("<"):
        return False
    real = realpath(filename)
    if CLAIMED and real.startswith(tuple(CLAIMED)):
        return True
    return not real.startswith((*LIBRARY_DIRS, PACKAGE)) and not installed_path(real)


def installed_path(path: str) -> str | None:
    """The part of ``path`` after ``site-packages`` (or ``dist-packages``), for any environment."""
    for marker in (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}"):
        if marker in path:
            return path.split(marker, 1)[1]
    return None


def parse_frames(text: str) -> list[dict]:
    """The frames of a ``User code traceback:`` block, outermost first, with caret columns."""
    lines = split_lines(text)
    frames = []
    for i, line in enumerate(lines):
        m = FRAME_LINE.match(line)
        if not m:
            continue
        frame = {"file": m[1], "line": int(m[2]), "name": m[3].strip(), "col": None, "end_col": None}
        code = lines[i + 1] if i + 1 < len(lines) else ""
        carets = lines[i + 2] if i + 2 < len(lines) else ""
        if code.startswith("    ") and carets.strip() and set(carets.strip()) <= {"^", "~"}:
            source = linecache.getline(frame["file"], frame["line"])
            indent = len(source) - len(source.lstrip()) - 4
            start = len(carets) - len(carets.lstrip()) + indent
            end = len(carets.rstrip()) + indent
            while end > start and source[end - 1 : end] in (":", " "):  # jumps mark the colon too
                end -= 1
            frame["col"], frame["end_col"] = start, end
        frames.append(frame)
    return frames


def parse_reason(block: str) -> dict:
    """gb_type, explanation and hints of one break message (up to any chained break)."""
    gb_type, explanation, hints, current = "", [], [], None
    for ln in split_lines(block):
        s = ln.strip()
        if s.startswith("Explanation:"):
            current = explanation
            explanation.append(s[len("Explanation:") :].strip())
        elif s.startswith("Hint:"):
            current = None
            hints.append(s[len("Hint:") :].strip())
        elif s.startswith(("Developer debug context:", "For more details")):
            current = None
        elif not gb_type and s and not s.startswith(("Graph break", "Graph Break Reason")) and not s.endswith(":"):
            gb_type = s
        elif not s:
            current = None  # an explanation's first paragraph is enough
        elif current is not None:
            current.append(s)
    url = GB_URL.search(block)
    return {
        "gb_type": gb_type,
        "gb_id": f"GB{int(url[1]):04d}" if url else None,
        "explanation": " ".join(explanation),
        "hints": hints,
    }


def parse_break(message: str) -> dict:
    """One graph_breaks record as a break dict (location from the user frames)."""
    head, _, trace = message.partition("User code traceback:")
    main, _, chained = head.partition(CHAINED)
    body = main.split("\n", 1)[1] if "\n" in main else ""
    reason_line = body.split("\n", 1)[0]
    if reason_line.startswith("Graph Break Reason:"):
        rest = reason_line[len("Graph Break Reason:") :].strip()
        body = (rest + "\n" + body.split("\n", 1)[1]) if rest and "\n" in body else rest
    out = parse_reason(body.split("Stack variable source attribution:")[0])
    out["frame_skipped"] = SKIPPED in head or bool(chained)
    out["chained"] = [parse_reason(c) for c in chained.split(CHAINED) if c.strip()]
    every = parse_frames(trace)
    frames = [f for f in every if is_user_file(f["file"])]
    at = AT_LINE.search(message.split("\n", 1)[0])
    if not frames and at and is_user_file(at[1]):
        frames = [{"file": at[1], "line": int(at[2]), "name": "", "col": None, "end_col": None}]
    out["frames"] = frames
    out["library_frame"] = library_frame(every) if frames else None
    return out


def library_frame(frames: list[dict]) -> dict | None:
    """Where the break happened when that is inside a library the user's code called
    (``torch/optim/optimizer.py``, line 79, ``_use_grad``), else None."""
    if not frames or is_user_file(frames[-1]["file"]):
        return None
    inner = frames[-1]
    file = installed_path(inner["file"]) or os.path.basename(inner["file"])
    return {"file": file, "line": inner["line"], "name": inner["name"]}


def parse_recompile(message: str) -> dict:
    """One recompiles record: the function recompiled, the guards that failed and the line of
    the first guard's source in that function's file (else the function's first line)."""
    m = RECOMPILE_HEAD.search(message)
    function, file, line = (m[1], m[2], int(m[3])) if m else ("", "", 0)
    resumed = RESUMED.fullmatch(function)
    if resumed:
        function = f"{resumed[1]} (resumed after the graph break at line {resumed[2]})"
    guards, guard_line = [], None
    for ln in split_lines(message):
        ln = ln.strip()
        if ln.startswith("- User stack trace:"):
            break
        if ln.startswith("- "):
            guard, *where = [part.strip() for part in GUARD_ID.sub("", ln[2:]).split("  # ")]
            guards.append(guard)
            at = GUARD_AT.match(where[-1]) if where else None
            if guard_line is None and at and file.endswith(at[1]):
                guard_line = int(at[2])
    return {"function": function, "file": file, "line": guard_line or line, "guards": guards}


def escaped(brk: dict, thrown: set[tuple[str, int]]) -> bool:
    """Whether ``brk`` is Dynamo meeting the exception the run raised (an "Observed exception"
    at a line that exception passed through): the run's error, not a break of its own."""
    return brk["gb_type"] == OBSERVED and any((f["file"], f["line"]) in thrown for f in brk["frames"][-1:])


def describe(e: BaseException) -> str:
    """``Type: message`` and the innermost user frame of an exception."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if is_user_file(f.filename)]
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(e).__name__}: {e}{where}"


def code_of(fn):
    """The code object Dynamo compiles first for ``fn`` (a module's forward, a function)."""
    forward = getattr(fn, "forward", None)
    target = forward if forward is not None and not hasattr(fn, "__code__") else fn
    return getattr(getattr(target, "__func__", target), "__code__", None)


def code_location(code) -> dict | None:
    """Where a code object starts (for breaks that Dynamo reports without a line)."""
    if code is None:
        return None
    return {"file": code.co_filename, "line": code.co_firstlineno, "name": getattr(code, "co_qualname", code.co_name)}


def original(fn):
    """The user's callable behind a ``torch.compile`` wrapper (the target is compiled our way)."""
    inner = getattr(fn, "_orig_mod", None)  # an OptimizedModule
    return inner if inner is not None else getattr(fn, "_torchdynamo_orig_callable", fn)


class GraphRecorder:
    """A Dynamo backend that keeps each graph's ops and, per input set, the break reasons of the
    graphs compiled and the graphs that ran."""

    def __init__(self, inner=None) -> None:
        self.inner = inner  # the backend that really compiles each graph (None: run it as traced)
        self.ops: list[list] = []
        self.reasons: list = []
        self.ran: set[int] = set()

    def start_set(self) -> None:
        self.reasons.clear()
        self.ran.clear()

    def __call__(self, gm, example_inputs, **options):  # options: torch.compile's mode=/options=
        index = len(self.ops)
        self.ops.append([node.target for node in gm.graph.nodes if node.op == "call_function"])
        reason = getattr(gm, "compile_subgraph_reason", None)
        if reason is not None and reason.graph_break:
            self.reasons.append(reason)
        forward = gm.forward if self.inner is None else self.inner(gm, example_inputs, **options)

        def run(*args):
            self.ran.add(index)
            return forward(*args)

        return run


def add_graph_reasons(reasons: list, breaks: list[dict]) -> None:
    """Breaks that ended a graph at a user line the logs did not mention."""
    lines = {(f["file"], f["line"]) for b in breaks for f in b["frames"]}
    for reason in reasons:
        frames = [
            {"file": f.filename, "line": f.lineno, "name": f.name, "col": getattr(f, "colno", None),
             "end_col": getattr(f, "end_colno", None)}
            for f in reason.user_stack
            if is_user_file(f.filename)
        ]
        if frames and (frames[-1]["file"], frames[-1]["line"]) not in lines:
            lines.add((frames[-1]["file"], frames[-1]["line"]))
            info = parse_reason(reason.reason)
            if reason.reason.startswith("generic_jump"):
                info.update(gb_type="Data-dependent branching", gb_id="GB0170")
            breaks.append({**info, "frame_skipped": False, "chained": [], "frames": frames})

def unsupported_break(exc) -> dict | None:
    """The break a ``fullgraph=True`` compile raised (``torch._dynamo.exc.Unsupported``), else None."""
    gb_type = getattr(exc, "gb_type", None)
    if not gb_type:
        return None
    info = parse_reason(str(exc).split("from user code:")[0])
    stack = getattr(exc, "real_stack", None) or []
    frames = [
        {"file": f.filename, "line": f.lineno, "name": f.name, "col": None, "end_col": None}
        for f in stack
        if is_user_file(f.filename)
    ]
    return {**info, "gb_type": gb_type, "frame_skipped": False, "chained": [], "frames": frames,
            "library_frame": None, "raised": True}


def exact_resume_lines(torch) -> None:
    """Make the line tables Dynamo writes (the functions it resumes after a break) say the right lines.

    Torch 2.13's writer (Python 3.11+) splits an instruction longer than 8 code units (`LOAD_METHOD`
    with its caches) into several entries that all carry the instruction's step to its line, so
    every line after such a step reads too far down: the breaks, tracebacks and traced lines of a
    resumed function point below their code. The wrapper hands the writer at most 8 units at a time,
    so the step is taken once; with a writer that is right it changes nothing."""
    transform = torch._dynamo.bytecode_transformation
    writer = getattr(transform, "linetable_311_writer", None)
    if writer is None or getattr(writer, "exact_steps", False):
        return

    def exact(first_lineno):
        table, update = writer(first_lineno)

        def step(positions, size: int) -> None:
            while size > 8:
                update(positions, 8)
                size -= 8
            update(positions, size)

        return table, step

    exact.exact_steps = True
    transform.linetable_311_writer = exact


class Session:
    """Runs compiled callables and collects, per run, the graphs that ran and what broke where.

    Holds torch's counters and the log handler; the caller installs the handler (for good in the
    worker, for the duration of a test in-process) and resets Dynamo around a session.
    """

    def __init__(self, torch) -> None:
        import torch._dynamo  # noqa: F401  (loads Dynamo and its counters)
        from torch._dynamo.utils import counters

        exact_resume_lines(torch)
        self.torch = torch
        self.counters = counters
        self.records = Records()
        self.backend = GraphRecorder()

    def reset(self, backend=None) -> None:
        """A fresh start: Dynamo's caches wiped, a new recording backend in front of ``backend``
        (a name or a callable; None or ``"eager"``: graphs run as traced). Call before compiling."""
        self.torch._dynamo.reset()
        if backend in (None, "eager"):
            inner = None
        else:
            from torch._dynamo.backends.registry import lookup_backend

            inner = lookup_backend(backend)
        self.backend = GraphRecorder(inner)

    def compile(self, fn, options: dict | None = None):
        """``torch.compile`` of the callable behind ``fn`` with the recording backend and the user's
        options (``dynamic``, ``mode``, ``fullgraph``)."""
        options = {k: v for k, v in (options or {}).items() if k in ("dynamic", "mode", "fullgraph")}
        return self.torch.compile(original(fn), backend=self.backend, **options)

    def run(self, compiled, args, kwargs) -> tuple[dict, list[dict], list[dict]]:
        """One call of ``compiled``: its run (graphs, ops per graph, error), its breaks and its
        recompilations (the records and counters are cleared first, so they hold this call's only)."""
        self.counters.clear()
        self.records.clear()
        self.backend.start_set()
        error = None
        breaks = []
        thrown: set[tuple[str, int]] = set()  # the lines the raised exception passed through
        try:
            compiled(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            raised = unsupported_break(e)
            if raised is not None:
                breaks.append(raised)
            else:
                error = f"running the target raised {describe(e)}"
                thrown = {(f.filename, f.lineno) for f in traceback.extract_tb(e.__traceback__)}
        logged = [parse_break(m) for m in self.records.breaks]
        breaks += [b for b in logged if not escaped(b, thrown)]
        callers = {(f.filename, f.lineno) for f in traceback.extract_stack()}
        for b in breaks:  # Dynamo's user stack starts outside the compiled frame: at our callers
            inside = [f for f in b["frames"] if (f["file"], f["line"]) not in callers]
            b["frames"] = inside or b["frames"]
        seen = {b["gb_type"] for b in logged + breaks} | {c["gb_type"] for b in breaks for c in b["chained"]}
        for key in [*self.counters["unimplemented"], *self.counters["graph_break"]]:
            info = parse_reason(key.split(CHAINED)[0])
            if info["gb_type"] and info["gb_type"] not in seen:
                seen.add(info["gb_type"])
                breaks.append({**info, "frame_skipped": True, "chained": [], "frames": []})
        add_graph_reasons(self.backend.reasons, breaks)
        ran = sorted(self.backend.ran)
        run = {"graphs": len(ran), "ops_per_graph": [len(self.backend.ops[g]) for g in ran], "error": error}
        return run, breaks, [parse_recompile(m) for m in self.records.recompiles]
