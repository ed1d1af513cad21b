"""The Dynamo worker: runs targets under TorchDynamo and reports their graph breaks.

Run as ``python worker.py`` with the user's interpreter. It needs only the standard
library and torch, stays warm, and serves one JSON request per line on stdin. Replies go
to a private duplicate of the original stdout; user code's stdout and stderr go to a
capture file whose head is returned (capped) with each reply.

Requests: ``{"id", "op": "ping"|"confirm"|"verify"|"exit", ...}``; replies:
``{"id", "ok": true, "result": {...}}`` or ``{"id", "ok": false, "error": {"kind", "message"}}``.
"""

from __future__ import annotations

import contextlib
import copy
import faulthandler
import functools
import gc
import importlib
import importlib.util
import json
import linecache
import logging
import os
import random
import re
import signal
import sys
import sysconfig
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def _text_module():
    """``fullgraph/text.py`` (standard library only), loaded from its file: this interpreter may
    not have fullgraph installed, and lines must break where the server breaks them."""
    spec = importlib.util.spec_from_file_location("_fullgraph_text", os.path.join(os.path.dirname(HERE), "text.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


split_lines = _text_module().split_lines
GB_URL = re.compile(r"compile-graph-break-site/gb/gb(\d+)\.html", re.I)
AT_LINE = re.compile(r"in user code at (.+):(\d+)\s*$")
FRAME_LINE = re.compile(r'^  File "(.+)", line (\d+), in (.+)$')
RECOMPILE_HEAD = re.compile(r"Recompiling function (\S+) in (.+):(\d+)")
RESUMED = re.compile(r"torch_dynamo_resume_in_(\w+)_at_(\d+)")
GUARD_ID = re.compile(r"^\d+/\d+: ")  # the frame/compile id a guard line starts with
GUARD_AT = re.compile(r"(.+):(\d+) in \S+$")  # "file.py:27 in fn" after a guard's source comment
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


class UserError(Exception):
    """A failure in the user's code or setup, reported with a kind and a clear message."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


# --- output capture -------------------------------------------------------------------


class Capture:
    """Points fd 1 and 2 at a scratch file while user code runs; returns a capped head."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile()
        self.saved_err = os.dup(2)

    def __enter__(self) -> "Capture":
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self.saved_err, 2)

    def take(self, cap: int) -> tuple[str, int]:
        """The first ``cap`` bytes written so far (decoded) and the total size; then empties."""
        size = os.fstat(self.file.fileno()).st_size
        self.file.seek(0)
        head = self.file.read(cap)
        self.file.seek(0)
        self.file.truncate()
        return head.decode("utf-8", "replace"), size


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
        for name in (*BREAK_LOGGERS, RECOMPILE_LOGGER):
            lg = logging.getLogger(name)
            lg.setLevel(logging.DEBUG)
            lg.propagate = False
            lg.handlers[:] = [self]
        try:  # without it Dynamo does not format recompile reasons at all
            torch._logging._internal.log_state.enable_artifact("recompiles")
        except AttributeError:  # other torch versions: recompilations go unreported
            pass


@functools.lru_cache(maxsize=None)
def realpath(path: str) -> str:
    """``os.path.realpath``, remembered: every request asks about the same thousands of files."""
    return os.path.realpath(path)


def is_user_file(filename: str) -> bool:
    """True for files of the user's project (not stdlib, site-packages, torch or this worker)."""
    if not filename or filename.startswith("<"):
        return False
    real = realpath(filename)
    return not real.startswith(LIBRARY_DIRS) and not installed_path(real) and os.path.dirname(real) != HERE


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


# --- loading targets ------------------------------------------------------------------


def module_name_for(path: str, root: str) -> str | None:
    """The dotted name of ``path`` relative to ``root`` when every part is an identifier."""
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel.startswith(".."):
        return None
    parts = rel[: -len(".py")].split(os.sep) if rel.endswith(".py") else []
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) if parts and all(p.isidentifier() for p in parts) else None


def load_module(path: str, root: str, name: str | None = None):
    """Import the file at ``path`` (by its dotted name under ``root`` when it has one).

    Seeded first, so that module-level models get the same weights in every worker.
    """
    if root and root not in sys.path:
        sys.path.insert(0, root)
    seed_all()
    try:
        dotted = None if name else module_name_for(path, root)
        if dotted:
            module = importlib.import_module(dotted)
            if os.path.realpath(getattr(module, "__file__", "") or "") == os.path.realpath(path):
                return module
        unique = name or "fullgraph_target_%d" % abs(hash(os.path.abspath(path)))
        spec = importlib.util.spec_from_file_location(unique, path)
        if spec is None or spec.loader is None:
            raise UserError("import", f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        spec.loader.exec_module(module)
        return module
    except SyntaxError as e:
        raise UserError("syntax", f"syntax error in {e.filename}:{e.lineno}: {e.msg}") from None
    except (UserError, KeyboardInterrupt):
        raise
    except BaseException as e:  # user module top-level code may raise anything
        raise UserError("import", f"importing {path} raised {describe(e)}") from None


def describe(e: BaseException) -> str:
    """``Type: message`` and the innermost user frame of an exception."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if is_user_file(f.filename)]
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(e).__name__}: {e}{where}"


def sample_sets(request: dict, root: str) -> list[tuple]:
    """Call the target's factory; always a list of (callable, args, kwargs)."""
    factory = request.get("factory")
    if factory:
        file, _, func = factory.rpartition(":")
        module = load_module(file, root)
    else:
        module = load_module(request["path"], root)
        target = request.get("target")
        func = f"fullgraph_example_{target}" if target else "fullgraph_example"
    fn = getattr(module, func, None)
    if not callable(fn):
        raise UserError("factory", f"no factory function {func}() in {module.__file__}")
    seed_all()
    try:
        made = fn()
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise UserError("factory", f"factory {func}() raised {describe(e)}") from None
    sets = [made] if isinstance(made, tuple) else list(made) if isinstance(made, list) else None
    if not sets or not all(valid_set(s) for s in sets):
        raise UserError(
            "factory", f"factory {func}() must return (callable, args, kwargs) or a list of such tuples"
        )
    return [(s[0], tuple(s[1]) if len(s) > 1 else (), dict(s[2]) if len(s) > 2 else {}) for s in sets]


def valid_set(s) -> bool:
    """Whether ``s`` looks like (callable, args[, kwargs])."""
    return isinstance(s, tuple) and 1 <= len(s) <= 3 and callable(s[0])


def seed_all() -> None:
    """The same random state before every factory call and run."""
    import torch

    random.seed(0)
    torch.manual_seed(0)


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


# --- running Dynamo -------------------------------------------------------------------


def original(fn):
    """The user's callable behind a ``torch.compile`` wrapper (the target is compiled our way)."""
    inner = getattr(fn, "_orig_mod", None)  # an OptimizedModule
    return inner if inner is not None else getattr(fn, "_torchdynamo_orig_callable", fn)


def eager(torch):
    """A context in which ``torch.compile``d code runs eagerly (torch 2.6+; a no-op before)."""
    set_stance = getattr(torch.compiler, "set_stance", None)
    return set_stance("force_eager") if set_stance else contextlib.nullcontext()


class GraphRecorder:
    """A Dynamo backend that keeps each graph's ops and, per input set, the break reasons of the
    graphs compiled and the graphs that ran."""

    def __init__(self) -> None:
        self.ops: list[list] = []
        self.reasons: list = []
        self.ran: set[int] = set()

    def start_set(self) -> None:
        self.reasons.clear()
        self.ran.clear()

    def __call__(self, gm, example_inputs):
        index = len(self.ops)
        self.ops.append([node.target for node in gm.graph.nodes if node.op == "call_function"])
        reason = getattr(gm, "compile_subgraph_reason", None)
        if reason is not None and reason.graph_break:
            self.reasons.append(reason)
        forward = gm.forward

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


def skip_guard_profiling() -> None:
    """Dynamo times each new guard set after flushing the CPU cache (~40 ms a compile) only to
    log the figure; the worker compiles often and never reads it."""
    guards = sys.modules.get("torch._dynamo.guards")
    if callable(getattr(guards, "profile_guard_manager", None)):
        guards.profile_guard_manager = lambda *args: 0.0


class Runner:
    """Holds torch, the log handler and the capture; serves requests."""

    def __init__(self, torch) -> None:
        self.torch = torch
        import torch._dynamo  # noqa: F401  (loads Dynamo and its counters)
        from torch._dynamo.utils import counters

        self.counters = counters
        skip_guard_profiling()
        self.records = Records()
        self.records.install(torch)
        self.capture = Capture()

    def analyse(self, sets: list[tuple], root: str, full: bool = True) -> dict:
        """Run the target on every input set in one compile session; merge the breaks across sets.

        ``full`` adds the lines reached and the recompilations (verification skips them).
        """
        reached = [reached_lines(self.torch, fn, args, kwargs, root) if full else {} for fn, args, kwargs in sets]
        self.torch._dynamo.reset()
        backend, compiled = GraphRecorder(), {}
        runs, found, recompilations = [], [], []
        # one copy of every set's inputs, alive for the whole session: objects the sets share stay
        # shared, and no guard fails just because a copy of the last set was freed
        inputs = [(args, kwargs) for _, args, kwargs in sets]
        try:
            inputs = copy.deepcopy(inputs)
        except Exception:  # an input that cannot be copied (a lock, a generator) is passed as it is
            pass
        for i, ((fn, _, _), (args, kwargs)) in enumerate(zip(sets, inputs)):
            target = original(fn)
            if id(target) not in compiled:
                compiled[id(target)] = self.torch.compile(target, backend=backend)
            run, breaks = self.run_set(compiled[id(target)], args, kwargs, backend)
            found += [(i, b) for b in breaks]
            if full:
                recompilations += [{**parse_recompile(m), "input_set": i} for m in self.records.recompiles]
            runs.append(run)
        self.torch._dynamo.reset()
        lines: dict[str, set[int]] = {}
        for r in reached:
            for file, hit in r.items():
                lines.setdefault(file, set()).update(hit)
        return {
            "input_sets": runs,
            "breaks": merge_breaks(found, reached),
            "recompilations": recompilations,
            "reached": {file: sorted(hit) for file, hit in lines.items()},
            "target_location": code_location(code_of(original(sets[0][0]))),
        }

    def run_set(self, compiled, args, kwargs, backend: GraphRecorder):
        """One input set through the compiled target: its graphs, ops and the breaks logged meanwhile
        (the log records and counters are cleared first, so all they hold afterwards is this set's)."""
        self.counters.clear()
        self.records.clear()
        backend.start_set()
        seed_all()
        error = None
        try:
            compiled(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            error = f"running the target raised {describe(e)}"
        breaks = [parse_break(m) for m in self.records.breaks]
        seen = {b["gb_type"] for b in breaks} | {c["gb_type"] for b in breaks for c in b["chained"]}
        for key in [*self.counters["unimplemented"], *self.counters["graph_break"]]:
            info = parse_reason(key.split(CHAINED)[0])
            if info["gb_type"] and info["gb_type"] not in seen:
                seen.add(info["gb_type"])
                breaks.append({**info, "frame_skipped": True, "chained": [], "frames": []})
        add_graph_reasons(backend.reasons, breaks)
        ran = sorted(backend.ran)
        run = {"graphs": len(ran), "ops_per_graph": [len(backend.ops[g]) for g in ran], "error": error}
        return run, breaks

    def confirm(self, request: dict) -> dict:
        """Breaks, graphs and recompilations of the requested target."""
        root = request_root(request)
        return self.analyse(sample_sets(request, root), root)

    def verify(self, request: dict) -> dict:
        """Compare the original target with the fixed copy on every input set."""
        root = request_root(request)
        sets = sample_sets(request, root)
        module = load_module(request["path"], root)
        fixed_module = load_module(request["fixed_path"], root, name="fullgraph_fixed_%d" % time.monotonic_ns())
        fixed_sets = [(swap(fn, module, fixed_module), a, k) for fn, a, k in sets]
        differences = []
        for i, ((fn, a, k), (fx, _, _)) in enumerate(zip(sets, fixed_sets)):
            where = first_difference(run_eager(self.torch, fn, a, k), run_eager(self.torch, fx, a, k), "output")
            if where:
                differences.append({"input_set": i, "where": where})
        return {
            "before": self.analyse(sets, root, full=False),
            "after": self.analyse(fixed_sets, root, full=False),
            "differences": differences,
            "input_set_count": len(sets),
        }


def merge_breaks(found: list[tuple[int, dict]], reached: list[dict]) -> list[dict]:
    """The distinct breaks of all input sets, each with the sets that logged it or ran its line
    (a cached frame logs its breaks once); a break known only from the counters (no location)
    is left out when a located break has its type."""
    merged: dict[tuple, dict] = {}
    for i, b in found:
        where = (b["frames"][-1]["file"], b["frames"][-1]["line"]) if b["frames"] else ()
        merged.setdefault((b["gb_type"], *where), {**b, "input_sets": set()})["input_sets"].add(i)
    for key, b in merged.items():
        if b["frames"]:
            b["input_sets"].update(i for i, r in enumerate(reached) if key[2] in r.get(key[1], ()))
        b["input_sets"] = sorted(b["input_sets"])
    located = {t for b in merged.values() if b["frames"] for t in (b["gb_type"], *(c["gb_type"] for c in b["chained"]))}
    return [b for b in merged.values() if b["frames"] or b["gb_type"] not in located]


def run_eager(torch, fn, args, kwargs):
    """The target's eager result (or the exception it raised) on a copy of the inputs."""
    seed_all()
    try:
        with eager(torch):
            return fn(*copy.deepcopy(args), **copy.deepcopy(kwargs))
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        return RaisedError(describe(e))


def reached_lines(torch, fn, args, kwargs, root: str) -> dict[str, set[int]]:
    """Lines of files under ``root`` that an eager run of the target executes."""
    prefix = os.path.realpath(root) + os.sep
    lines: dict[str, set[int]] = {}
    wanted: dict[str, bool] = {}

    def local(frame, event, arg):
        if event == "line":
            lines[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    def global_(frame, event, arg):
        file = frame.f_code.co_filename
        if file not in wanted:
            wanted[file] = is_user_file(file) and realpath(file).startswith(prefix)
        if not wanted[file]:
            return None
        lines.setdefault(file, set()).add(frame.f_lineno)
        return local

    sys.settrace(global_)
    try:
        run_eager(torch, fn, args, kwargs)
    finally:
        sys.settrace(None)
    return lines


class RaisedError:
    """An exception a run raised, compared by its description."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other) -> bool:
        return isinstance(other, RaisedError) and other.text == self.text

    def __repr__(self) -> str:
        return f"raised {self.text}"


def swap(fn, module, fixed_module):
    """The fixed module's version of ``fn``: same state, classes/functions from the fix."""
    if hasattr(fn, "__code__") or hasattr(fn, "__func__"):
        name = getattr(fn, "__qualname__", "")
        obj = fixed_module
        for part in name.split("."):
            obj = getattr(obj, part, None)
        bound = getattr(fn, "__self__", None)
        if obj is None:
            return fn
        return obj.__get__(swap(bound, module, fixed_module)) if bound is not None else obj
    clone = copy.deepcopy(fn)
    parts = clone.modules() if hasattr(clone, "modules") else [clone]
    for part in parts:
        cls = type(part)
        if cls.__module__ == module.__name__ and isinstance(getattr(fixed_module, cls.__name__, None), type):
            part.__class__ = getattr(fixed_module, cls.__name__)
    return clone


def first_difference(a, b, where: str) -> str | None:
    """A description of where two outputs first differ, or None when identical."""
    import torch

    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        same = (
            isinstance(a, torch.Tensor)
            and isinstance(b, torch.Tensor)
            and a.shape == b.shape
            and a.dtype == b.dtype
            and torch.equal(torch.nan_to_num(a), torch.nan_to_num(b))
            and torch.equal(a.isnan(), b.isnan())
        )
        return None if same else where
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and type(a) is type(b):
        if len(a) != len(b):
            return f"{where} (length {len(a)} vs {len(b)})"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := first_difference(x, y, f"{where}[{i}]"))), None)
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{where} (keys differ)"
        return next((d for k in a if (d := first_difference(a[k], b[k], f"{where}[{k!r}]"))), None)
    if hasattr(a, "to_tuple") and hasattr(b, "to_tuple"):  # HF ModelOutput
        return first_difference(a.to_tuple(), b.to_tuple(), where)
    try:
        return None if a == b else f"{where} ({a!r} vs {b!r})"[:300]
    except Exception:
        return where


# --- the loop -------------------------------------------------------------------------


def request_root(request: dict) -> str:
    """The project root of a request (added to sys.path), defaulting to the target's folder."""
    return request.get("root") or os.path.dirname(os.path.abspath(request.get("path", ".")))


def user_files(root: str) -> dict[str, int]:
    """Modified times of the loaded modules that live under ``root`` (for staleness checks)."""
    out = {}
    prefix = os.path.realpath(root) + os.sep
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and is_user_file(file) and realpath(file).startswith(prefix):
            try:
                out[file] = os.stat(file).st_mtime_ns
            except OSError:
                pass
    return out


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc, else peak RSS)."""
    try:
        with open(f"/proc/{os.getpid()}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def handle(runner: Runner, request: dict) -> dict:
    """Serve one request; user output is captured and returned capped."""
    op = request.get("op")
    started = time.perf_counter()
    cap = int(request.get("max_output", 65536))
    try:
        with runner.capture:
            if op == "confirm":
                result = runner.confirm(request)
            elif op == "verify":
                result = runner.verify(request)
            elif op == "ping":
                result = {}
            else:
                raise UserError("protocol", f"unknown op {op!r}")
        reply = {"ok": True, "result": result}
    except UserError as e:
        reply = {"ok": False, "error": {"kind": e.kind, "message": str(e)}}
    except KeyboardInterrupt:
        reply = {"ok": False, "error": {"kind": "cancelled", "message": "cancelled"}}
    except BaseException as e:  # a worker bug or user code escaping: report it, stay up
        error = {"kind": "internal", "message": describe(e), "traceback": traceback.format_exc()}
        reply = {"ok": False, "error": error}
    output, size = runner.capture.take(cap)
    root = request_root(request)
    reply.update(
        id=request.get("id"),
        output=output,
        output_bytes=size,
        seconds=round(time.perf_counter() - started, 3),
        rss_mb=round(rss_mb(), 1),
        user_files=user_files(root) if op in ("confirm", "verify") else {},
    )
    return reply


def main() -> int:
    """Serve requests from stdin until EOF or an ``exit`` request."""
    if sys.path and os.path.realpath(sys.path[0] or ".") == HERE:
        sys.path.pop(0)
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    crash_log = os.fdopen(os.dup(2), "w")  # stays the real stderr while fd 2 is captured
    faulthandler.enable(file=crash_log)

    def send(obj: dict) -> None:
        replies.write(json.dumps(obj, default=repr) + "\n")
        replies.flush()

    try:
        import torch
    except BaseException as e:
        message = f"cannot import torch in {sys.executable}: {describe(e)}"
        send({"ready": False, "error": {"kind": "no-torch", "message": message}})
        return 3
    torch.set_num_threads(int(os.environ.get("FULLGRAPH_WORKER_THREADS", "1")))
    runner = Runner(torch)
    gc.freeze()  # torch's many import-time objects: out of every collection Dynamo's tracing triggers
    signal.signal(signal.SIGINT, signal.default_int_handler)
    send({"ready": True, "pid": os.getpid(), "torch": torch.__version__, "python": sys.version.split()[0]})
    while True:
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:  # a cancel that arrived after its reply went out
            continue
        if not line:
            break
        try:
            request = json.loads(line)
        except ValueError:
            send({"ok": False, "error": {"kind": "protocol", "message": "request is not JSON"}})
            continue
        if request.get("op") == "exit":
            break
        try:
            send(handle(runner, request))
        except KeyboardInterrupt:  # a cancel that arrived between requests
            send({"id": request.get("id"), "ok": False, "error": {"kind": "cancelled", "message": "cancelled"}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
