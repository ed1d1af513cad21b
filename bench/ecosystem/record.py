"""Record Dynamo's verdict on one model of one package (runs inside the bench venv).

``python record.py PACKAGE MODEL [--variants a,b] [--outputs DIR]`` builds every variant of
MODEL (a module of ``builders/``), runs it once eagerly with line coverage limited to the
package's files, then once under ``torch.compile`` with a recording backend (no inductor),
and prints one compact JSON line per variant: status, graph count, every graph break (site =
innermost frame in the package, entry = outermost), eager lines and Dynamo-traced lines per
package file (paths relative to the folder holding the package). ``--outputs`` saves the
eager and compiled outputs of each variant (``torch.save``) for the fix arm.
``python record.py PACKAGE --list`` prints the models, one per line.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import logging
import os
import random
import re
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from truth import encode_lines  # noqa: E402

SEED = 0
LOOP_TYPE = "graph break in loop"
GB_ID = re.compile(r"/gb/gb(\d+)\.html", re.IGNORECASE)
LOG_SITE = re.compile(r"in user code at (.+?):(\d+)")
FRAME = re.compile(r'File "(.+?)", line (\d+)')
GRAPH_BREAK_LOGGERS = (
    "torch._dynamo.symbolic_convert.__graph_breaks",
    "torch._dynamo.convert_frame.__graph_breaks",
    "torch._dynamo.exc.__graph_breaks",
)


def seed_all() -> None:
    """Seed every generator a model may draw from."""
    import numpy
    import torch

    random.seed(SEED)
    numpy.random.seed(SEED)
    torch.manual_seed(SEED)


class PackageFiles:
    """Decides whether a file belongs to the package and names it relative to its parent."""

    def __init__(self, package_dir: str) -> None:
        self.root = os.path.realpath(package_dir)
        self.parent = os.path.dirname(self.root)
        self.cache: dict[str, str | None] = {}

    def rel(self, filename: str) -> str | None:
        """``transformers/models/bert/modeling_bert.py`` for a package file, else None."""
        hit = self.cache.get(filename, False)
        if hit is not False:
            return hit
        real = os.path.realpath(filename) if filename and not filename.startswith("<") else ""
        rel = None
        if real.startswith(self.root + os.sep) and real.endswith(".py"):
            rel = os.path.relpath(real, self.parent).replace(os.sep, "/")
        self.cache[filename] = rel
        return rel


def eager_lines(files: PackageFiles, fn) -> tuple[object, dict[str, set[int]]]:
    """Run ``fn()`` with sys.settrace limited to package files; returns (result, lines)."""
    lines: dict[str, set[int]] = {}

    def local(frame, event, arg):
        if event == "line":
            lines[files.rel(frame.f_code.co_filename)].add(frame.f_lineno)
        return local

    def global_(frame, event, arg):
        rel = files.rel(frame.f_code.co_filename)
        if rel is None:
            return None
        lines.setdefault(rel, set()).add(frame.f_lineno)
        return local

    sys.settrace(global_)
    try:
        result = fn()
    finally:
        sys.settrace(None)
    return result, lines


class BreakLog(logging.Handler):
    """Keeps the messages of Dynamo's graph_breaks artifact loggers."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # a record that cannot format is not a break we can place
            pass


def confirm_capture():
    """fullgraph's confirm capture module (standard library at import), loaded from this checkout."""
    path = HERE.parents[1] / "server" / "fullgraph" / "confirm" / "capture.py"
    spec = importlib.util.spec_from_file_location("_fullgraph_capture", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class DynamoRecorder:
    """Hooks Dynamo's tracer: lines it starts, graph breaks with their user stacks, graphs."""

    def __init__(self, files: PackageFiles) -> None:
        import torch
        from torch._dynamo import symbolic_convert

        confirm_capture().exact_resume_lines(torch)  # resumed functions' lines as in their source
        self.torch = torch
        self.files = files
        self.traced: dict[str, set[int]] = {}
        self.events: list[dict] = []
        self.graphs = 0
        self.hook_errors: list[str] = []
        self.log = BreakLog()
        for name in GRAPH_BREAK_LOGGERS:
            logger = logging.getLogger(name)
            logger.setLevel(logging.DEBUG)
            logger.propagate = False
            logger.addHandler(self.log)
        cls = symbolic_convert.InstructionTranslatorBase
        starts_line, log_graph_break = cls.starts_line, cls.log_graph_break
        recorder = self

        def hooked_starts_line(tx, lineno):
            rel = files.rel(tx.f_code.co_filename)
            if rel is not None:
                recorder.traced.setdefault(rel, set()).add(lineno)
            return starts_line(tx, lineno)

        def hooked_log_graph_break(tx, code_options, reason, exc):
            if not getattr(exc, "logged", False):
                try:
                    recorder.on_break(reason, exc)
                except Exception as e:  # the log record and counters still carry this break
                    recorder.hook_errors.append(describe(e))
            return log_graph_break(tx, code_options, reason, exc)

        cls.starts_line = hooked_starts_line
        cls.log_graph_break = hooked_log_graph_break

    def backend(self, gm, example_inputs):
        """Counting backend: the graph runs as Dynamo captured it."""
        self.graphs += 1
        return gm.forward

    def reset(self) -> None:
        """Forget everything (between variants)."""
        from torch._dynamo.utils import counters

        self.torch._dynamo.reset()
        counters.clear()
        self.traced, self.events, self.graphs, self.hook_errors = {}, [], 0, []
        self.log.messages.clear()

    def on_break(self, reason: str, exc) -> None:
        """One graph break as the tracer reports it, with the whole user stack."""
        from torch._dynamo.exc import get_stack_above_dynamo
        from torch._guards import TracingContext

        stack = getattr(exc, "real_stack", None)
        if stack is None:
            stack = TracingContext.extract_stack()
        try:
            stack = list(get_stack_above_dynamo()) + list(stack)
        except Exception:
            stack = list(stack)
        frames = [(f.filename, f.lineno) for f in stack]
        text = str(exc)
        gb_type = getattr(exc, "gb_type", None) or type(exc).__name__
        record = self.break_record(frames, gb_type, gb_id(text) or gb_id(reason), reason.startswith("Failed to handle"), "hook")
        if gb_type == LOOP_TYPE and text.strip():
            record["cause"] = text.strip().splitlines()[0].strip()  # the break the loop break was handling
        self.events.append(record)

    def break_record(self, frames, gb_type, gb, skipped, source) -> dict:
        """A break dict: site (innermost package frame) and entry (outermost package frame)."""
        mine = [(self.files.rel(f), line) for f, line in frames if self.files.rel(f)]
        record = {"gb_type": gb_type, "gb_id": gb, "skipped": skipped, "source": source}
        if mine:
            record.update(file=mine[-1][0], line=mine[-1][1], outer_file=mine[0][0], outer_line=mine[0][1])
        else:
            record.update(file=None, line=None, outer_file=None, outer_line=None)
            if frames:
                record["outside"] = f"{os.path.basename(frames[-1][0])}:{frames[-1][1]}"
        return record

    def breaks(self) -> list[dict]:
        """Hook events, plus log records and counter entries the hook did not see, deduplicated."""
        from torch._dynamo.utils import counters

        found = list(self.events)
        seen_sites = {(b["file"], b["line"]) for b in found}
        for message in self.log.messages:
            match = LOG_SITE.search(message)
            if not match or "user stack suppressed" in message:
                continue
            frames = [(f, int(n)) for f, n in FRAME.findall(message)] or [(match.group(1), int(match.group(2)))]
            record = self.break_record(frames, log_gb_type(message), gb_id(message), "Skipping the function" in message, "log")
            if (record["file"], record["line"]) not in seen_sites:
                seen_sites.add((record["file"], record["line"]))
                found.append(record)
        seen_types = {b["gb_type"] for b in found}
        for key in list(counters["graph_break"]) + list(counters["unimplemented"]):
            gb_type = str(key).strip().splitlines()[0].strip() if str(key).strip() else "?"
            if gb_type not in seen_types:
                seen_types.add(gb_type)
                found.append(self.break_record([], gb_type, gb_id(str(key)), False, "counter"))
        unique, keys = [], set()
        for b in found:
            key = (b["file"], b["line"], b["outer_file"], b["outer_line"], b["gb_type"])
            if key not in keys:
                keys.add(key)
                unique.append(b)
        return unique


def gb_id(text: str) -> str | None:
    """``GB0170`` from the registry URL in a message."""
    match = GB_ID.search(text or "")
    return f"GB{match.group(1)}" if match else None


def log_gb_type(message: str) -> str:
    """The gb_type line of a graph_breaks record."""
    lines = message.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Graph Break Reason:"):
            rest = line.split(":", 1)[1].strip()
            if rest.startswith("[Encountered graph break") or rest.startswith("Failed to handle") or not rest:
                for nxt in lines[i + 1 :]:
                    if nxt.strip() and not nxt.startswith(" ") and not nxt.startswith("Graph"):
                        return nxt.strip()
            return rest
    return "?"


def flatten(value, out: list, depth: int = 0) -> list:
    """Every tensor in a model output, in a stable order."""
    import torch

    if depth > 6:
        return out
    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, dict) or hasattr(value, "to_tuple"):
        items = value.items() if isinstance(value, dict) else zip(range(10**6), value.to_tuple())
        for _, v in items:
            flatten(v, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value:
            flatten(v, out, depth + 1)
    elif hasattr(value, "__dict__") and not isinstance(value, (type, torch.nn.Module)):
        for k in sorted(vars(value)):
            flatten(vars(value)[k], out, depth + 1)
    return out


def call(case, fn):
    """One forward (and a backward in train mode); returns the output tensors, detached, and in
    train mode then the gradient of each parameter of the module the case calls, by name (an empty
    tensor for none: optimizers skip a parameter without one, but step one with zeros)."""
    import torch

    params = _parameters(case.fn) if case.train else []
    for _, p in params:
        p.grad = None
    if case.reset is not None:
        case.reset()
    seed_all()
    out = fn(*case.args, **case.kwargs)
    tensors = flatten(out, [])
    if case.train:
        loss = sum(t.float().sum() for t in tensors if t.requires_grad and t.is_floating_point())
        if isinstance(loss, torch.Tensor):
            loss.backward()
    grads = [torch.empty(0) if p.grad is None else p.grad for _, p in params]
    return [t.detach().clone() for t in [*tensors, *grads]]


def _parameters(fn) -> list:
    """The named parameters of the module `fn` is (or is a method of), sorted by name; none for
    anything else."""
    import torch

    module = fn if isinstance(fn, torch.nn.Module) else getattr(fn, "__self__", None)
    return sorted(module.named_parameters(), key=lambda item: item[0]) if isinstance(module, torch.nn.Module) else []


def reached_lines(eager: dict[str, set[int]], traced: dict[str, set[int]]) -> dict:
    """Per file: lines run eagerly that Dynamo also traced (``reached``) and those it did not."""
    reached, untraced = {}, {}
    for f, lines in sorted(eager.items()):
        both = lines & traced.get(f, set())
        if both:
            reached[f] = encode_lines(both)
        if lines - both:
            untraced[f] = encode_lines(lines - both)
    return {"reached": reached, "untraced": untraced}


def record_variant(recorder: DynamoRecorder, builder, model: str, variant: str, outputs: str | None) -> dict:
    """Build, run eagerly with coverage, run compiled with the recorder; one result dict.

    A builder may offer several candidate inputs: the first that runs eagerly is recorded."""
    import torch

    result: dict = {"model": model, "variant": variant, "status": "ok"}
    start = time.perf_counter()
    try:
        seed_all()
        cases = builder.build(model, variant)
        cases = cases if isinstance(cases, list) else [cases]
    except Exception as e:
        return dict(result, status="build-error", error=describe(e), seconds=round(time.perf_counter() - start, 1))
    files = recorder.files
    errors = []
    for case in cases:
        try:
            eager_out, lines = eager_lines(files, lambda: call(case, case.fn))
            break
        except Exception as e:
            errors.append(describe(e))
    else:
        error = errors[0] + (f" (and {len(errors) - 1} other input layouts failed)" if len(errors) > 1 else "")
        return dict(result, status="eager-error", error=error, seconds=round(time.perf_counter() - start, 1))
    result["train"] = case.train
    recorder.reset()
    compiled = torch.compile(case.fn, backend=recorder.backend)
    try:
        compiled_out = call(case, compiled)
    except Exception as e:
        result.update(status="compile-error", error=describe(e))
        compiled_out = None
    result["graphs"] = recorder.graphs
    result["breaks"] = recorder.breaks()
    result.update(reached_lines(lines, recorder.traced))
    if recorder.hook_errors:
        result["hook_errors"] = recorder.hook_errors[:3]
    result["seconds"] = round(time.perf_counter() - start, 1)
    if outputs:
        Path(outputs).mkdir(parents=True, exist_ok=True)
        torch.save({"eager": eager_out, "compiled": compiled_out}, Path(outputs) / f"{model}.{variant}.pt")
    recorder.reset()
    return result


def describe(e: BaseException) -> str:
    """Exception type, message and the innermost frame, on one short line (the machine's home
    folder and the venv spelled `~` and `<venv>`: the truth is committed)."""
    tb = traceback.extract_tb(e.__traceback__)
    where = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
    message = str(e).splitlines()[0] if str(e) else ""
    message = message.replace(sys.prefix, "<venv>").replace(os.path.expanduser("~"), "~")
    return f"{type(e).__name__}: {message}"[:300] + where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package")
    parser.add_argument("model", nargs="?")
    parser.add_argument("--list", action="store_true", help="print the models, one per line")
    parser.add_argument("--variants", help="comma-separated variants (default: all of the model's)")
    parser.add_argument("--only", help="comma-separated variant names or prefixes (rope = rope-*)")
    parser.add_argument("--outputs", help="folder to save eager/compiled outputs in")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    builder = importlib.import_module(f"builders.{args.package.replace('-', '_')}")
    if args.list:
        for model in builder.models():
            print(model)
        return 0
    import torch

    torch.set_num_threads(1)
    package = importlib.import_module(builder.MODULE)
    recorder = DynamoRecorder(PackageFiles(os.path.dirname(package.__file__)))
    header = {"package": args.package, "version": builder.version()}
    try:
        variants = args.variants.split(",") if args.variants else builder.variants(args.model)
    except Exception as e:
        print(json.dumps(dict(header, model=args.model, variant="base", status="build-error", error=describe(e))), flush=True)
        return 0
    wanted = args.only.split(",") if args.only else None
    variants = [v for v in variants if not wanted or any(v == w or v.startswith(w + "-") for w in wanted)]
    print(json.dumps({"variants": variants}), flush=True)
    for variant in variants:
        row = record_variant(recorder, builder, args.model, variant, args.outputs)
        print(json.dumps(dict(header, **row), separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
