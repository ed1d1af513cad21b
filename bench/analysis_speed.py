"""Analysis speed and robustness on Hugging Face transformers' `models/` tree.

1. Per file: `fullgraph.engine.analyze` time vs `ast.parse` time of the same text, for the
   largest modeling files (best of several runs; the target is <= 2x on the largest).
2. Whole tree, same run, same files: wall time of `fullgraph check --no-index` (each file on
   its own, nothing cached; `bench/index_speed.py` measures the project index cold and warm) vs
   `ruff check --select ALL --no-cache`, alternating, best of `--rounds` (the target: no
   slower than ruff).
3. Zero crashes: analyze every file in process, count exceptions and FG000 findings
   (transformers parses, so any FG000 is an internal error).

Needs the bench extra: pip install -e '.[bench]'  (transformers and ruff; no weights are loaded,
transformers is never imported, only its source files are read).
Usage: python bench/analysis_speed.py [--largest N] [--repeat K] [--rounds R]
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import time
from pathlib import Path

from fullgraph.engine import analyze
from transformers_models import models_and_ruff


def best_time(fn, repeat: int) -> float:
    """Fastest of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def wall(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - start, proc


def per_file(files: list[Path], repeat: int) -> list[tuple[Path, int, float, float]]:
    """(file, lines, ast.parse seconds, analyze seconds) for each file."""
    rows = []
    for path in files:
        source = path.read_text(encoding="utf-8")
        parse = best_time(lambda: ast.parse(source), repeat)
        full = best_time(lambda: analyze(source, str(path)), repeat)
        rows.append((path, source.count("\n") + 1, parse, full))
    return rows


def crash_count(files: list[Path]) -> tuple[int, int, int, float, float]:
    """(exceptions, FG000 findings, findings, total parse seconds, total analyze seconds)."""
    errors = fg000 = findings = 0
    parse_total = analyze_total = 0.0
    for path in files:
        data = path.read_bytes()
        start = time.perf_counter()
        ast.parse(data)
        parse_total += time.perf_counter() - start
        start = time.perf_counter()
        try:
            result = analyze(data, str(path))
        except Exception as exc:  # the contract says never; count it if it happens
            errors += 1
            print(f"  EXCEPTION {path.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        finally:
            analyze_total += time.perf_counter() - start
        fg000 += sum(f.code == "FG000" for f in result)
        findings += len(result)
    return errors, fg000, findings, parse_total, analyze_total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=5, help="how many of the largest files to time one by one")
    parser.add_argument("--repeat", type=int, default=5, help="runs per file (the best counts)")
    parser.add_argument("--rounds", type=int, default=2, help="whole-tree runs of each tool (the best counts)")
    args = parser.parse_args(argv)

    found = models_and_ruff()
    if found is None:
        return 2
    root, ruff = found
    files = sorted(root.rglob("modeling_*.py"))
    lines = sum(len(p.read_bytes().splitlines()) for p in files)
    print(f"transformers models/: {len(files)} modeling files, {lines:,} lines\n")

    largest = sorted(files, key=lambda p: p.stat().st_size, reverse=True)[: args.largest]
    print("| file | lines | ast.parse ms | analyze ms | ratio |")
    print("|---|---|---|---|---|")
    rows = per_file(largest, args.repeat)
    for path, n, parse, full in rows:
        print(f"| {path.name} | {n:,} | {parse * 1e3:.1f} | {full * 1e3:.1f} | {full / parse:.2f}x |")

    names = [str(p) for p in files]
    fg_cmd = [sys.executable, "-m", "fullgraph", "check", "--no-index", "--format", "json", *names]
    ruff_cmd = [ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", "--quiet", *names]
    fg_runs, ruff_runs = [], []
    for _ in range(args.rounds):  # alternate the two tools so that load changes hit both
        fg_runs.append(wall(fg_cmd))
        ruff_runs.append(wall(ruff_cmd))
    (fg_time, fg), (ruff_time, rf) = min(fg_runs, key=lambda r: r[0]), min(ruff_runs, key=lambda r: r[0])
    fg_findings = json.loads(fg.stdout) if fg.stdout.strip() else []
    errors, fg000, findings, parse_total, analyze_total = crash_count(files)

    print("\n| measure | value |")
    print("|---|---|")
    print(f"| largest file, analyze / ast.parse | **{rows[0][3] / rows[0][2]:.2f}x** ({rows[0][0].name}) |")
    print(f"| whole tree, `fullgraph check --no-index` wall (exit {fg.returncode}) | **{fg_time:.2f} s** ({len(fg_findings):,} findings) |")
    print(f"| whole tree, `ruff check --select ALL --no-cache` wall | **{ruff_time:.2f} s** |")
    print(f"| fullgraph / ruff | {fg_time / ruff_time:.2f}x |")
    print(f"| in-process, all files: ast.parse / analyze total | {parse_total:.2f} s / {analyze_total:.2f} s "
          f"({analyze_total / parse_total:.2f}x) |")
    print(f"| crashes: exceptions / FG000 over {len(files)} files | **{errors} / {fg000}** ({findings:,} findings) |")
    if rf.returncode not in (0, 1):
        print(f"\nruff exited {rf.returncode}: {rf.stderr[:500]}", file=sys.stderr)
    return 1 if errors or fg000 or fg.returncode not in (0, 1) else 0


if __name__ == "__main__":
    raise SystemExit(main())
