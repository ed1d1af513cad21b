"""Share of transformers model types `fullgraph confirm` runs without a factory, and their break lines.

For each model type's base class (``AutoModel``'s mapping) it confirms
``transformers/models/<type>/modeling_<type>.py::<Class>`` (or the modeling file of that folder
that defines the class: ``maskformer-swin``'s is ``modeling_maskformer_swin.py``) with no factory, on one warm worker in
the given interpreter (which must have torch and transformers), and prints the share that ran
(the model was synthesized and its forward completed) and, for the types in the ecosystem bench's
ground truth (``base`` variant), how the confirmed break lines compare with the recorded ones.

    python bench/confirm_without_factory.py --python PATH/TO/python [--limit N] [--only TYPE ...] [--truth FILE]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from fullgraph.confirm.client import ConfirmClient, ConfirmError  # noqa: E402
from fullgraph.confirm.targets import Target  # noqa: E402

LIST_MODELS = """
import glob, json, os, transformers
from transformers.models.auto.configuration_auto import model_type_to_module_name
from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES
root = os.path.dirname(transformers.__file__)
out = []
for model_type, names in sorted(MODEL_MAPPING_NAMES.items()):
    name = names[0] if isinstance(names, (list, tuple)) else names
    module = model_type_to_module_name(model_type)
    path = os.path.join(root, "models", module, f"modeling_{module}.py")
    if os.path.isfile(path):  # the module's modeling file, or the one of its folder that defines the class
        defining = [f for f in [path, *sorted(glob.glob(os.path.join(os.path.dirname(path), "modeling_*.py")))]
                    if f"class {name}(" in open(f, encoding="utf-8").read()]
        out.append([model_type, defining[0] if defining else path, name])
print(json.dumps([transformers.__version__, out]))
"""


def installed(path: str) -> str:
    """``transformers/models/...`` from an absolute path inside site-packages."""
    marker = f"{os.sep}site-packages{os.sep}"
    return path.split(marker, 1)[1] if marker in path else path


def break_lines(result: dict) -> set[tuple[str, int]]:
    """(file, line) of each confirmed break's innermost frame."""
    return {(installed(b["frames"][-1]["file"]), b["frames"][-1]["line"]) for b in result["breaks"] if b["frames"]}


class Truth(typing.NamedTuple):
    """A model type's ground truth: its located break lines, its graph count, and whether it also
    counts a break with no location (Dynamo's counters alone: no line to compare)."""

    lines: set
    graphs: int
    unlocated: bool


def truth_runs(truth: Path) -> dict[str, Truth]:
    """The ground truth per model type (``base`` variant runs that completed)."""
    out = {}
    if not truth.is_file():
        return out
    for line in truth.read_text().splitlines():
        row = json.loads(line)
        if row.get("variant") == "base" and row.get("status") == "ok":
            breaks = row.get("breaks", [])
            out[row["model"]] = Truth({(b["file"], b["line"]) for b in breaks if b["file"] is not None},
                                      row.get("graphs"), any(b["file"] is None for b in breaks))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="interpreter with torch and transformers")
    parser.add_argument("--limit", type=int, help="every k-th model type so that about N are run")
    parser.add_argument("--truth", default=str(ROOT / "bench/ecosystem/truth/transformers.jsonl"))
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--json", help="write per-model results here")
    parser.add_argument("--only", nargs="+", metavar="TYPE", help="just these model types (after --limit)")
    args = parser.parse_args()
    version, models = json.loads(subprocess.run([args.python, "-c", LIST_MODELS], check=True, capture_output=True,
                                                text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}).stdout)
    if args.limit and args.limit < len(models):
        step = len(models) / args.limit
        models = [models[int(i * step)] for i in range(args.limit)]
    if args.only:
        models = [m for m in models if m[0] in args.only]
    truth = truth_runs(Path(args.truth))
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_VERBOSITY": "error"}
    rows, failures = [], collections.Counter()
    started = time.perf_counter()
    with ConfirmClient(python=args.python, timeout=args.timeout, env=env) as client:
        for model_type, path, name in models:
            target = Target(path, name, None, os.path.dirname(path))
            row = {"model": model_type, "target": f"{installed(path)}::{name}"}
            try:
                result = client.request(target.payload())
                errors = [r["error"] for r in result["input_sets"] if r.get("error")]
                row.update(ran=not errors, graphs=[r["graphs"] for r in result["input_sets"]],
                           breaks=sorted(break_lines(result)), error=errors[0] if errors else None)
            except ConfirmError as e:
                row.update(ran=False, error=f"{e.kind}: {e}")
            if not row["ran"]:
                failures[row["error"].split(":")[0] if row["error"].startswith(("factory", "import", "timeout",
                                                                                 "crashed")) else "run"] += 1
            rows.append(row)
            print(f"{model_type:28} {'ran' if row['ran'] else 'FAILED'} {row.get('graphs', '')} "
                  f"{(row['error'] or '')[:160]}", file=sys.stderr, flush=True)
    ran = [r for r in rows if r["ran"]]
    print(f"transformers {version}: {len(models)} model types (base classes), "
          f"{time.perf_counter() - started:.0f} s")
    print(f"confirm ran without a factory: {len(ran)}/{len(rows)} ({100 * len(ran) / max(len(rows), 1):.1f}%, goal >= 90%)")
    for kind, n in failures.most_common():
        print(f"  not run ({kind}): {n}")
    compared = [r for r in ran if r["model"] in truth]
    same = [r for r in compared if {tuple(b) for b in r["breaks"]} == truth[r["model"]].lines]
    print(f"break lines vs the ecosystem ground truth (base variant): {len(same)}/{len(compared)} model types "
          f"with the same set")
    print(f"  ({sum(truth[r['model']].unlocated for r in compared)} of them also count a break with no location, "
          f"from Dynamo's counters alone: not compared)")
    graphs = [r for r in compared if r["graphs"] and set(r["graphs"]) == {truth[r["model"]].graphs}]
    print(f"graph counts equal to the ground truth's: {len(graphs)}/{len(compared)} model types")
    for r in compared:
        if r not in same:
            mine, theirs = {tuple(b) for b in r["breaks"]}, truth[r["model"]].lines
            only_mine, only_theirs = sorted(mine - theirs, key=str)[:4], sorted(theirs - mine, key=str)[:4]
            print(f"  {r['model']}: only confirm {only_mine}; only truth {only_theirs}")  # str: lines may be None
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
