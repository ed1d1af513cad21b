"""Check and fix-all on installed packages no run was recorded for (a robustness sweep).

``python bench/ecosystem/sweep.py [PACKAGE ...] [--settings default,all] [--source DIR] [--json OUT]``

The truth covers sixteen packages; fullgraph meets code nobody recorded. For each package (a
folder of the bench venv's site-packages, or of ``--source``) and setting, as ruff's ecosystem
check runs on projects to catch panics: ``fullgraph check`` on every Python file of the package
(its wall time, its findings, FG000 internal errors and FG001 functions not analysed), then
``fullgraph fix`` on a scratch copy: the files it changed, those that no longer compile, a second
fix-all that must change nothing, and the import of the package and of every changed module in
the bench venv's interpreter. No Dynamo run: what it proves is that nothing crashes and no fix
breaks a file or an import, on code no fixture was written from.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fixmode import fix_twice  # noqa: E402
from generate import BENCH_PYTHON  # noqa: E402
from score import SETTINGS, bench_site_packages, run_check  # noqa: E402

# Installed with the bench's packages, without recorded runs: model code and its utilities
# (accelerate, einops, einx, linear_operator, functorch, timm) and code that never imports torch (networkx).
PACKAGES = ("accelerate", "einops", "einx", "linear_operator", "functorch", "timm", "networkx")
INTERNAL = ("FG000", "FG001")


def package_sources(root: Path, package: str) -> list[str]:
    """Every Python file of ``package`` under ``root``, relative to ``root``."""
    top = root / package
    if not top.is_dir():
        raise SystemExit(f"{package} is not a package folder under {root}")
    return sorted(str(p.relative_to(root)) for p in top.rglob("*.py") if "__pycache__" not in p.parts)


def broken_files(root: Path, files: list[str]) -> list[str]:
    """The files of ``files`` that no longer compile (each: 'file: error')."""
    bad = []
    for f in files:
        try:
            compile((root / f).read_bytes(), f, "exec")
        except (SyntaxError, ValueError) as exc:
            bad.append(f"{f}: {type(exc).__name__}: {exc}"[:300])
    return bad


def sweep_package(package: str, root: Path, setting: str, work: Path, jobs: int,
                  python: Path = BENCH_PYTHON) -> dict:
    """Check, fix, fix again, compile and import one package under one setting."""
    files = package_sources(root, package)
    extra = SETTINGS[setting]
    lines = sum(len((root / f).read_bytes().splitlines()) for f in files)
    t = time.monotonic()
    try:
        findings = run_check(root, files, extra, jobs)
    except SystemExit as exc:  # a crash of check is a finding of the sweep, not the end of it
        return {"files": len(files), "lines": lines, "check_error": str(exc)[-1000:]}
    check_seconds = time.monotonic() - t
    codes = Counter(f["code"] for f in findings)
    internal = [f"{f['file']}:{f['line']} {f['code']} {f['message']}"[:300] for f in findings if f["code"] in INTERNAL]
    scratch = work / setting
    shutil.copytree(root / package, scratch / package, ignore=shutil.ignore_patterns("__pycache__"))
    try:
        summary, changed, not_idempotent, import_errors = fix_twice(root, scratch, package, files, extra, python)
    except SystemExit as exc:  # a crash of fix is a finding of the sweep, not the end of it
        return {"files": len(files), "lines": lines, "findings": len(findings), "codes": dict(codes),
                "internal": internal, "check_seconds": round(check_seconds, 1), "fix_error": str(exc)[-1000:]}
    return {
        "files": len(files), "lines": lines, "findings": len(findings), "codes": dict(codes.most_common()),
        "internal": internal, "check_seconds": round(check_seconds, 1), "fix_summary": summary,
        "changed_files": changed, "broken_files": broken_files(scratch, changed), "not_idempotent": not_idempotent,
        "import_errors": import_errors,
    }


def print_table(results: dict[str, dict[str, dict]]) -> None:
    print("| package | setting | files | lines | check (s) | findings | FG000 / FG001 | files fixed | "
          "no longer compile | not idempotent | imports |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for package, settings in results.items():
        for setting, r in settings.items():
            if "check_error" in r:
                print(f"| {package} | {setting} | {r['files']} | {r['lines']:,} | check crashed | | | | | | |")
                continue
            internal = f"{r['codes'].get('FG000', 0)} / {r['codes'].get('FG001', 0)}"
            if "fix_error" in r:
                print(f"| {package} | {setting} | {r['files']} | {r['lines']:,} | {r['check_seconds']} | {r['findings']:,} "
                      f"| {internal} | fix crashed | | | |")
                continue
            imports = "no file changed" if not r["changed_files"] else \
                "ok" if not r["import_errors"] else f"{len(r['import_errors'])} fail"
            print(f"| {package} | {setting} | {r['files']} | {r['lines']:,} | {r['check_seconds']} | {r['findings']:,} "
                  f"| {internal} | {len(r['changed_files'])} | {len(r['broken_files'])} | {len(r['not_idempotent'])} "
                  f"| {imports} |")
    for package, settings in results.items():
        for setting, r in settings.items():
            for line in [*r.get("internal", ()), *r.get("broken_files", ()), *r.get("not_idempotent", ()),
                         *r.get("import_errors", ()), *(r[k] for k in ("check_error", "fix_error") if k in r)]:
                print(f"- {package} ({setting}): {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", default=list(PACKAGES))
    parser.add_argument("--source", help="folder holding the packages (default: the bench venv's site-packages)")
    parser.add_argument("--settings", default="default,all")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    root = Path(args.source) if args.source else bench_site_packages()
    results: dict[str, dict[str, dict]] = {}
    started = time.monotonic()
    for package in args.packages:
        for setting in args.settings.split(","):
            with tempfile.TemporaryDirectory() as tmp:
                results.setdefault(package, {})[setting] = sweep_package(package, root, setting, Path(tmp), args.jobs)
            print(f"{package} ({setting}): done", file=sys.stderr, flush=True)
    print_table(results)
    print(f"\n{time.monotonic() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    failed = any(r.get("internal") or r.get("broken_files") or r.get("not_idempotent") or r.get("import_errors")
                 or "check_error" in r or "fix_error" in r for s in results.values() for r in s.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
