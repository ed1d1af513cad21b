"""Cold (new worker) and warm confirmation time per target; prints a markdown table.

    python bench/confirm_latency.py [DIR ...]     (default: the models in fixtures/*.py)

Targets are the files' ``fullgraph_example*`` factories and ``[tool.fullgraph.confirm]``
entries (DIRs are searched recursively). Goals on the 2-core CPU machine: warm <= 1 s, cold <= 8 s.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from fullgraph.config import load_config
from fullgraph.confirm.client import ConfirmClient, ConfirmError
from fullgraph.confirm.targets import targets_for

ROOT = Path(__file__).resolve().parent.parent
WARM_RUNS = 3


def targets(files: list[Path]):
    for path in files:
        yield from targets_for(str(path), config=load_config(path))


def timed(client: ConfirmClient, payload: dict) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        result = client.request(payload)
        note = "graphs " + ", ".join(str(s["graphs"]) for s in result["input_sets"])
    except ConfirmError as e:
        note = f"{e.kind}: {str(e)[:60]}"
    return time.perf_counter() - start, note


def main(argv: list[str]) -> int:
    files = [p for a in argv for p in sorted(Path(a).rglob("*.py"))] or sorted((ROOT / "fixtures").glob("*.py"))
    colds, warms = [], []
    for target in targets(files):
        if not colds:
            print("| target | cold (s) | warm (s) | result |\n|---|---:|---:|---|", flush=True)
        with ConfirmClient() as client:
            cold, note = timed(client, target.payload())
            warm = statistics.median(timed(client, target.payload())[0] for _ in range(WARM_RUNS))
        name = os.path.relpath(target.path, ROOT) + (f"::{target.name}" if target.name else "")
        print(f"| {name} | {cold:.2f} | {warm:.2f} | {note} |", flush=True)
        colds.append(cold)
        warms.append(warm)
    if not colds:
        print("no targets (fullgraph_example factories) in the given files")
        return 1
    print(f"\n{len(colds)} targets; cold median {statistics.median(colds):.2f} s (max {max(colds):.2f}, goal <= 8); "
          f"warm median {statistics.median(warms):.2f} s (max {max(warms):.2f}, goal <= 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
