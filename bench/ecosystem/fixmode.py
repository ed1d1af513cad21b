"""Score ``fullgraph fix`` on the real packages (fix mode): break sites and graphs before -> after.

``python bench/ecosystem/fixmode.py [PACKAGE ...] [--settings default,all (or api)] [--unsafe-fixes] [--reached] [--json OUT]``

For each package and setting (default, ``assume_compiled = "all"``): copies the package to a
scratch folder, runs ``fullgraph fix`` of the current checkout on the files holding break sites
(``--reached``: on every package file the runs reach, as a user fixing the package would),
runs it again (fix-all must then change nothing), imports every changed module from the copy,
and re-runs every model that broke and whose files were edited, original and fixed, each in a
fresh process (the copy first on ``PYTHONPATH``, same seeds), with the variants it broke in.
Prints per package: graphs and break sites before -> after, outputs identical (original vs fixed,
eager vs eager and compiled vs compiled), runs that worked before and fail after, and for every
original break site whether fullgraph fixed it, declined (the finding's reason), flagged it
without removing the break, or did not flag it.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import BENCH_PYTHON, bench_env, run_model  # noqa: E402
from score import (CHOICES, bench_site_packages, fullgraph_command, package_files, run_check,  # noqa: E402
                   truth_files, workspace)
from sites import collect_sites, statements_for  # noqa: E402
from truth import TRUTH_DIR, load_runs  # noqa: E402

DEFERRALS = {"FG301", "FG302", "FG303"}  # unsafe fixes: applied only with --unsafe-fixes (so are those a
# finding marks `unsafe_fix`: torch's print operator, a check lowered to `torch._assert_async`)


def digest(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()


def run_fix(root: Path, files: list[str], extra: list[str]) -> str:
    """``fullgraph fix`` on ``files`` under ``root`` (laid out as the package's repository,
    see ``score.workspace``); returns its summary line."""
    cmd, env = fullgraph_command()
    with tempfile.TemporaryDirectory() as tmp:
        paths = workspace(root, files, Path(tmp))
        out = subprocess.run([*cmd, "fix", "--config", str(Path(tmp) / "pyproject.toml"), *extra, *paths],
                             env=env, capture_output=True, text=True, cwd=tmp)
    if out.returncode not in (0, 1) or "Traceback (most recent call last)" in out.stderr:
        raise SystemExit(f"fullgraph fix failed ({out.returncode}): {out.stderr[-2000:]}")
    return out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ""


def fix_twice(root: Path, scratch: Path, top: str, files: list[str], extra: list[str],
              python: Path = BENCH_PYTHON) -> tuple[str, list[str], list[str], list[str]]:
    """``fullgraph fix`` on ``files`` of the copy ``scratch`` of ``root``, then again: its summary
    line, the files it changed, those the second run changed again, and the modules (``top`` and
    every changed one) that no longer import in ``python``."""
    summary = run_fix(scratch, files, extra)
    changed = [f for f in files if digest(scratch / f) != digest(root / f)]
    hashes = {f: digest(scratch / f) for f in files}
    run_fix(scratch, files, extra)
    not_idempotent = [f for f in files if digest(scratch / f) != hashes[f]]
    modules = [f[:-3].replace("/", ".").removesuffix(".__init__") for f in changed]
    return summary, changed, not_idempotent, import_check(scratch, root, [top, *modules], python) if changed else []


def line_map(before: str, after: str) -> dict[int, tuple[int, int]]:
    """Fixed-file line -> the original lines it stands for, first and last: itself for an unchanged
    line, every line a rewritten block replaced (a break anywhere in the block may be any of theirs),
    the next original line for inserted ones."""
    out = {}
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(j2 - j1):
            out[j1 + k + 1] = (i1 + k + 1,) * 2 if tag == "equal" else (i1 + 1, max(i1 + 1, i2))
    return out


def import_check(scratch: Path, root: Path, modules: list[str], python: Path = BENCH_PYTHON) -> list[str]:
    """Modules of the fixed copy that no longer import in ``python`` (each: 'module: error'); a
    module whose original, in ``root``, does not import either (an optional dependency not
    installed) is not counted."""
    failed = _import_failures(scratch, modules, python)
    if not failed or None in failed:  # the check itself crashed
        return list(failed.values())
    before = _import_failures(root, list(failed), python)
    return [error for module, error in failed.items() if module not in before]


def _import_failures(folder: Path, modules: list[str], python: Path) -> dict[str | None, str]:
    """module -> 'module: error' for the modules that do not import in ``python`` with ``folder``
    first on the path (None -> why, when the check crashed)."""
    code = ("import importlib, json, sys\nbad = {}\nfor m in sys.argv[1:]:\n    try:\n        importlib.import_module(m)\n"
            "    except Exception as e:\n        bad[m] = f'{m}: {type(e).__name__}: {e}'[:300]\nprint(json.dumps(bad))\n")
    env = bench_env()
    env["PYTHONPATH"] = str(folder)
    out = subprocess.run([str(python), "-c", code, *modules], env=env, capture_output=True, text=True, timeout=900)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {None: f"import check crashed: {out.stderr[-300:]}"}


def model_files(runs: dict[str, dict], model: str) -> set[str]:
    files = set()
    for row in runs.values():
        if row["model"] == model:
            files.update(row.get("reached", {}), row.get("untraced", {}))
            files.update(b["file"] for b in row.get("breaks", []) if b.get("file"))
    return files


def compare(a: Path, b: Path) -> dict:
    out = subprocess.run([str(BENCH_PYTHON), str(HERE / "compare.py"), str(a), str(b)], env=bench_env(),
                         capture_output=True, text=True, timeout=600)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"eager": "compare failed", "compiled": "compare failed"}


def rerun(package: str, model: str, variants: list[str], outdir: Path, pythonpath: str | None, timeout: float) -> dict:
    """One fresh process running ``variants`` of ``model``; rows by variant."""
    env = {"PYTHONPATH": pythonpath} if pythonpath else {}
    rows = run_model(str(BENCH_PYTHON), package, model, None, timeout,
                     extra=["--variants", ",".join(variants), "--outputs", str(outdir)], env_extra=env, planned=variants)
    return {r["variant"]: r for r in rows}


NONDETERMINISTIC = "nondeterministic: two runs of the original differ too"


def settle_differences(rows: list[dict], package: str, work: Path, timeout: float) -> None:
    """Run the original once more wherever its outputs and the fixed code's differ: where the
    original also differs from itself (a model whose output is not seeded), the difference says
    nothing about the fix, and the row says so instead."""
    differing: dict[str, list[str]] = {}
    for row in rows:
        if any(isinstance(v, str) for v in row["identical"].values()):
            differing.setdefault(row["model"], []).append(row["variant"])
    for model, variants in differing.items():
        rerun(package, model, variants, work / "out-original-again" / model, None, timeout)
        for row in rows:
            if row["model"] != model or row["variant"] not in variants:
                continue
            name = f"{model}.{row['variant']}.pt"
            first, again = work / "out-original" / model / name, work / "out-original-again" / model / name
            itself = compare(first, again) if again.exists() else {}
            for mode, value in row["identical"].items():
                if isinstance(value, str) and isinstance(itself.get(mode), str):
                    row["identical"][mode] = NONDETERMINISTIC


def site_outcome(flagged: bool, fixable: bool, failed: bool, rerun: bool, still: bool, changed: bool,
                 flagged_after: bool) -> str:
    """What fix-all did at one original break site. A site its first check declined counts as fixed
    when fix-all got to it in a later round (another fix removed what blocked it): its file changed,
    the fixed file no longer flags it, and the re-runs no longer break there."""
    if not flagged:
        return "not flagged"
    if not fixable and not (changed and rerun and not still and not flagged_after):
        return "declined"
    if failed:
        return "run fails after fix"
    if not rerun:
        return "fix offered, model not re-run" if not changed else "fixed, not re-run"
    return "flagged, still breaks" if still else "fixed"


def fix_package(package: str, runs: dict[str, dict], root: Path, setting: str, work: Path, jobs: int,
                timeout: float, originals: dict, unsafe: bool = False, reached: bool = False) -> dict:
    sites, _ = collect_sites(runs)
    site_files = package_files(root, sorted({s.file for s in sites.values()}))
    fixed_files = package_files(root, truth_files(runs)) if reached else site_files
    top = site_files[0].split("/")[0] if site_files else package
    scratch = work / setting
    shutil.copytree(root / top, scratch / top, ignore=shutil.ignore_patterns("__pycache__"))
    extra = CHOICES[setting]
    # flagged as check mode flags: every file the truth mentions (entries in other files reach the sites)
    findings = run_check(root, package_files(root, truth_files(runs)), extra, jobs)
    t = time.monotonic()
    summary, changed, not_idempotent, import_errors = fix_twice(root, scratch, top, fixed_files,
                                                                [*extra, "--unsafe-fixes"] if unsafe else extra)
    fix_seconds = time.monotonic() - t

    broke: dict[str, list[str]] = {}
    for s in sites.values():
        for rid in s.runs:
            row = runs[rid]
            broke.setdefault(row["model"], [])
            if row["variant"] not in broke[row["model"]]:
                broke[row["model"]].append(row["variant"])
    changed_set = set(changed)
    to_run = {m: sorted(v) for m, v in broke.items() if model_files(runs, m) & changed_set}

    def both(model: str):
        variants = to_run[model]
        if model not in originals:
            originals[model] = rerun(package, model, variants, work / "out-original" / model, None, timeout)
        fixed = rerun(package, model, variants, work / f"out-{setting}" / model, str(scratch), timeout)
        return model, originals[model], fixed

    rows = []
    after_sites: dict[str, set[tuple[str, int]]] = {}
    failed_after: set[str] = set()
    with ThreadPoolExecutor(jobs) as pool:
        for model, before, after in pool.map(both, sorted(to_run)):
            for variant in to_run[model]:
                a, b = before.get(variant, {}), after.get(variant, {})
                same = {}
                pa = work / "out-original" / model / f"{model}.{variant}.pt"
                pb = work / f"out-{setting}" / model / f"{model}.{variant}.pt"
                if pa.exists() and pb.exists():
                    same = compare(pa, pb)
                rows.append({
                    "model": model, "variant": variant, "status_before": a.get("status"), "status_after": b.get("status"),
                    "graphs": [a.get("graphs"), b.get("graphs")],
                    "sites": [len({(x["file"], x["line"]) for x in a.get("breaks", []) if x.get("file")}),
                              len({(x["file"], x["line"]) for x in b.get("breaks", []) if x.get("file")})],
                    "identical": same, "error_after": b.get("error"),
                })
                if b.get("status") in ("ok", "compile-error"):
                    after_sites[f"{model}:{variant}"] = {(x["file"], x["line"]) for x in b.get("breaks", []) if x.get("file")}
                else:
                    failed_after.add(f"{model}:{variant}")
    settle_differences(rows, package, work, timeout)

    maps = {f: line_map((root / f).read_text(encoding="utf-8"), (scratch / f).read_text(encoding="utf-8")) for f in changed}
    # what the fixed files still flag (original lines): a site its first check declined may be fixed in a
    # later round of fix-all, once another fix has removed what blocked it (output that followed it)
    flagged_after = set()
    for f in run_check(scratch, changed, extra, jobs) if changed else []:
        if f["file"] in maps:
            first, last = maps[f["file"]].get(f["line"], (f["line"], f["line"]))
            flagged_after.update((f["file"], line) for line in range(first, last + 1))
    stmts = statements_for(root, site_files)
    by_stmt: dict[tuple[str, tuple[int, int]], list[dict]] = {}
    for f in findings:
        if f["file"] in stmts:
            by_stmt.setdefault((f["file"], stmts[f["file"]].of(f["line"])), []).append(f)
    outcomes = Counter()
    reasons = Counter()
    site_rows = []
    for s in sorted(sites.values(), key=lambda s: (s.file, s.line)):
        flagged = by_stmt.get((s.file, stmts[s.file].of(s.line)) if s.file in stmts else None, [])
        fixable = [f for f in flagged if f.get("fix") and (not f.get("fix_blocked") or unsafe and (
            f["code"] in DEFERRALS or (f.get("data") or {}).get("unsafe_fix")))]
        reruns = [r for r in s.runs if f"{runs[r]['model']}:{runs[r]['variant']}" in after_sites]
        failed = [r for r in s.runs if f"{runs[r]['model']}:{runs[r]['variant']}" in failed_after]
        span = stmts[s.file].of(s.line) if s.file in stmts else (s.line, s.line)
        still = any(
            fl == s.file and _overlap(maps.get(fl, {}).get(ln, (ln, ln)), span)
            for r in reruns for fl, ln in after_sites[f"{runs[r]['model']}:{runs[r]['variant']}"]
        )
        outcome = site_outcome(bool(flagged), bool(fixable), bool(failed), bool(reruns), still, s.file in changed_set,
                               any((s.file, ln) in flagged_after for ln in range(span[0], span[1] + 1)))
        if outcome == "declined":
            reasons[flagged[0].get("fix_blocked") or f"no fix for {flagged[0]['code']}"] += 1
        outcomes[outcome] += 1
        site_rows.append({"file": s.file, "line": s.line, "gb_type": s.gb_type, "outcome": outcome,
                          "reason": flagged[0].get("fix_blocked") if flagged else None,
                          "codes": sorted({f["code"] for f in flagged})})
    return {
        "fix_summary": summary, "fix_seconds": round(fix_seconds, 1), "site_files": len(site_files),
        "changed_files": changed, "not_idempotent": not_idempotent, "import_errors": import_errors,
        "runs": rows, "site_outcomes": dict(outcomes), "decline_reasons": dict(reasons.most_common()),
        "sites": site_rows,
    }


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


# The classes of GraphMend's rewrites (and keep-tensor and masked stores), by the codes whose fixes make them.
REWRITE_CLASSES = {"predication": {"FG101", "FG102", "FG103", "FG105"}, "deferral": {"FG301", "FG302", "FG303"},
                   "trap": {"FG104", "FG107"}, "keep-tensor": {"FG201", "FG204"}, "masked store": {"FG453"},
                   "list reduction": {"FG422"}}


def print_report(package: str, results: dict[str, dict]) -> None:
    print(f"\n## fix mode: {package}\n")
    print("| setting | site files | files changed | fix-all idempotent | imports | runs re-run | graphs before → after | "
          "break sites before → after (runs that ran both times) | outputs identical (eager / compiled) | worked before, fail after |")
    print("|---|---:|---:|---|---|---:|---|---|---|---:|")
    for name, r in results.items():
        runs = r["runs"]
        both = [x for x in runs if x["status_before"] in ("ok", "compile-error") and x["status_after"] in ("ok", "compile-error")]
        g0 = sum(x["graphs"][0] or 0 for x in both)
        g1 = sum(x["graphs"][1] or 0 for x in both)
        s0 = sum(x["sites"][0] for x in both)
        s1 = sum(x["sites"][1] for x in both)
        eager_same = sum(x["identical"].get("eager") is True for x in runs)
        comp_same = sum(x["identical"].get("compiled") is True for x in runs)
        unseeded = sum(NONDETERMINISTIC in x["identical"].values() for x in runs)
        regress = sum(x["status_before"] == "ok" and x["status_after"] != "ok" for x in runs)
        slow = sum(x["status_before"] == "ok" and x["status_after"] == "timeout" for x in runs)
        idem = "yes" if not r["not_idempotent"] else f"no ({len(r['not_idempotent'])} files)"
        imports = "ok" if not r["import_errors"] else f"{len(r['import_errors'])} fail"
        print(f"| {name} | {r['site_files']} | {len(r['changed_files'])} | {idem} | {imports} | {len(runs)} | {g0} → {g1} "
              f"| {s0} → {s1} | {eager_same}/{len(runs)} / {comp_same}/{len(runs)}"
              + (f" ({unseeded} nondeterministic)" if unseeded else "") + f" | {regress}"
              + (f" ({slow} timed out)" if slow else "") + " |")
    print("\nwhat fullgraph did at each original break site:\n")
    kinds = sorted({k for r in results.values() for k in r["site_outcomes"]})
    print("| setting | " + " | ".join(kinds) + " |")
    print("|---|" + "---:|" * len(kinds))
    for name, r in results.items():
        print(f"| {name} | " + " | ".join(str(r["site_outcomes"].get(k, 0)) for k in kinds) + " |")
    print("\nby rewrite class (a site's class from the codes it is flagged with):\n")
    print("| setting | " + " | ".join(f"{c}: fixed / sites" for c in REWRITE_CLASSES) + " | all sites: fixed | runs to one graph |")
    print("|---|" + "---:|" * (len(REWRITE_CLASSES) + 2))
    for name, r in results.items():
        cells = []
        for codes in REWRITE_CLASSES.values():
            members = [x for x in r["sites"] if codes & set(x.get("codes", ()))]
            fixed = sum(x["outcome"] == "fixed" for x in members)
            cells.append(f"{fixed} / {len(members)}" + (f" ({100 * fixed / len(members):.0f}%)" if members else ""))
        fixed = sum(x["outcome"] == "fixed" for x in r["sites"])
        share = f"{fixed} / {len(r['sites'])}" + (f" ({100 * fixed / len(r['sites']):.0f}%)" if r["sites"] else "")
        whole = sum((x["graphs"][0] or 0) > 1 and x["graphs"][1] == 1 for x in r["runs"])
        print(f"| {name} | " + " | ".join(cells) + f" | {share} | {whole} of {len(r['runs'])} |")
    for name, r in results.items():
        if r["decline_reasons"]:
            print(f"\n{name}: decline reasons: " + "; ".join(f"{k} ({n})" for k, n in list(r["decline_reasons"].items())[:10]))
        for x in r["runs"]:
            flag = "" if x["identical"].get("compiled") is True else f" outputs: {x['identical']}"
            err = f" error after: {x['error_after']}" if x["status_after"] != "ok" else ""
            print(f"- {name} {x['model']}:{x['variant']} graphs {x['graphs'][0]} → {x['graphs'][1]}, "
                  f"break sites {x['sites'][0]} → {x['sites'][1]}{flag}{err}")
        for e in r["import_errors"]:
            print(f"- {name} import error: {e}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*")
    parser.add_argument("--truth", default=str(TRUTH_DIR))
    parser.add_argument("--source", help="folder holding the packages (default: the bench venv's site-packages)")
    parser.add_argument("--settings", default="default,all")
    parser.add_argument("--json")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--unsafe-fixes", action="store_true",
                        help="run `fullgraph fix --unsafe-fixes` (deferrals too; a deferral site that still breaks "
                             "at its replay counts as flagged, still breaks)")
    parser.add_argument("--reached", action="store_true",
                        help="give `fullgraph fix` every package file the runs reach, as a user fixing the package "
                             "would (default: the files holding break sites)")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("libcst") is None:  # `fullgraph fix` runs in this interpreter
        print("fixmode.py: run it with the project's interpreter (`.venv/bin/python`, where fullgraph's fixes "
              "find libcst); the models run in the bench venv either way", file=sys.stderr)
        return 2
    truth = Path(args.truth)
    root = Path(args.source) if args.source else bench_site_packages()
    packages = args.packages or sorted(p.stem for p in truth.glob("*.jsonl"))
    start = time.monotonic()
    report = {}
    for package in packages:
        runs = load_runs(truth / f"{package}.jsonl")
        originals: dict = {}
        with tempfile.TemporaryDirectory(prefix=f"fullgraph-fix-{package}-") as work:
            results = {s: fix_package(package, runs, root, s, Path(work), args.jobs, args.timeout, originals,
                                      args.unsafe_fixes, args.reached)
                       for s in args.settings.split(",")}
        print_report(package, results)
        report[package] = results
    print(f"\nfix mode wall time: {time.monotonic() - start:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
