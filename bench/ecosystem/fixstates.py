"""Every finding and its fix state on the recorded packages, to compare two engines (a fix-layer change check).

``python bench/ecosystem/fixstates.py OUT.json [PACKAGE ...]`` runs ``fullgraph check`` (this checkout's
``server/``, or ``$FULLGRAPH_SERVER``) on every package file the truth names, with default settings
and with ``assume_compiled = "all"``, and stores each finding as (file, line, code, fix kind, why
fix-all declines or None). ``python bench/ecosystem/fixstates.py --compare OLD.json NEW.json`` prints
what differs: findings found by one engine only, and fix states that changed, with both reasons. ``python bench/ecosystem/fixstates.py --sites STATES.json``
prints, per package and setting, how many of the break sites flagged as predication, deferral or
trap (issue "Fixes that work on real models") have a finding fix-all applies, and why the others decline.

Check-mode scores depend on the findings alone, and fix mode applies only findings fix-all does not
decline: when neither changed, a change to the fix layer leaves both benches' figures as they were,
and only the reasons given differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fixmode import REWRITE_CLASSES  # noqa: E402
from score import SETTINGS, bench_site_packages, package_files, run_check, truth_files  # noqa: E402
from sites import collect_sites, statements_for  # noqa: E402
from truth import TRUTH_DIR, load_runs  # noqa: E402

GRAPHMEND = REWRITE_CLASSES["predication"] | REWRITE_CLASSES["deferral"] | REWRITE_CLASSES["trap"]


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


def site_states(found: dict[str, list], truth: Path, root: Path) -> tuple[list[str], Counter]:
    """Per ``package:setting``: of the break sites with a predication, deferral or trap finding on
    their statement, those where fix-all applies one; and the declines by reason (a site's first
    such finding)."""
    lines, reasons = [], Counter()
    totals: dict[str, list[int]] = {}
    for key, findings in sorted(found.items()):
        package, _, setting = key.partition(":")
        sites, _ = collect_sites(load_runs(truth / f"{package}.jsonl"))
        stmts = statements_for(root, {f for f, _ in sites})
        by_file: dict[str, list] = {}
        for file, line, code, fix, blocked in findings:
            if code in GRAPHMEND:
                by_file.setdefault(file, []).append((line, code, fix, blocked))
        flagged = ok = 0
        for file, line in sites:
            span = stmts[file].of(line) if file in stmts else (line, line)
            on = [f for f in by_file.get(file, []) if span[0] <= f[0] <= span[1]]
            if not on:
                continue
            flagged += 1
            if any(fix and not blocked for _, _, fix, blocked in on):
                ok += 1
            else:
                reasons[on[0][3] or f"no rewrite ({on[0][1]})"] += 1
        if flagged:
            lines.append(f"{key}: {ok} of {flagged} sites fixable")
        count = totals.setdefault(setting, [0, 0])
        count[0], count[1] = count[0] + ok, count[1] + flagged
    lines += [f"{setting}, every package: {ok} of {flagged} predication, deferral and trap sites have a fix fix-all "
              "applies" for setting, (ok, flagged) in sorted(totals.items())]
    return lines, reasons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="OUT.json [PACKAGE ...], or OLD.json NEW.json with --compare")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--sites", action="store_true", help="STATES.json: predication, deferral and trap sites")
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
    if args.sites:
        root = Path(args.source) if args.source else bench_site_packages()
        lines, reasons = site_states(json.loads(Path(args.paths[0]).read_text(encoding="utf-8")), truth, root)
        print("\n".join(lines) + "\n\ndeclines by reason:")
        print("\n".join(f"{n:4d}  {reason[:160]}" for reason, n in reasons.most_common()))
        return 0
    packages = args.paths[1:] or sorted(p.stem for p in truth.glob("*.jsonl"))
    root = Path(args.source) if args.source else bench_site_packages()
    Path(args.paths[0]).write_text(json.dumps(states(packages, root, truth, args.jobs)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
