"""`fullgraph check PATH...`: report likely graph breaks (exit 1 when any, 2 on usage errors)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.workspace import project_for
from fullgraph.commands.options import add_config_arguments, config_for_paths
from fullgraph.commands.results_cache import ResultsCache
from fullgraph.config import Config
from fullgraph.findings import Finding
from fullgraph.wording import counted

HELP = "report likely graph breaks (exit 1 when any)"
SKIP_DIRS = frozenset((".git", ".hg", ".venv", "venv", "__pycache__", "node_modules", ".tox", ".mypy_cache",
                       ".pytest_cache", "build", "dist"))
PARALLEL_MIN_FILES = 16  # below this, starting worker processes costs more than it saves


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files or folders")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("--statistics", action="store_true", help="count findings per rule")
    parser.add_argument("--jobs", "-j", type=int, default=0, help="worker processes (default: CPU count; 1: none)")
    parser.add_argument("--no-index", action="store_true",
                        help="analyse each file on its own (no imports followed into other files)")
    add_config_arguments(parser)


def collect_files(paths: list[str], config: Config) -> list[str]:
    """Python files under `paths` (folders recursively, skipping excluded and tool folders)."""
    files: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            files.append(str(path))
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                             and not config.excludes(os.path.join(folder, d)))
            files.extend(os.path.join(folder, n) for n in sorted(names)
                         if n.endswith((".py", ".pyi")) and not config.excludes(os.path.join(folder, n)))
    return files


_project: ProjectIndex | None = None  # one per process (the workers build their own)
_results: ResultsCache | None = None


def _start(config: Config, paths: list[str], index: bool, compiled=None) -> None:
    """Set up this process: its project index (with the workspace's compile calls when the
    parent found them already) and the results cache."""
    global _project, _results
    _project = project_for(config, paths) if index else None
    _results = ResultsCache() if index else None
    if _project is not None and compiled is not None:
        _project.set_compile_targets(compiled)


def check_file(path: str, config: Config) -> list[Finding]:
    """Findings of one file (and of other workspace files its compiled code reaches); an
    unreadable file gives one FG000."""
    from fullgraph.engine import analyze, analyze_document

    cached = _results.get(path, config, os.getcwd()) if _results is not None else None
    if cached is not None:
        return cached
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return [Finding(path, 1, 0, 1, 1, "FG000", f"cannot read the file: {exc.strerror}", severity="error")]
    if _project is None:
        return analyze(data, path, config)
    with _project.recording() as used:
        report = analyze_document(data, path, config, project=_project)
    relative = not os.path.isabs(path)
    findings = [*report.findings,
                *(f.with_(path=os.path.relpath(f.path)) if relative else f for f in report.elsewhere)]
    _results.put(path, config, os.getcwd(), used.touched | _compile_deps(path), findings)
    return findings


def _compile_deps(path: str) -> set[str]:
    """The files whose `torch.compile(...)` calls make entries of `path`."""
    targets = _project.compile_targets()
    here = os.path.abspath(path)
    return {t.site_path for (target, _), sites in targets.items() if target == here for t in sites}


def _check_all(files: list[str], config: Config, jobs: int, paths: list[str], index: bool) -> list[Finding]:
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(files) < PARALLEL_MIN_FILES:
        _start(config, paths, index)
        found = [f for path in files for f in check_file(path, config)]
    else:
        compiled = project_for(config, paths).compile_targets() if index else None  # one scan, not one per worker
        with ProcessPoolExecutor(max_workers=workers, initializer=_start,
                                 initargs=(config, paths, index, compiled)) as pool:
            chunks = pool.map(check_file, files, [config] * len(files), chunksize=max(1, len(files) // (workers * 8)))
            found = [f for chunk in chunks for f in chunk]
    unique = {(f.path, f.line, f.col, f.code): f for f in found}  # a helper reached from two files
    order = {p: i for i, p in enumerate(files)}
    return sorted(unique.values(), key=lambda f: (order.get(f.path, len(order)), f.path, f.line, f.col, f.code))


def run(args: argparse.Namespace) -> int:
    config = config_for_paths(args, "check")
    if config is None:
        return 2
    files = collect_files(args.paths, config)
    findings = _check_all(files, config, args.jobs, args.paths, not args.no_index)
    if args.format == "json":
        print(json.dumps([f.to_dict() for f in findings], indent=2))
    elif args.format == "sarif":
        from fullgraph.commands.sarif import sarif_log

        print(json.dumps(sarif_log(findings), indent=2))
    else:
        for f in findings:
            print(f"{f.path}:{f.line}:{f.col + 1}: {f.code} {f.message}")
    if args.statistics:
        _print_statistics(findings, sys.stdout if args.format == "text" else sys.stderr)
    if args.format == "text":
        print(f"Found {counted(len(findings), 'finding')} in {counted(len(files), 'file')}.", file=sys.stderr)
    return 1 if findings else 0


def _print_statistics(findings: list[Finding], out) -> None:
    from fullgraph.rules.catalog import get_rule

    for code, count in sorted(Counter(f.code for f in findings).items(), key=lambda kv: (-kv[1], kv[0])):
        rule = get_rule(code)
        print(f"{count:6d}  {code}  {rule.name if rule else ''}", file=out)
