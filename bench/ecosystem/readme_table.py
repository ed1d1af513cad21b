"""The README's check-mode table from two `score.py --json` outputs (stdlib only).

``python bench/ecosystem/readme_table.py AFTER.json BEFORE.json`` prints one row per package and
setting, in the order the packages joined the bench, with BEFORE's recall and precision in brackets
(BEFORE: the same script with ``FULLGRAPH_SERVER`` at an earlier engine, on the same truth).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# package (truth file stem) -> the name the README gives it, in the order the packages joined
NAMES = {"transformers": "transformers", "diffusers": "diffusers", "torch_geometric": "torch-geometric",
         "pyro": "pyro", "kornia": "kornia", "x_transformers": "x-transformers", "monai": "MONAI",
         "vector_quantize_pytorch": "vector-quantize-pytorch", "torchmetrics": "torchmetrics", "peft": "peft",
         "stable_baselines3": "stable-baselines3", "torchdiffeq": "torchdiffeq",
         "pytorch_metric_learning": "pytorch-metric-learning"}
HEADER = ("| package | setting | break sites (model / shared) | found | recall (before) | model code found "
          "| true findings | false alarms | precision (before) | unknown |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "n/a"


def rates(result: dict) -> tuple[str, str]:
    recall, verdicts = result["recall"], result["verdicts"]
    true, false = verdicts.get("true", 0), verdicts.get("false", 0)
    return pct(recall["found"], recall["sites"]), pct(true, true + false)


def rows(after: dict, before: dict) -> list[str]:
    out = []
    for package in [p for p in NAMES if p in after] + sorted(set(after) - set(NAMES)):
        for setting, result in after[package].items():
            rc, v = result["recall"], result["verdicts"]
            recall, precision = rates(result)
            old = before.get(package, {}).get(setting)
            old_recall, old_precision = rates(old) if old else ("n/a", "n/a")
            out.append(f"| {NAMES.get(package, package)} | {setting} | {rc['sites']} ({rc['model']['sites']} / "
                       f"{rc['shared']['sites']}) | {rc['found']} | {recall} ({old_recall}) | {rc['model']['found']}/"
                       f"{rc['model']['sites']} | {v.get('true', 0)} | {v.get('false', 0)} | {precision} ({old_precision}) "
                       f"| {v.get('unknown', 0)} |")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    after, before = (json.loads(Path(a).read_text(encoding="utf-8")) for a in args)
    print(HEADER)
    print("\n".join(rows(after, before)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
