"""Wall time of `fullgraph fix --diff` on transformers' model folders, for one or more checkouts.

``python bench/fix_command_speed.py [--folders N] [--rounds R] [SERVER ...]``

SERVER is a folder holding the `fullgraph` package (default: this checkout's `server/`); give two
to compare engines, run in turn. Each gets its own cache folder and one warm-up run (the summaries
of the files it reads are then cached, as after any earlier `check`); each round then runs it with
its cache of results emptied first, and again with it as the run left it. Prints the wall times and
whether every run's diff and report are those of the first checkout's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from transformers_models import models_or_say

REPO = Path(__file__).resolve().parents[1]


def run(server: str, cache: Path, folders: list[str]) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=server, XDG_CACHE_HOME=str(cache))
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "fullgraph", "fix", "--diff", *folders], env=env,
                         capture_output=True, text=True, check=False)
    return time.perf_counter() - start, out.stdout + out.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("servers", nargs="*", default=[str(REPO / "server")])
    parser.add_argument("--folders", type=int, default=60, help="the first N model folders, by name")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    root = models_or_say()
    if root is None:
        return 1
    folders = [str(p) for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith("_")][:args.folders]
    files = sum(1 for f in folders for _ in Path(f).rglob("*.py"))
    print(f"`fullgraph fix --diff` on {len(folders)} model folders ({files} files) of transformers\n")
    with tempfile.TemporaryDirectory() as tmp:
        caches = [Path(tmp) / str(i) for i in range(len(args.servers))]
        expected = None
        for server, cache in zip(args.servers, caches):
            _, report = run(server, cache, folders)  # warm-up: the summaries of what it reads
            expected = expected if expected is not None else report
        rows: dict[str, list[str]] = {}
        for _ in range(args.rounds):
            for server, cache in zip(args.servers, caches):
                for label, empty in (("results cache emptied", True), ("results cache as left", False)):
                    if empty:
                        shutil.rmtree(cache / "fullgraph" / "results", ignore_errors=True)
                    seconds, report = run(server, cache, folders)
                    same = "" if report == expected else " (differs)"
                    rows.setdefault(f"{server}, {label}", []).append(f"{seconds:.1f}{same}")
    print("| checkout, run | wall (s), each round |\n|---|---|")
    for name, times in rows.items():
        print(f"| {name} | {', '.join(times)} |")
    print(f"\nlast line of the report: {expected.strip().splitlines()[-1] if expected.strip() else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
