"""The `fullgraph` command line: one subcommand per module in `fullgraph.commands`."""

from __future__ import annotations

import argparse
import gc
import importlib
import sys

from fullgraph import __version__

# Each module defines HELP, add_arguments(parser) and run(args) -> exit code.
# They are imported lazily so that `check` never pays for pygls or libcst.
COMMANDS = {
    "check": "fullgraph.commands.check",
    "fix": "fullgraph.commands.fix",
    "confirm": "fullgraph.commands.confirm",
    "rules": "fullgraph.commands.rules",
    "rule": "fullgraph.commands.rule",
    "serve": "fullgraph.commands.serve",
}

# The analysis makes many short-lived objects while its caches (trees, summaries) stay alive:
# at CPython's default thresholds (700, 10, 10) the collector rescans those caches so often
# that it costs a quarter of a `check` of transformers' models (bench/index_speed.py).
GC_THRESHOLDS = (10_000, 50, 50)

HELPS = {
    "check": "report likely graph breaks (exit 1 when any)",
    "fix": "apply the safe rewrites in place (or --diff)",
    "confirm": "run TorchDynamo on sample inputs and confirm breaks",
    "rules": "list the rule catalog",
    "rule": "print one rule's documentation",
    "serve": "start the language server on stdio",
}


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser, with only the chosen subcommand's module imported."""
    parser = argparse.ArgumentParser(prog="fullgraph", description="Find and fix torch.compile graph breaks.")
    parser.add_argument("--version", action="version", version=f"fullgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in argv if a in COMMANDS), None)
    for name in COMMANDS:
        p = sub.add_parser(name, help=HELPS[name], description=HELPS[name])
        if name == chosen:
            importlib.import_module(COMMANDS[name]).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else argv
    gc.set_threshold(*GC_THRESHOLDS)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return importlib.import_module(COMMANDS[args.command]).run(args)
    except BrokenPipeError:  # `fullgraph rules | head`: the reader left; that is not an error
        sys.stdout = None
        return 0
