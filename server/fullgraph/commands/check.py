"""`fullgraph check [PATH...]`: report likely graph breaks (exit 1 when any, 2 on usage errors).

No path checks the current folder; `-` reads the source from stdin (`--stdin-filename` names it).
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.workspace import project_for
from fullgraph.commands.options import (
    add_config_arguments,
    add_index_argument,
    add_path_arguments,
    add_unsafe_arguments,
    config_for_paths,
    jobs_count,
)
from fullgraph.commands.output import (
    FORMAT_ALIASES,
    FORMATS,
    Paint,
    render,
    statistics,
    use_colour,
)
from fullgraph.commands.results_cache import ResultsCache
from fullgraph.config import Config
from fullgraph.findings import Finding

HELP = "report likely graph breaks (exit 1 when any)"
SKIP_DIRS = frozenset((".git", ".hg", ".venv", "venv", "__pycache__", "node_modules", ".tox", ".mypy_cache",
                       ".pytest_cache", "build", "dist"))
PARALLEL_MIN_FILES = 16  # below this, starting worker processes costs more than it saves


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_path_arguments(parser)
    parser.add_argument("--output-format", "--format", dest="output_format", default="full",
                        choices=(*FORMATS, *FORMAT_ALIASES),
                        help="full (source and fix, default), concise (one line each), json, sarif, "
                             "github (workflow annotations), gitlab (code quality report)")
    parser.add_argument("--statistics", action="store_true",
                        help="print only a table of counts per rule, with how many are fixable")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument("--fix", action="store_true",
                        help="apply the safe rewrites first (as `fullgraph fix`), then report what is left")
    parser.add_argument("--diff", action="store_true",
                        help="print the rewrites --fix would apply as a unified diff, writing nothing (as `fullgraph "
                             "fix --diff`)")
    add_unsafe_arguments(parser, "count the unsafe fixes as fixable (with --fix: apply them)")
    parser.add_argument("--add-noqa", action="store_true",
                        help="add a `# fullgraph: ignore[CODE]` comment to every line with a finding, as "
                             "ruff's --add-noqa (the checked files only); exit 1 only when a finding could take "
                             "none (0 with --exit-zero)")
    parser.add_argument("--jobs", "-j", type=jobs_count, default=0, help="worker processes (default: CPU count; 1: none)")
    add_index_argument(parser)
    add_config_arguments(parser)


def collect_files(paths: list[str], config: Config) -> list[str]:
    """Python files under `paths` (folders recursively, skipping excluded and tool folders); `-` stays."""
    files: list[str] = []
    for raw in paths:
        path = Path(raw)
        if raw == "-" or path.is_file():
            files.append(str(path))
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                             and not config.excludes(os.path.join(folder, d)))
            files.extend(os.path.normpath(os.path.join(folder, n)) for n in sorted(names)
                         if n.endswith((".py", ".pyi")) and not config.excludes(os.path.join(folder, n)))
    return files


_project: ProjectIndex | None = None  # one per process (the workers build their own)
_results: ResultsCache | None = None


def _start(config: Config, paths: list[str], index: bool, compiled=None, project: ProjectIndex | None = None) -> None:
    """Set up this process: its project index (`project` when the caller has one, with the
    workspace's compile calls when the parent found them already) and the results cache."""
    global _project, _results
    _project = (project or project_for(config, paths)) if index else None
    _results = ResultsCache(workspace=_project.workspace_files) if index else None
    if _project is not None and compiled is not None:
        _project.set_compile_targets(compiled)


def check_file(path: str, config: Config) -> list[Finding]:
    """Findings of one file (and of other workspace files its compiled code reaches); an
    unreadable file gives one FG000."""
    from fullgraph.engine import analyze, analyze_document

    key = (os.getcwd(), _compile_key()) if _results is not None else None
    cached = _results.get(path, config, key) if _results is not None else None
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
    if relative:  # related locations as the main ones: relative to where fullgraph runs
        findings = [f.with_(related=tuple(replace(r, path=os.path.relpath(r.path)) if os.path.isabs(r.path) else r
                                          for r in f.related)) if f.related else f for f in findings]
    touched = used.touched | _compile_deps(path) | {os.path.abspath(path)}
    folders = {os.path.dirname(p) for p in touched} | set(_project.roots)  # a file made there may resolve an import
    _results.put(path, config, key, touched | folders, findings, whole=bool(used.names))
    return findings


def _compile_key() -> tuple:
    """Every `torch.compile(...)` target of the workspace and the files calling it: a call added or
    removed anywhere changes which code is compiled, so no cached result holds."""
    if _project is None:
        return ()
    return tuple(sorted((target, name, tuple(sorted({t.site_path for t in sites})))
                        for (target, name), sites in _project.compile_targets().items()))


def _compile_deps(path: str) -> set[str]:
    """The files whose `torch.compile(...)` calls make entries of `path`."""
    targets = _project.compile_targets()
    here = os.path.abspath(path)
    return {t.site_path for (target, _), sites in targets.items() if target == here for t in sites}


def check_files(files: list[str], config: Config, jobs: int, paths: list[str], index: bool,
                project: ProjectIndex | None = None) -> list[list[Finding]]:
    """:func:`check_file` of each file, in order, in `jobs` worker processes (0: one per CPU); in
    this process (few files, or one job) with `project` when given (the caller's index, reused)."""
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(files) < PARALLEL_MIN_FILES:
        _start(config, paths, index, project=project)
        return [check_file(path, config) for path in files]
    compiled = project_for(config, paths).compile_targets() if index else None  # one scan, not one per worker
    with ProcessPoolExecutor(max_workers=workers, initializer=_start, initargs=(config, paths, index, compiled)) as pool:
        return list(pool.map(check_file, files, [config] * len(files), chunksize=max(1, len(files) // (workers * 8))))


def _check_all(files: list[str], config: Config, jobs: int, paths: list[str], index: bool) -> list[Finding]:
    found = [f for chunk in check_files(files, config, jobs, paths, index) for f in chunk]
    unique = {(f.path, f.line, f.col, f.code): f for f in found}  # a helper reached from two files
    order = {p: i for i, p in enumerate(files)}
    return sorted(unique.values(), key=lambda f: (order.get(f.path, len(order)), f.path, f.line, f.col, f.code))


def _read_stdin(name: str, config: Config, sources: dict[str, str]) -> list[Finding]:
    """Findings of the source on stdin, named ``name``; its text goes to ``sources`` (for the snippets)."""
    from fullgraph.engine import analyze, decode

    data = sys.stdin.buffer.read()
    sources[name] = decode(data) or ""
    return analyze(data, name, config)


def run(args: argparse.Namespace) -> int:
    config = config_for_paths(args, "check")
    if config is None:
        return 2
    if args.add_noqa and (args.fix or args.diff or "-" in args.paths):
        print("fullgraph check: --add-noqa edits files: not with --fix, --diff or stdin", file=sys.stderr)
        return 2
    if args.diff or args.fix and "-" in args.paths:  # the diff or the fixed source to stdout, the report to stderr
        from fullgraph.commands import fix

        args.verify = False
        return fix.run(args)
    fmt = FORMAT_ALIASES.get(args.output_format, args.output_format)
    if args.statistics and fmt not in ("full", "concise", "json"):
        print(f"fullgraph check: --statistics prints a table as text or json, not {fmt}", file=sys.stderr)
        return 2
    fixed = 0
    if args.fix:
        from fullgraph.commands.fix import fix_paths

        fixed = fix_paths(args, config)[0]
    files = collect_files(args.paths, config)
    if not files:
        print("fullgraph check: warning: no Python files found under the given paths", file=sys.stderr)
    stdin_name = args.stdin_filename or "-"
    sources: dict[str, str] = {}
    findings = [f for path in files if path == "-" for f in _read_stdin(stdin_name, config, sources)]
    findings += _check_all([p for p in files if p != "-"], config, args.jobs, [p for p in args.paths if p != "-"],
                           not args.no_index)
    if args.add_noqa:
        left = _add_noqa(findings, files)
        return 0 if args.exit_zero else left
    if args.statistics:
        lines = statistics(findings, as_json=fmt == "json", unsafe=config.unsafe_fixes)
    else:
        lines = render(findings, fmt, Paint(use_colour(sys.stdout)), sources, config.unsafe_fixes, fixed)
    for line in lines:
        print(line)
    return 1 if findings and not args.exit_zero else 0


def _add_noqa(findings: list[Finding], files: list[str]) -> int:
    """Suppress every finding in place; say how many comments went in, and which findings could
    not take one (1 when some are left, else 0)."""
    from fullgraph.commands.add_noqa import add_noqa

    added, written, left = add_noqa(findings, files)
    for f, why in left:
        print(f"{f.path}:{f.line}:{f.col + 1}: {f.code} left as it is: {why}", file=sys.stderr)
    print(f"Added {added} suppression comment{'s' if added != 1 else ''} to {written} file{'s' if written != 1 else ''}.",
          file=sys.stderr)
    return 1 if left else 0
