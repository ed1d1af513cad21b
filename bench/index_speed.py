"""`fullgraph check` with the project index on transformers' `models/` tree, cold and warm,
against `ruff check --select ALL --no-cache` on the same files in the same run.

* cold: an empty cache folder (XDG_CACHE_HOME points at a new temporary folder): every file
  summary the analysis needs is built, and nothing is reused;
* warm: the same cache folder again, unchanged files: summaries and per-file results are read
  from the cache;
* no index: `--no-index` (each file on its own), for reference.

Each tool runs `--rounds` times, alternating, the best wall time counts (targets: cold <= 1.0x
ruff, warm <= 0.5x); the last column is the peak resident memory of the largest process of each
(a worker), sampled. Needs the bench extra: pip install -e '.[bench]'.
Usage: python bench/index_speed.py [--rounds R]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time

from process_memory import process_tree, rss_mb
from transformers_models import models_and_ruff


def wall(cmd: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess, float]:
    """Wall seconds, the finished process, and the peak resident memory (MB) of the largest
    process it ran (itself or a worker), sampled from /proc every 20 ms (0 where there is none)."""
    start = time.perf_counter()
    peak = 0.0
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, env=env)
        while child.poll() is None:
            peak = max(peak, *(rss_mb(pid) for pid in process_tree(child.pid)))
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        out.seek(0), err.seek(0)
        proc = subprocess.CompletedProcess(cmd, child.returncode, out.read(), err.read())
    return seconds, proc, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="runs of each measure (the best counts)")
    args = parser.parse_args(argv)
    found = models_and_ruff()
    if found is None:
        return 2
    root, ruff = found
    files = [str(p) for p in sorted(root.rglob("modeling_*.py"))]
    lines = sum(len(open(f, "rb").read().splitlines()) for f in files)
    print(f"transformers models/: {len(files)} modeling files, {lines:,} lines; {os.cpu_count()} CPUs\n")
    check = [sys.executable, "-m", "fullgraph", "check", "--format", "json", *files]
    ruff_cmd = [ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", "--quiet", *files]
    times: dict[str, list[float]] = {"ruff": [], "cold": [], "warm": [], "no index": []}
    peaks: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "XDG_CACHE_HOME": cache}
            for name, cmd in (("ruff", ruff_cmd), ("cold", check), ("warm", check),
                              ("no index", [*check, "--no-index"])):
                seconds, proc, peak = wall(cmd, env)
                peaks[name] = max(peaks.get(name, 0.0), peak)
                if name != "ruff":
                    if proc.returncode not in (0, 1):
                        print(f"{name}: fullgraph exited {proc.returncode}: {proc.stderr[-500:]}", file=sys.stderr)
                        return 1
                    counts[name] = len(json.loads(proc.stdout or "[]"))
                times[name].append(seconds)
    start = time.perf_counter()
    for f in files:  # the floor of any ast-based check: parsing alone, in this process, one core
        with open(f, "rb") as handle:
            ast.parse(handle.read())
    times["parse"] = [time.perf_counter() - start]
    best = {name: min(values) for name, values in times.items()}
    print("| measure | wall (s) | / ruff | target | findings | largest process (MB) |")
    print("|---|---|---|---|---|---|")
    print(f"| `ruff check --select ALL --no-cache` | {best['ruff']:.2f} | 1.00x | | | {peaks['ruff']:,.0f} |")
    for name, target in (("cold", "<= 1.0x"), ("warm", "<= 0.5x"), ("no index", "")):
        print(f"| `fullgraph check`, {name} | {best[name]:.2f} | {best[name] / best['ruff']:.2f}x | {target} "
              f"| {counts[name]:,} | {peaks[name]:,.0f} |")
    print(f"| `ast.parse` of the files, one core | {best['parse']:.2f} | {best['parse'] / best['ruff']:.2f}x | | | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
