"""Every finding and its fix state on the recorded packages, to compare two engines (a fix-layer change check).

``python bench/ecosystem/fixstates.py OUT.json [PACKAGE ...]`` runs ``fullgraph check`` (this checkout's
``server/``, or ``$FULLGRAPH_SERVER``) on every package file the truth names, with default settings
and with ``assume_compiled = "all"``, and stores each finding as (file, line, code, fix kind, why
fix-all declines or None). ``python bench/ecosystem/fixstates.py --compare OLD.json NEW.json`` prints
what differs: findings found by one engine only, and fix states that changed, with both reasons.

Check-mode scores depend on the findings alone, and fix mode applies only findings fix-all does not
decline: when neither changed, a change to the fix layer leaves both benches' figures as they were,
and only the reasons given differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from score import SETTINGS, bench_site_packages, package_files, run_check, truth_files  # noqa: E402
from truth import TRUTH_DIR, load_runs  # noqa: E402


def states(packages: list[str], root: Path, truth: Path, jobs: int) -> dict[str, list]:
    """``package:setting`` -> its findings as [file, line, code, fix, fix_blocked], sorted."""
    out = {}
    for package in packages:
        files = package_files(root, truth_files(load_runs(truth / f"{package}.jsonl")))
        for setting, extra in SETTINGS.items():
            found = run_check(root, files, extra, jobs)
            out[f"{package}:{setting}"] = sorted(([f["file"], f["line"], f["code"], f.get("fix"), f.get("fix_blocked")]
                                                  for f in found), key=str)
            print(f"{package} ({setting}): {len(found)} findings", file=sys.stderr, flush=True)
    return out


def differences(old: dict[str, list], new: dict[str, list]) -> list[str]:
    """Lines saying what differs between two ``states`` results."""
    lines = []
    for key in sorted(set(old) | set(new)):
        before = {tuple(f[:3]): f for f in old.get(key, [])}
        after = {tuple(f[:3]): f for f in new.get(key, [])}
        lines += [f"{key}: only before: {k[0]}:{k[1]} {k[2]}" for k in sorted(set(before) - set(after), key=str)]
        lines += [f"{key}: only after: {k[0]}:{k[1]} {k[2]}" for k in sorted(set(after) - set(before), key=str)]
        for k in sorted(set(before) & set(after), key=str):
            if before[k] != after[k]:
                lines.append(f"{key}: {k[0]}:{k[1]} {k[2]}\n    before: {before[k][4] or 'fixable'}\n"
                             f"    after:  {after[k][4] or 'fixable'}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="OUT.json [PACKAGE ...], or OLD.json NEW.json with --compare")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--truth", default=str(TRUTH_DIR))
    parser.add_argument("--source", help="folder holding the packages (default: the bench venv's site-packages)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.compare:
        old, new = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.paths[:2])
        lines = differences(old, new)
        print("\n".join(lines))
        found = sum(len(v) for v in new.values())
        changed = sum(1 for line in lines if "\n" in line)
        print(f"{len(new)} package settings, {found} findings after; {len(lines) - changed} found by one engine "
              f"only; {changed} fix states changed, {sum('after:  fixable' in line for line in lines)} of them to fixable")
        return 0
    truth = Path(args.truth)
    packages = args.paths[1:] or sorted(p.stem for p in truth.glob("*.jsonl"))
    root = Path(args.source) if args.source else bench_site_packages()
    Path(args.paths[0]).write_text(json.dumps(states(packages, root, truth, args.jobs)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
