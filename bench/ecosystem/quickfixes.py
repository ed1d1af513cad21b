"""Every quick fix the editor offers on the ecosystem packages, applied one at a time (a robustness sweep).

``python bench/ecosystem/quickfixes.py [PACKAGE ...] [--settings default,all] [--json OUT]``

Fix-all is checked on real code by ``fixmode.py`` and ``sweep.py``; a user in the editor applies
quick fixes one by one, the unsafe ones and the alternatives (config lines, suppressions) too. For
each package of the truth and each setting, on every package file the truth mentions, with the
project index as the language server builds it: every finding's quick fixes (``fixes_for``) and its
suppression, each applied alone to the file's text, must give text that still compiles, keeps every
comment of the original, and that the engine analyses without an internal error (FG000). Exceptions
raised while computing a fix are counted too, and findings whose fix check failed inside the engine
(which then offers no fix and logs the error). A file's findings are those the editor shows in it:
its own, and those the analysis of another truth file places there (a helper a model's `forward`
calls), whose quick fixes the editor offers too. No file is written and nothing is imported or run.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
import tokenize
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from score import SETTINGS, bench_site_packages, package_files, truth_files, workspace  # noqa: E402
from truth import TRUTH_DIR, load_runs  # noqa: E402

from fullgraph.analysis.workspace import project_for  # noqa: E402
from fullgraph.config import load_config  # noqa: E402
from fullgraph.engine import FIX_CHECK_FAILED, analyze, analyze_document  # noqa: E402
from fullgraph.fixes import apply_edits, fixes_for, parse_for_fixes, suppression_fix  # noqa: E402

PROBLEMS = ("does not compile", "drops a comment", "FG000 after", "raised", "fix check failed")


def comments(text: str) -> Counter:
    """The comments of ``text`` (their text), counted; empty when it does not tokenize."""
    try:
        return Counter(t.string.strip() for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type == tokenize.COMMENT)
    except (tokenize.TokenError, SyntaxError):
        return Counter()


def comments_kept(before: Counter, after: Counter) -> bool:
    """Whether each comment of ``before`` begins a distinct comment of ``after`` (a suppression
    appended to a line's comment makes one longer comment of the two, as ruff's `# noqa` does)."""
    free = Counter(after)
    for comment, count in before.items():
        for _ in range(count):
            match = comment if free[comment] else next((c for c in free if free[c] and c.startswith(comment)), None)
            if match is None:
                return False
            free[match] -= 1
    return True


def problems_of(text: str, fixed: str, path: str, config, kept: Counter) -> list[str]:
    """What is wrong with ``fixed`` (``text`` with one quick fix applied)."""
    try:
        compile(fixed, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return ["does not compile"]
    out = []
    if not comments_kept(kept, comments(fixed)):
        out.append("drops a comment")
    if any(f.code == "FG000" for f in analyze(fixed, path, config)):
        out.append("FG000 after")
    return out


def shown_in(path: str, paths: list[str], config, project, reports: dict) -> list:
    """The findings the editor shows in ``path``: its analysis's, and those the analyses of the
    other ``paths`` place there (``reports``: the analyses made so far, by path)."""
    def report(p: str):
        if p not in reports:
            reports[p] = analyze_document(Path(p).read_text(encoding="utf-8"), p, config, project=project)
        return reports[p]

    found = {(f.line, f.col, f.code): f for f in report(path).findings if f.code != "FG000"}
    here = os.path.abspath(path)
    for other in paths:
        for f in report(other).elsewhere if other != path else ():
            if os.path.abspath(f.path) == here:
                found.setdefault((f.line, f.col, f.code), f.with_(path=path))
    return [found[key] for key in sorted(found)]


def sweep(package: str, root: Path, setting: str, examples: int, truth: Path = TRUTH_DIR) -> dict:
    """Apply every quick fix of every finding of ``package``'s truth files under ``setting``."""
    runs = load_runs(truth / f"{package}.jsonl")
    files = package_files(root, truth_files(runs))
    counts, shown = Counter(), []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        paths = workspace(root, files, Path(tmp))
        config = load_config(Path(tmp) / "pyproject.toml")
        if SETTINGS[setting]:
            config = config.merged({"assume_compiled": SETTINGS[setting][-1]})
        project = project_for(config, [tmp], disk_cache=False)
        reports: dict = {}
        for rel, path in zip(files, paths):
            text = Path(path).read_text(encoding="utf-8")
            findings = shown_in(path, paths, config, project, reports)
            counts["files"] += 1
            counts["findings"] += len(findings)
            parsed = parse_for_fixes(text)
            kept = comments(text)
            for finding in findings:
                if finding.fix_blocked == FIX_CHECK_FAILED:  # the engine caught an exception in its fix check
                    counts["fix check failed"] += 1
                    if len(shown) < examples:
                        shown.append(f"{rel}:{finding.line} {finding.code}: fix check failed")
                try:
                    fixes = fixes_for(text, finding, parsed) if finding.fix else []
                    fixes.append(suppression_fix(text, finding))
                except Exception as exc:  # a crash in the fix code is what this looks for
                    counts["raised"] += 1
                    shown.append(f"{rel}:{finding.line} {finding.code}: raised {type(exc).__name__}: {exc}"[:300])
                    continue
                for fix in fixes:
                    counts["fixes"] += 1
                    counts["unsafe"] += bool(getattr(fix, "unsafe", False))
                    for problem in problems_of(text, apply_edits(text, fix.edits), path, config, kept):
                        counts[problem] += 1
                        if len(shown) < examples:
                            shown.append(f"{rel}:{finding.line} {finding.code} `{fix.title}`: {problem}")
    return {"counts": dict(counts), "seconds": round(time.monotonic() - start, 1), "examples": shown}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help="packages (default: every truth file)")
    parser.add_argument("--truth", default=str(TRUTH_DIR))
    parser.add_argument("--source", help="folder holding the packages (default: the bench venv's site-packages)")
    parser.add_argument("--settings", default="default,all")
    parser.add_argument("--examples", type=int, default=20, help="problems listed per package and setting")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    root, truth = Path(args.source) if args.source else bench_site_packages(), Path(args.truth)
    packages = args.packages or sorted(p.stem for p in truth.glob("*.jsonl"))
    results: dict[str, dict[str, dict]] = {}
    print("| package | setting | files | findings | quick fixes (unsafe) | " + " | ".join(PROBLEMS) + " | seconds |")
    print("|---|---|---:|---:|---:|" + "---:|" * len(PROBLEMS) + "---:|")
    for package in packages:
        for setting in args.settings.split(","):
            r = results.setdefault(package, {})[setting] = sweep(package, root, setting, args.examples, truth)
            c = r["counts"]
            print(f"| {package} | {setting} | {c.get('files', 0)} | {c.get('findings', 0)} | "
                  f"{c.get('fixes', 0)} ({c.get('unsafe', 0)}) | " + " | ".join(str(c.get(p, 0)) for p in PROBLEMS)
                  + f" | {r['seconds']} |", flush=True)
            for line in r["examples"]:
                print(f"    {line}", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 1 if any(r["counts"].get(p) for s in results.values() for r in s.values() for p in PROBLEMS) else 0


if __name__ == "__main__":
    sys.exit(main())
