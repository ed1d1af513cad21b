"""The stored ground truth: one JSON line per run in ``truth/<package>.jsonl`` (stdlib only)."""

from __future__ import annotations

import json
from pathlib import Path

TRUTH_DIR = Path(__file__).resolve().parent / "truth"


def encode_lines(lines) -> str:
    """Sorted line numbers as compact ranges: ``{1, 2, 3, 7}`` -> ``"1-3,7"``."""
    out, run = [], None
    for n in sorted(set(lines)):
        if run and n == run[1] + 1:
            run[1] = n
        else:
            if run:
                out.append(run)
            run = [n, n]
    if run:
        out.append(run)
    return ",".join(f"{a}-{b}" if a != b else str(a) for a, b in out)


def decode_lines(text: str) -> set[int]:
    """Inverse of :func:`encode_lines`."""
    lines: set[int] = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        lines.update(range(int(a), int(b or a) + 1))
    return lines


def run_id(row: dict) -> str:
    """``transformers:bert:fp16``."""
    return f"{row['package']}:{row['model']}:{row['variant']}"


def load_runs(path: Path) -> dict[str, dict]:
    """The runs of one truth file by id; a later line for the same id replaces an earlier one."""
    runs: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                runs[run_id(row)] = row
    return runs


def save_runs(path: Path, runs: dict[str, dict]) -> None:
    """Rewrite a truth file sorted by run id (atomic replace)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    text = "".join(json.dumps(runs[k], separators=(",", ":"), sort_keys=True) + "\n" for k in sorted(runs))
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
