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
import gc
import importlib
import importlib.util
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
PRIVATE = "_fullgraph_worker"  # the package this folder's modules load under when run as a script


def sibling(name: str):
    """A module next to this file: from the package when imported as one, else from a private
    package over this folder (run as ``python worker.py``, nothing of fullgraph is on sys.path;
    the modules' relative imports resolve inside it)."""
    if __package__:
        return importlib.import_module(f"{__package__}.{name}")
    if PRIVATE not in sys.modules:
        package = types.ModuleType(PRIVATE)
        package.__path__ = [HERE]
        sys.modules[PRIVATE] = package
    return importlib.import_module(f"{PRIVATE}.{name}")


capture = sibling("capture")
synthesize = sibling("synthesize")
describe, is_user_file, realpath = capture.describe, capture.is_user_file, capture.realpath


def how_to_add(path: str, target: str | None) -> str:
    """What to write so that a target gets sample inputs."""
    name = f"fullgraph_example_{target}" if target else "fullgraph_example"
    spec = f"{os.path.basename(path)}::{target}" if target else os.path.basename(path)
    return (f"add {name}() returning (callable, args, kwargs) to {path}, or a [tool.fullgraph.confirm] entry "
            f"\"{spec}\" = \"factories.py:make_model\" (paths relative to pyproject.toml)")


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



# --- loading targets ------------------------------------------------------------------


def package_location(path: str) -> tuple[str, str] | None:
    """``(sys.path root, dotted name)`` of a file inside a package (a chain of ``__init__.py``
    folders), so that its relative imports work; None outside a package."""
    folder, file = os.path.split(os.path.abspath(path))
    stem = file[: -len(".py")] if file.endswith(".py") else ""
    parts = [] if stem == "__init__" else [stem]
    while stem and os.path.isfile(os.path.join(folder, "__init__.py")):
        parts.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    if len(parts) < 2 - (stem == "__init__") or not all(p.isidentifier() for p in parts):
        return None
    return folder, ".".join(parts)


def module_name_for(path: str, root: str) -> str | None:
    """The dotted name of ``path`` relative to ``root`` when every part is an identifier."""
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel.startswith(".."):
        return None
    parts = rel[: -len(".py")].split(os.sep) if rel.endswith(".py") else []
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) if parts and all(p.isidentifier() for p in parts) else None


def add_paths(*folders: str) -> None:
    """Put folders on sys.path (first given first), each once."""
    for folder in reversed([f for f in folders if f]):
        if folder not in sys.path:
            sys.path.insert(0, folder)


def load_module(path: str, root: str, name: str | None = None):
    """Import the file at ``path``: by its package name from the package's sys.path root when it
    lies in a package, else by its dotted name under ``root``, else by path.

    Seeded first, so that module-level models get the same weights in every worker.
    """
    add_paths(root)
    seed_all()
    try:
        package = None if name else package_location(path)
        if package:
            add_paths(package[0])
            capture.claim(os.path.join(package[0], package[1].split(".")[0]))
        elif not name:
            capture.claim(os.path.dirname(os.path.abspath(path)))
        dotted = package[1] if package else None if name else module_name_for(path, root)
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
    if not callable(fn) and not factory and request.get("target"):
        return synthesized_sets(module, request)
    if not callable(fn):
        raise UserError("factory", f"no factory function {func}() in {module.__file__}"
                        + ("" if factory else f"; {how_to_add(module.__file__, request.get('target'))}"))
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


def synthesized_sets(module, request: dict) -> list[tuple]:
    """Sets built from the target class itself (no factory); what was built goes in ``request["synthesized"]``."""
    import torch

    target = request["target"]
    seed_all()
    try:
        built = synthesize.synthesize(module, target, torch, trial=lambda b: eager_error(torch, b.sets(torch)[0]))
    except synthesize.CannotSynthesize as e:
        raise UserError("factory", f"no factory for {target}, and none could be synthesized: {e}; "
                        f"{how_to_add(module.__file__, target)}") from None
    request["synthesized"] = {"description": built.description(), "example": built.example(target)}
    seed_all()
    return built.sets(torch)


def eager_error(torch, sample: tuple) -> str | None:
    """What a sample set raises when run eagerly (with the source lines of the user frames it
    passed through, innermost first: the names there tell which input was missing), or None."""
    result = run_eager(torch, *sample)
    return "\n".join([result.text, *result.lines]) if isinstance(result, RaisedError) else None


def valid_set(s) -> bool:
    """Whether ``s`` looks like (callable, args[, kwargs])."""
    return isinstance(s, tuple) and 1 <= len(s) <= 3 and callable(s[0])


def seed_all() -> None:
    """The same random state before every factory call and run."""
    import torch

    random.seed(0)
    torch.manual_seed(0)




def eager(torch):
    """A context in which ``torch.compile``d code runs eagerly (torch 2.6+; a no-op before)."""
    set_stance = getattr(torch.compiler, "set_stance", None)
    return set_stance("force_eager") if set_stance else contextlib.nullcontext()



def skip_guard_profiling() -> None:
    """Dynamo times each new guard set after flushing the CPU cache (~40 ms a compile) only to
    log the figure; the worker compiles often and never reads it."""
    guards = sys.modules.get("torch._dynamo.guards")
    if callable(getattr(guards, "profile_guard_manager", None)):
        guards.profile_guard_manager = lambda *args: 0.0


class Runner:
    """Holds torch, the break-collecting session and the output capture; serves requests."""

    def __init__(self, torch) -> None:
        self.torch = torch
        self.session = capture.Session(torch)
        skip_guard_profiling()
        self.session.records.install(torch)
        self.capture = Capture()

    def analyse(self, sets: list[tuple], root: str, full: bool = True, options: dict | None = None) -> dict:
        """Run the target on every input set in one compile session; merge the breaks across sets.

        ``full`` adds the lines reached and the recompilations (verification skips them);
        ``options`` are the user's own ``torch.compile`` options.
        """
        reached = [reached_lines(self.torch, fn, args, kwargs, root) if full else {} for fn, args, kwargs in sets]
        session = self.session
        session.reset()
        compiled = {}
        runs, found, recompilations = [], [], []
        # one copy of every set's inputs, alive for the whole session: objects the sets share stay
        # shared, and no guard fails just because a copy of the last set was freed
        inputs = [(args, kwargs) for _, args, kwargs in sets]
        try:
            inputs = copy.deepcopy(inputs)
        except Exception:  # an input that cannot be copied (a lock, a generator) is passed as it is
            pass
        for i, ((fn, _, _), (args, kwargs)) in enumerate(zip(sets, inputs)):
            target = capture.original(fn)
            if id(target) not in compiled:
                compiled[id(target)] = session.compile(target, options)
            seed_all()
            run, breaks, recompiled = session.run(compiled[id(target)], args, kwargs)
            found += [(i, b) for b in breaks]
            if full:
                recompilations += [{**rc, "input_set": i} for rc in recompiled]
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
            "target_location": capture.code_location(capture.code_of(capture.original(sets[0][0]))),
        }

    def confirm(self, request: dict) -> dict:
        """Breaks, graphs and recompilations of the requested target."""
        root = request_root(request)
        add_paths(*request.get("paths") or ())
        result = self.analyse(sample_sets(request, root), root, options=request.get("compile_options"))
        if request.get("synthesized"):
            result["synthesized"] = request["synthesized"]
        return result

    def verify(self, request: dict) -> dict:
        """Compare the original target with the fixed copy on every input set."""
        root = request_root(request)
        add_paths(*request.get("paths") or ())
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
        return RaisedError(describe(e), [f.line for f in reversed(traceback.extract_tb(e.__traceback__))
                                         if f.line and is_user_file(f.filename)])


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
    """An exception a run raised, compared by its description; ``lines``: the source of the user
    frames it passed through, innermost first."""

    def __init__(self, text: str, lines: list[str] = ()) -> None:
        self.text = text
        self.lines = list(lines)

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
    hook = getattr(fixed_module, "_fullgraph_hook", None)  # a deferral's replay hooks, which `__init__` registers
    for part in parts:
        cls = type(part)
        if cls.__module__ == module.__name__ and isinstance(getattr(fixed_module, cls.__name__, None), type):
            part.__class__ = getattr(fixed_module, cls.__name__)
            if callable(hook):
                hook(part)
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
