"""`fullgraph rule FG101`: print one rule's documentation."""

from __future__ import annotations

import argparse
import sys

HELP = "print one rule's documentation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", help="rule code, e.g. FG101")


def run(args: argparse.Namespace) -> int:
    from fullgraph.rules.catalog import get_rule

    rule = get_rule(args.code)
    if rule is None:
        print(f"fullgraph rule: unknown rule code {args.code!r} (see `fullgraph rules`)", file=sys.stderr)
        return 2
    print(rule.doc_markdown())
    return 0
