"""The README's check-mode and fix-mode tables from the scorers' `--json` outputs (stdlib only).

``python bench/ecosystem/readme_table.py AFTER.json BEFORE.json`` prints one row per package and
setting, in the order the packages joined the bench, with BEFORE's recall and precision in brackets
(BEFORE: the same script with ``FULLGRAPH_SERVER`` at an earlier engine, on the same truth).
``python bench/ecosystem/readme_table.py --fix FIX.json [FIX.json ...]`` prints the fix-mode rows
from `fixmode.py --json` outputs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fixmode import NONDETERMINISTIC

# package (truth file stem) -> the name the README gives it, in the order the packages joined
NAMES = {"transformers": "transformers", "diffusers": "diffusers", "torch_geometric": "torch-geometric",
         "pyro": "pyro", "kornia": "kornia", "x_transformers": "x-transformers", "monai": "MONAI",
         "vector_quantize_pytorch": "vector-quantize-pytorch", "torchmetrics": "torchmetrics", "peft": "peft",
         "stable_baselines3": "stable-baselines3", "torchdiffeq": "torchdiffeq",
         "pytorch_metric_learning": "pytorch-metric-learning", "torch_frame": "pytorch-frame",
         "normflows": "normflows", "gpytorch": "gpytorch", "neuralop": "neuraloperator",
         "e3nn": "e3nn", "litgpt": "litgpt", "pykeen": "pykeen"}
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


FIX_HEADER = ("| package | setting | site files | files changed | sites fixed | declined | flagged, still breaks "
              "| not flagged | graphs before → after (runs re-run) | break sites before → after | outputs identical "
              "(eager / compiled) | worked before, fail after | fix-all idempotent, imports |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---|")


def fix_rows(results: dict) -> list[str]:
    out = []
    for package in [p for p in NAMES if p in results] + sorted(set(results) - set(NAMES)):
        for setting, k in results[package].items():
            o, runs = k["site_outcomes"], k["runs"]
            both = [r for r in runs if r["status_before"] == "ok" and r["status_after"] == "ok"]
            cells = ["no run re-run", "", "", ""]
            if runs:
                total = [sum(r[key][i] for r in both) for key in ("graphs", "sites") for i in (0, 1)]
                same = [sum(r["identical"].get(mode) is True for r in both) for mode in ("eager", "compiled")]
                unseeded = sum(NONDETERMINISTIC in r["identical"].values() for r in both)
                worse = sum(1 for r in runs if r["status_before"] == "ok" and r["status_after"] != "ok")
                cells = [f"{total[0]} → {total[1]} ({len(runs)})", f"{total[2]} → {total[3]}",
                         f"{same[0]}/{len(both)} / {same[1]}/{len(both)}"
                         + (f" ({unseeded} nondeterministic)" if unseeded else ""), str(worse)]
            health = f"{'no' if k['not_idempotent'] else 'yes'}, {'FAILED' if k['import_errors'] else 'ok'}"
            out.append(f"| {NAMES.get(package, package)} | {setting} | {k['site_files']} | {len(k['changed_files'])} "
                       f"| {o.get('fixed', 0)} | {o.get('declined', 0)} | {o.get('flagged, still breaks', 0)} "
                       f"| {o.get('not flagged', 0)} | " + " | ".join(cells) + f" | {health} |")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--fix"] and len(args) > 1:
        results: dict = {}
        for a in args[1:]:
            results.update(json.loads(Path(a).read_text(encoding="utf-8")))
        print(FIX_HEADER)
        print("\n".join(fix_rows(results)))
        return 0
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    after, before = (json.loads(Path(a).read_text(encoding="utf-8")) for a in args)
    print(HEADER)
    print("\n".join(rows(after, before)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
