"""`fullgraph fix PATH...`: apply every safe rewrite in place, or print a unified diff with --diff.

Exit code 1 when something changed (or would change), 0 when nothing did, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from fullgraph.commands.check import collect_files
from fullgraph.commands.options import add_config_arguments, config_for_paths
from fullgraph.text import split_lines_keepends
from fullgraph.wording import counted

HELP = "apply the safe rewrites in place (or --diff)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files or folders")
    parser.add_argument("--diff", action="store_true", help="print a unified diff instead of writing the files")
    parser.add_argument("--verify", action="store_true",
                        help="run each file's sample inputs (fullgraph_example) under Dynamo before and after; "
                             "apply only when the outputs are identical")
    add_config_arguments(parser)


def fix_file(path: str, config, diff: bool, verifier=None) -> int:
    """Fix one file; returns how many fixes went in (0 when unchanged or unreadable)."""
    from fullgraph.fixes import fix_all

    try:
        data = Path(path).read_bytes()
        source = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"fullgraph fix: skipping {path}: {exc}", file=sys.stderr)
        return 0
    result = fix_all(source, path, config)
    if result.source == source:
        return 0
    if verifier is not None and not verifier(path, source, config, result):
        return 0
    if diff:
        sys.stdout.writelines(difflib.unified_diff(split_lines_keepends(source), split_lines_keepends(result.source),
                                                   fromfile=f"a/{path.lstrip('/')}", tofile=f"b/{path.lstrip('/')}"))
    else:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(result.source)
    return max(result.applied, 1)


def run(args: argparse.Namespace) -> int:
    config = config_for_paths(args, "fix")
    if config is None:
        return 2
    changed = fixed = 0
    verifier = None
    if args.verify:
        from fullgraph.confirm.verify import CliVerifier

        verifier = CliVerifier(config)
    try:
        for path in collect_files(args.paths, config):
            count = fix_file(path, config, args.diff, verifier)
            changed += bool(count)
            fixed += count
    finally:
        if verifier is not None:
            verifier.close()
    verb = "would fix" if args.diff else "fixed"
    print(f"fullgraph fix: {verb} {counted(fixed, 'finding')} in {counted(changed, 'file')}", file=sys.stderr)
    return 1 if changed else 0
