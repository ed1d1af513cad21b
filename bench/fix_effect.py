"""Effect of fix-all on torch.compile (inductor, CPU): graphs, first-call time, steady-state latency.

"graphs" counts the graphs compiled by the first call (the break structure); "first call" sums
the first call of every example (compilation included, recompiles for new shapes too).

For every fixture model that fix-all changes, the original and the fixed file each run in a
fresh process on its own copy of an inductor cache warmed only by an unrelated tiny
function (the FX graph cache off), so both arms compile the model cold from the same start. Prints a markdown table. Usage: ``python bench/fix_effect.py [FILES...]``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEADY_CALLS = 30


def measure(path: str) -> dict:
    """Run in a worker process: compile every example of ``path`` with inductor and time it."""
    import importlib.util

    import torch
    from torch._inductor.compile_fx import compile_fx

    torch._inductor.config.fx_graph_cache = False
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    made = module.fullgraph_example()
    examples = made if isinstance(made, list) else [made]
    graphs = 0

    def counting(gm, example_inputs):
        nonlocal graphs
        graphs += 1
        return compile_fx(gm, example_inputs)

    torch.manual_seed(0)
    compiled = {}
    first = 0.0
    first_graphs = None  # graphs of the first call: the break structure, before any shape recompile
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for fn, args, kwargs in examples:
            fn = getattr(fn, "_torchdynamo_orig_callable", fn)
            if id(fn) not in compiled:
                compiled[id(fn)] = torch.compile(fn, backend=counting)
            start = time.perf_counter()
            compiled[id(fn)](*args, **kwargs)
            first += time.perf_counter() - start
            first_graphs = first_graphs if first_graphs is not None else graphs
        fn, args, kwargs = examples[0]
        run = compiled[id(getattr(fn, "_torchdynamo_orig_callable", fn))]
        for _ in range(3):
            run(*args, **kwargs)
        times = []
        for _ in range(STEADY_CALLS):
            start = time.perf_counter()
            run(*args, **kwargs)
            times.append(time.perf_counter() - start)
    return {"graphs": first_graphs, "first_s": first, "steady_ms": statistics.median(times) * 1000}


def warm_up() -> None:
    """Run in a worker: compile an unrelated tiny function so inductor's shared C++ pieces get built."""
    import torch

    torch._inductor.config.fx_graph_cache = False
    torch.compile(lambda x: (x.sin() + 1).sum())(torch.ones(4))
    print("{}")


def in_worker(args: list[str], warm_cache: str) -> dict:
    """Run this script with ``args`` in a fresh interpreter, on a private copy of ``warm_cache``."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "inductor")
        if os.path.isdir(warm_cache):
            shutil.copytree(warm_cache, cache)
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache, "TORCHINDUCTOR_COMPILE_THREADS": "1",
               "PYTHONWARNINGS": "ignore"}
        done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, timeout=600)
        if not os.path.isdir(warm_cache):
            shutil.copytree(cache, warm_cache)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "worker failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    from fullgraph.fixes import fix_all

    files = [Path(a) for a in argv] or sorted(ROOT.glob("fixtures/*.py"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        warm = os.path.join(tmp, "warm")
        in_worker(["--warm"], warm)  # builds the shared starting cache
        for path in files:
            source = path.read_text(encoding="utf-8")
            result = fix_all(source, str(path))
            if result.source == source:
                continue
            fixed = Path(tmp) / path.name
            fixed.write_text(result.source, encoding="utf-8")
            try:
                before, after = in_worker(["--worker", str(path)], warm), in_worker(["--worker", str(fixed)], warm)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                rows.append(f"| {path.name} | {result.applied} | error: {exc} | | | | | | |")
                continue
            rows.append(
                f"| {path.name} | {result.applied} | {before['graphs']} → {after['graphs']} "
                f"| {before['first_s']:.2f} | {after['first_s']:.2f} | {before['first_s'] / after['first_s']:.2f}x "
                f"| {before['steady_ms']:.3f} | {after['steady_ms']:.3f} | {before['steady_ms'] / after['steady_ms']:.2f}x |")
    print("| model | fixes | graphs | first call before (s) | after (s) | cold-start speedup "
          "| steady before (ms) | after (ms) | steady speedup |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        print(json.dumps(measure(sys.argv[2])))
    elif sys.argv[1:2] == ["--warm"]:
        warm_up()
    else:
        main(sys.argv[1:])
