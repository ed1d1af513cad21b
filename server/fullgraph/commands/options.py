"""Options shared by `check`, `fix` and `confirm`: rule selection and compiled-region mode."""

from __future__ import annotations

import argparse
import os
import sys

from fullgraph.config import ASSUME_COMPILED, Config, load_config, load_config_file


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """`--select`, `--ignore` (and their `--extend-` forms), `--config`, `--assume-compiled`."""
    parser.add_argument("--select", metavar="CODES", help="comma-separated code prefixes to report (e.g. FG1,FG301)")
    parser.add_argument("--ignore", metavar="CODES", help="comma-separated code prefixes to leave out")
    parser.add_argument("--extend-select", metavar="CODES", help="code prefixes to report besides the selected ones")
    parser.add_argument("--extend-ignore", metavar="CODES", help="code prefixes to leave out besides the ignored ones")
    parser.add_argument("--config", metavar="PYPROJECT",
                        help="pyproject.toml to read [tool.fullgraph] from (default: nearest to the first path)")
    parser.add_argument("--assume-compiled", choices=ASSUME_COMPILED,
                        help="which functions count as compiled: nn.Module forwards (modules, default), "
                             "only torch.compile'd ones (decorated), forwards and the functions and class methods a "
                             "package's __init__.py exports (api), or every function (all)")


def add_path_arguments(parser: argparse.ArgumentParser) -> None:
    """`PATH...` (default: the current folder; `-` is stdin) and `--stdin-filename`."""
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="Python files or folders (default: the current folder; - reads stdin)")
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="the name of the file read from stdin (for messages and pyproject.toml lookup)")


def add_index_argument(parser: argparse.ArgumentParser) -> None:
    """`--no-index`: analyse each file on its own."""
    parser.add_argument("--no-index", action="store_true",
                        help="analyse each file on its own (no imports followed into other files)")


def add_unsafe_arguments(parser: argparse.ArgumentParser, effect: str) -> None:
    """`--unsafe-fixes` and `--no-unsafe-fixes`, over the `unsafe-fixes` setting (as ruff's)."""
    parser.add_argument("--unsafe-fixes", action="store_const", const=True, dest="unsafe_fixes",
                        help=f"{effect}: fixes that change something the user must accept (each finding says "
                             "what); `unsafe-fixes = true` under [tool.fullgraph] does the same")
    parser.add_argument("--no-unsafe-fixes", action="store_const", const=False, dest="unsafe_fixes",
                        help="leave the unsafe fixes out, whatever the setting says")


def config_from_args(args: argparse.Namespace, start_path: str = ".") -> Config:
    """The pyproject config with the command-line overrides applied; ValueError when invalid."""
    config = load_config_file(args.config) if args.config else load_config(start_path)
    return config.merged({"select": args.select, "ignore": args.ignore, "assume_compiled": args.assume_compiled,
                          "unsafe_fixes": getattr(args, "unsafe_fixes", None),
                          "extend_select": getattr(args, "extend_select", None),
                          "extend_ignore": getattr(args, "extend_ignore", None)})


def config_for_paths(args: argparse.Namespace, command: str) -> Config | None:
    """The config for `args.paths`, or None after printing why (missing path, bad setting): exit 2."""
    missing = [p for p in args.paths if p != "-" and not os.path.exists(p)]
    if missing:
        print(f"fullgraph {command}: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return None
    start = getattr(args, "stdin_filename", None) if args.paths[0] == "-" else args.paths[0]
    try:
        return config_from_args(args, start or ".")
    except ValueError as exc:
        print(f"fullgraph {command}: bad configuration: {exc}", file=sys.stderr)
        return None


def _number(convert, holds, what: str):
    """An argparse type: ``convert`` of the text, which must satisfy ``holds``, else a usage error."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not holds(value):
            raise argparse.ArgumentTypeError(f"must be {what}, not {text}")
        return value
    return parse


jobs_count = _number(int, lambda v: v >= 0, "0 (one worker per CPU) or more")  # `--jobs N`
seconds = _number(float, lambda v: v > 0, "more than 0 seconds")  # `confirm --timeout S`
