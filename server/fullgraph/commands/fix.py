"""`fullgraph fix [PATH...]`: apply every safe rewrite in place, or print a unified diff with --diff.

The files are analysed first as `check` analyses them (in worker processes, from its results
cache when fresh); fix-all then runs, one file at a time, on those where it has a rewrite to try.
Lists what it could not fix, with why. Exit code 0 when no finding is left, 1 when some remain
(with --diff: 1 when something would change, as `ruff --diff`), 2 on usage errors.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from pathlib import Path

from fullgraph.analysis.workspace import project_for
from fullgraph.commands.check import check_files, collect_files
from fullgraph.commands.options import (
    add_config_arguments,
    add_index_argument,
    add_path_arguments,
    add_unsafe_arguments,
    config_for_paths,
    jobs_count,
)
from fullgraph.commands.output import Paint, concise, use_colour
from fullgraph.text import source_encoding, split_lines_keepends
from fullgraph.wording import counted

HELP = "apply the safe rewrites in place (or --diff)"
NO_RULE_FIX = "the rule has no automatic fix"
NOT_REWRITTEN = "no safe rewrite here (the fix did not apply)"
NOT_GIVEN = "the file is not among the paths given (the analysis of one that is reaches it)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_path_arguments(parser)
    parser.add_argument("--diff", action="store_true", help="print a unified diff instead of writing the files")
    add_unsafe_arguments(parser, "also apply the unsafe fixes")
    parser.add_argument("--verify", action="store_true",
                        help="run each file's sample inputs (fullgraph_example) under Dynamo before and after; "
                             "apply only when the outputs are identical")
    parser.add_argument("--jobs", "-j", type=jobs_count, default=0,
                        help="worker processes that analyse the files first (default: CPU count; 1: none)")
    add_index_argument(parser)
    add_config_arguments(parser)


def why_not_fixed(finding) -> str:
    """Why a finding is still there after fix-all (in a file it ran on)."""
    return finding.fix_blocked or (NOT_REWRITTEN if finding.fix else NO_RULE_FIX)


def fix_file(path: str, config, diff: bool, verifier=None, stdin_name: str | None = None,
             project=None, unsafe: bool = False, placed_by: tuple[str, ...] = ()) -> tuple[int, list]:
    """Fix one file: (fixes that went in, findings left afterwards); `-` is stdin to stdout.
    ``project``: the project index `check` uses, told of each file written; ``unsafe``: apply the
    unsafe fixes too; ``placed_by``: the files whose analysis places findings in this one (a
    helper their module's `forward` calls), which fix-all then fixes too."""
    from fullgraph.engine import analyze
    from fullgraph.fixes import fix_all

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        print(f"fullgraph fix: skipping {path}: {exc}", file=sys.stderr)
        return 0, []
    name = stdin_name or path if path == "-" else path
    encoding = source_encoding(data)
    if encoding is None:  # not Python text: left as it is (echoed back from stdin), reported as FG000
        if path == "-" and not diff:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        return 0, analyze(data, name, config, project=project)
    source = data.decode(encoding)
    analysis = _as_checked(path, placed_by, config, project) if placed_by and project is not None else None
    try:
        result = fix_all(source, name, config, project, unsafe, analysis=analysis)
        fixed = result.source
        if fixed != source and verifier is not None and not verifier(path, source, config, result):
            fixed = source
        unchanged = result.findings is not None and fixed == result.source == source  # (the index still has this text)
        left = list(result.findings) if unchanged else \
            analysis(fixed) if analysis is not None else analyze(fixed, name, config, project=project)
    finally:
        if analysis is not None:
            project.forget(os.path.abspath(path))  # the file as it is on disk again
    if path == "-" and not diff:
        sys.stdout.flush()
        sys.stdout.buffer.write(fixed.encode(encoding))
    elif fixed != source and diff:
        sys.stdout.writelines(difflib.unified_diff(split_lines_keepends(source), split_lines_keepends(fixed),
                                                   fromfile=f"a/{name.lstrip('/')}", tofile=f"b/{name.lstrip('/')}"))
        left = [f.with_(path=f"b/{name.lstrip('/')}") for f in left]  # lines of the fixed text: the diff's side
    elif fixed != source:
        try:
            with open(path, "w", encoding=encoding, newline="") as handle:
                handle.write(fixed)
        except OSError as exc:  # read-only, immutable: the file stays as it was, its findings with it
            print(f"fullgraph fix: could not write {path}: {exc}", file=sys.stderr)
            return 0, analyze(source, name, config, project=project)
        if project is not None:
            project.forget(os.path.abspath(path))  # read again from disk
    return (max(result.applied, 1) if fixed != source else 0), left


def _as_checked(path: str, placed_by: tuple[str, ...], config, project):
    """The analysis of a text of ``path`` as `check` reports it: its own findings, and those the
    analysis of each file of ``placed_by`` places in it, with that text in the project index."""
    from fullgraph.engine import analyze, analyze_document

    target = os.path.abspath(path)

    def analysis(text: str) -> list:
        project.update(target, text)
        found = {(f.line, f.col, f.code): f for f in analyze(text, path, config, project=project)}
        for source in placed_by:
            try:
                data = Path(source).read_bytes()
            except OSError:
                continue
            for f in analyze_document(data, source, config, project=project).elsewhere:
                if os.path.abspath(f.path) == target:
                    found.setdefault((f.line, f.col, f.code), f.with_(path=path))
        return [found[key] for key in sorted(found)]

    return analysis


def _as_check_reports(files: list[str], config, jobs: int, paths: list[str], project,
                      unsafe: bool) -> tuple[dict, dict, list]:
    """The findings `check` reports for ``files`` (in parallel, from its results cache when fresh;
    in this process with `project`, the index fix-all uses), by the file of ``files`` they are in;
    for each file, the others whose analysis placed a finding fix-all may rewrite there (one file
    per such finding: a helper many models call is analysed through one of them); and the findings
    in files not given."""
    found = check_files(files, config, jobs, paths, project is not None, project)
    given = {os.path.abspath(p): p for p in files}
    by_file: dict[str, dict] = {p: {} for p in files}
    placed_by: dict[str, dict[tuple, str]] = {}
    outside: dict[tuple, object] = {}
    for source, results in zip(files, found):
        for f in results:
            target = given.get(os.path.abspath(f.path))
            if target is None:
                outside.setdefault((f.path, f.line, f.col, f.code), f)
                continue
            key = (f.line, f.col, f.code)
            by_file[target].setdefault(key, f.with_(path=target))
            if target != source and f.rewritable(unsafe):
                placed_by.setdefault(target, {}).setdefault(key, source)
    return ({p: [mine[k] for k in sorted(mine)] for p, mine in by_file.items()},
            {p: tuple(sorted(set(s.values()))) for p, s in placed_by.items()}, list(outside.values()))


def fix_paths(args: argparse.Namespace, config, diff: bool = False,
              verify: bool = False) -> tuple[int, int, list, list]:
    """Fix-all over `args.paths` as `fullgraph fix` runs it, on every finding `check` reports there
    (those another file's analysis places in a file too): (findings fixed, files changed, the
    findings left in file order, those in files not given)."""
    changed = fixed = 0
    verifier = None
    if verify:
        from fullgraph.confirm.verify import CliVerifier

        verifier = CliVerifier(config)
    unsafe = config.unsafe_fixes
    paths = [p for p in args.paths if p != "-"]
    project = None if args.no_index else project_for(config, paths)
    files = collect_files(args.paths, config)
    on_disk = [p for p in files if p != "-"]
    first, placed_by, outside = _as_check_reports(on_disk, config, args.jobs, paths, project, unsafe)
    left_in: dict[str, list] = {}
    try:
        for path in files:
            if path in first and not any(f.rewritable(unsafe) for f in first[path]):
                left_in[path] = first[path]  # fix-all would change nothing here (found before any file was fixed)
                continue
            count, left_in[path] = fix_file(path, config, diff, verifier, args.stdin_filename, project, unsafe,
                                            placed_by.get(path, ()))
            changed += bool(count)
            fixed += count
    finally:
        if verifier is not None:
            verifier.close()
    if changed and not diff:  # a fixed file may change what the analysis of the others finds
        first, _, outside = _as_check_reports(on_disk, config, args.jobs, paths, project, unsafe)
        left_in.update(first)
    return fixed, changed, [f for path in files for f in left_in[path]], outside


def run(args: argparse.Namespace) -> int:
    config = config_for_paths(args, "fix")
    if config is None:
        return 2
    fixed, changed, left, outside = fix_paths(args, config, args.diff, args.verify)
    report = sys.stderr if args.diff or "-" in args.paths else sys.stdout
    paint = Paint(use_colour(report))
    for line, finding in zip(concise(left, paint, config.unsafe_fixes), left):
        print(f"{line} (not fixed: {why_not_fixed(finding)})", file=report)
    for line in concise(outside, paint, config.unsafe_fixes):
        print(f"{line} (not fixed: {NOT_GIVEN})", file=report)
    left += outside
    verb = "would fix" if args.diff else "fixed"
    print(f"fullgraph fix: {verb} {counted(fixed, 'finding')} in {counted(changed, 'file')}; "
          f"{counted(len(left), 'finding')} left.", file=report)
    if args.diff:
        return 1 if changed else 0
    return 1 if left else 0
