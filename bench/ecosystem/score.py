"""Score ``fullgraph check`` against the stored ground truth (check mode; stdlib only, seconds).

``python bench/ecosystem/score.py [PACKAGE ...] [--source DIR] [--json OUT] [--details N] [--alone]``

Runs ``fullgraph check --format json`` of the current checkout (``server/`` of this repository,
or ``$FULLGRAPH_SERVER``) on every package file the truth mentions, with default settings and
again with ``assume_compiled = "all"`` (``--settings`` picks others: ``api``), and prints per package
and setting:

* recall: break sites (innermost package frame of a Dynamo break, any run) with a finding on
  their statement; split into model code and shared infrastructure (a line that breaks in runs
  of 3+ models), and per gb_type; the misses listed;
* reached-line precision: a finding whose statement some run executed and Dynamo traced, with
  no break there in any run, is a false alarm; findings on statements run only outside
  Dynamo (skipped frames) and on statements no run reached are counted apart ("untraced",
  "unknown"); true findings at sites that broke only in a variant (fp16, train, head, rope)
  are counted as such; the false alarms listed with their source line.

With ``--alone``, each file is checked on its own (one ``fullgraph check FILE`` each, default
settings only) and only the findings in that file count: what the editor shows for a file opened
by itself, or a pre-commit run on the one file changed, where no other file's analysis places
findings in it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

from sites import Site, Statements, collect_sites, reached, statements_for  # noqa: E402
from truth import TRUTH_DIR, load_runs  # noqa: E402

SETTINGS = {"default": [], "all": ["--assume-compiled", "all"]}  # what the other scorers run
CHOICES = {**SETTINGS, "api": ["--assume-compiled", "api"]}


def bench_site_packages() -> Path:
    """Where the bench venv installed the packages (their sources are scored in place)."""
    found = sorted((HERE / ".venv" / "lib").glob("python3*/site-packages"))
    if not found:
        raise SystemExit("no bench venv: run `make ecosystem-venv` first (or pass --source)")
    return found[0]


def fullgraph_command() -> tuple[list[str], dict[str, str]]:
    """How to run the fullgraph under test: this checkout's server/ unless $FULLGRAPH_SERVER."""
    server = os.environ.get("FULLGRAPH_SERVER", str(REPO / "server"))
    env = dict(os.environ)
    env["PYTHONPATH"] = server + os.pathsep + env.get("PYTHONPATH", "")
    return [sys.executable, "-m", "fullgraph"], env


def workspace(root: Path, files: list[str], tmp: Path) -> list[str]:
    """Lay ``tmp`` out like the package's own repository and return ``files`` as paths in it.

    The package's top-level folders are linked in and ``tmp/pyproject.toml`` has default
    settings (no ``[tool.fullgraph]`` rules) and names the bench venv's interpreter, as a
    developer of the package would have it: the package's files are the workspace, and its
    imports of other installed packages resolve as they did in the recorded runs.
    """
    for top in sorted({f.split("/")[0] for f in files}):
        link = tmp / top
        if not link.exists():
            link.symlink_to(root / top, target_is_directory=(root / top).is_dir())
    python = HERE / ".venv" / "bin" / "python"
    table = f"\n[tool.fullgraph]\npython = {json.dumps(str(python))}\n" if python.exists() else ""
    (tmp / "pyproject.toml").write_text(f"[project]\nname = 'ecosystem-bench'\n{table}", encoding="utf-8")
    return [str(tmp / f) for f in files]


def run_check(root: Path, files: list[str], extra: list[str], jobs: int) -> list[dict]:
    """Findings of ``fullgraph check --format json`` on ``files`` (relative to ``root``), each
    with ``file`` relative to ``root``."""
    cmd, env = fullgraph_command()
    real_root = os.path.realpath(root)
    with tempfile.TemporaryDirectory() as tmp:
        paths = workspace(root, files, Path(tmp))
        out = subprocess.run(
            [*cmd, "check", "--format", "json", "--jobs", str(jobs), "--config", str(Path(tmp) / "pyproject.toml"),
             *extra, *paths],
            env=env, capture_output=True, text=True, cwd=tmp,
        )
        if out.returncode not in (0, 1):
            raise SystemExit(f"fullgraph check failed ({out.returncode}): {out.stderr[-2000:]}")
        findings = json.loads(out.stdout or "[]")
        if isinstance(findings, dict):
            findings = findings.get("findings", [])
        for f in findings:  # through the links, while they exist
            f["file"] = os.path.relpath(os.path.realpath(os.path.join(tmp, f["path"])), real_root).replace(os.sep, "/")
    return [f for f in findings if f["code"] != "FG000"]


def run_alone(root: Path, files: list[str], extra: list[str], jobs: int) -> list[dict]:
    """The findings of each file checked on its own, in that file only."""
    from concurrent.futures import ThreadPoolExecutor

    def own(file: str) -> list[dict]:
        return [f for f in run_check(root, [file], extra, 1) if f["file"] == file]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return [f for found in pool.map(own, files) for f in found]


def score(runs: dict[str, dict], findings: list[dict], stmts: dict[str, Statements]) -> dict:
    """Recall and reached-line precision of one setting's findings against the runs."""
    sites, unplaced = collect_sites(runs)
    site_stmts: dict[tuple[str, tuple[int, int]], list[Site]] = {}
    for site in sites.values():
        site_stmts.setdefault((site.file, stmts[site.file].of(site.line)), []).append(site)
    reached_lines, untraced_lines = reached(runs, "reached"), reached(runs, "untraced")
    flagged: dict[tuple[str, tuple[int, int]], list[dict]] = {}
    for f in findings:
        st = stmts.get(f["file"])
        if st is not None:
            flagged.setdefault((f["file"], st.of(f["line"])), []).append(f)

    found_sites = [s for key, group in site_stmts.items() if key in flagged for s in group]
    found = {(s.file, s.line) for s in found_sites}
    recall = {"sites": len(sites), "found": len(found)}
    for bucket, pick in (("model", lambda s: not s.shared), ("shared", lambda s: s.shared)):
        chosen = [s for s in sites.values() if pick(s)]
        recall[bucket] = {"sites": len(chosen), "found": sum((s.file, s.line) in found for s in chosen)}
    by_type: dict[str, list[int]] = {}
    for s in sites.values():
        counts = by_type.setdefault(s.gb_type, [0, 0])
        counts[0] += 1
        counts[1] += (s.file, s.line) in found
    misses = [site_row(s, stmts) for s in sorted(sites.values(), key=lambda s: (s.file, s.line)) if (s.file, s.line) not in found]

    verdicts = Counter()
    only_variant = Counter()
    false_alarms = []
    per_code = {}
    seen = set()
    for (file, span), group in sorted(flagged.items()):
        for f in group:
            # a finding on a later line of its statement (a branch of a multi-line conditional
            # expression) is judged by that line: the statement can run without it
            lines = set(range(span[0], span[1] + 1)) if f["line"] == span[0] else {f["line"]}
            key = (file, span, f["code"])
            if key in seen:
                continue
            seen.add(key)
            if (file, span) in site_stmts:
                verdict = "true"
                variants = {s.only_in for s in site_stmts[(file, span)]}
                if None not in variants:
                    only_variant["/".join(sorted(variants))] += 1
            elif lines & reached_lines.get(file, set()):
                verdict = "false"
                false_alarms.append({"file": file, "line": f["line"], "code": f["code"], "message": f["message"],
                                     "source": stmts[file].text(f["line"])})
            elif lines & untraced_lines.get(file, set()):
                verdict = "untraced"
            else:
                verdict = "unknown"
            verdicts[verdict] += 1
            per_code.setdefault(f["code"], Counter())[verdict] += 1
    judged = verdicts["true"] + verdicts["false"]
    return {
        "recall": recall,
        "recall_by_gb_type": {t: {"sites": c[0], "found": c[1]} for t, c in sorted(by_type.items())},
        "misses": misses,
        "unplaced_breaks": len(unplaced),
        "findings": sum(verdicts.values()),
        "verdicts": dict(verdicts),
        "precision": round(verdicts["true"] / judged, 4) if judged else None,
        "true_only_in_variant": dict(only_variant),
        "per_code": {c: dict(v) for c, v in sorted(per_code.items())},
        "false_alarms": false_alarms,
    }


def site_row(s: Site, stmts: dict[str, Statements]) -> dict:
    return {"file": s.file, "line": s.line, "gb_type": s.gb_type, "models": len(s.models), "runs": len(s.runs),
            "shared": s.shared, "only_in": s.only_in, "source": stmts[s.file].text(s.line)}


def truth_files(runs: dict[str, dict]) -> list[str]:
    """Every package file the truth mentions (reached, run untraced, or holding a break)."""
    files = set()
    for row in runs.values():
        files.update(row.get("reached", {}))
        files.update(row.get("untraced", {}))
        files.update(b["file"] for b in row.get("breaks", []) if b.get("file"))
    return sorted(files)


def package_files(root: Path, files: list[str]) -> list[str]:
    """``files`` (paths the truth names), after checking each is under ``root``: a missing one
    means the package is not installed there, which would score as if nothing were found."""
    missing = [f for f in files if not (root / f).exists()]
    if missing:
        raise SystemExit(f"{len(missing)} file(s) the truth names are not under {root} (first: {missing[0]}): "
                         "is the package installed? `make ecosystem-venv` installs the pinned packages")
    return files


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "n/a"


def print_report(package: str, runs: dict[str, dict], results: dict[str, dict], details: int) -> None:
    versions = sorted({r.get("version", "?") for r in runs.values()})
    ok = sum(r.get("status") == "ok" for r in runs.values())
    models = len({r["model"] for r in runs.values()})
    print(f"\n## {package} {', '.join(versions)}: {len(runs)} runs of {models} models ({ok} ran under Dynamo)\n")
    kinds = Counter((r["variant"].split("-")[0], r.get("status") == "ok") for r in runs.values())
    print("runs that ran / recorded, by variant: " + ", ".join(
        f"{v} {kinds[(v, True)]}/{kinds[(v, True)] + kinds[(v, False)]}" for v in sorted({k for k, _ in kinds})) + "\n")
    print("| setting | break sites | found | recall | model code | shared infra | findings | true | false alarms | precision | untraced | unknown |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in results.items():
        rc, v = r["recall"], r["verdicts"]
        print(f"| {name} | {rc['sites']} | {rc['found']} | {pct(rc['found'], rc['sites'])} "
              f"| {rc['model']['found']}/{rc['model']['sites']} | {rc['shared']['found']}/{rc['shared']['sites']} "
              f"| {r['findings']} | {v.get('true', 0)} | {v.get('false', 0)} "
              f"| {pct(v.get('true', 0), v.get('true', 0) + v.get('false', 0))} | {v.get('untraced', 0)} | {v.get('unknown', 0)} |")
    first = next(iter(results.values()))
    if first["unplaced_breaks"]:
        print(f"\n{first['unplaced_breaks']} breaks had no frame in the package (counted in no site).")
    print("\nrecall by gb_type (" + ", ".join(results) + "):\n")
    print("| gb_type | sites | " + " | ".join(f"found ({n})" for n in results) + " |")
    print("|---|---:|" + "---:|" * len(results))
    for t, c in first["recall_by_gb_type"].items():
        print(f"| {t} | {c['sites']} | " + " | ".join(str(r["recall_by_gb_type"][t]["found"]) for r in results.values()) + " |")
    for name, r in results.items():
        if r["true_only_in_variant"]:
            print(f"\n{name}: true findings at sites that broke only in a variant: "
                  + ", ".join(f"{k} {n}" for k, n in sorted(r["true_only_in_variant"].items())))
    if details:
        for name, r in results.items():
            print(f"\n### {package}, {name}: missed sites ({len(r['misses'])})\n")
            for m in r["misses"][:details]:
                tag = "shared" if m["shared"] else "model"
                only = f", only {m['only_in']}" if m["only_in"] else ""
                print(f"- `{m['file']}:{m['line']}` {m['gb_type']} ({tag}, {m['models']} models{only}): `{m['source'][:100]}`")
            print(f"\n### {package}, {name}: false alarms ({len(r['false_alarms'])})\n")
            for f in r["false_alarms"][:details]:
                print(f"- `{f['file']}:{f['line']}` {f['code']}: `{f['source'][:100]}`")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help="packages to score (default: every truth file)")
    parser.add_argument("--truth", default=str(TRUTH_DIR))
    parser.add_argument("--source", help="folder holding the packages (default: the bench venv's site-packages)")
    parser.add_argument("--json", help="write the full results here")
    parser.add_argument("--details", type=int, default=30, help="misses and false alarms listed per setting")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--alone", action="store_true", help="check each file on its own (default settings only)")
    parser.add_argument("--settings", default="default,all",
                        help=f"comma-separated settings to score, of {', '.join(CHOICES)} (default: default,all)")
    args = parser.parse_args(argv)
    names = ["default"] if args.alone else [n for n in args.settings.split(",") if n]
    if any(n not in CHOICES for n in names):
        parser.error(f"--settings takes {', '.join(CHOICES)}")
    settings = {n: CHOICES[n] for n in names}
    check = run_alone if args.alone else run_check
    truth = Path(args.truth)
    packages = args.packages or sorted(p.stem for p in truth.glob("*.jsonl"))
    root = Path(args.source) if args.source else bench_site_packages()
    report = {}
    start = time.monotonic()
    for package in packages:
        runs = load_runs(truth / f"{package}.jsonl")
        files = package_files(root, truth_files(runs))
        stmts = statements_for(root, files)
        results = {name: score(runs, check(root, files, extra, args.jobs), stmts) for name, extra in settings.items()}
        print_report(package, runs, results, args.details)
        report[package] = results
    print(f"\nscore wall time: {time.monotonic() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
