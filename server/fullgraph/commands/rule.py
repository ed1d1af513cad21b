"""`fullgraph rule FG101` or `fullgraph rule tensor-condition-if`: print one rule's documentation."""

from __future__ import annotations

import argparse
import sys

HELP = "print one rule's documentation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", help="rule code or name, e.g. FG101 or tensor-condition-if")


def run(args: argparse.Namespace) -> int:
    from fullgraph.rules.catalog import RULES, get_rule

    wanted = args.code.strip().lower()
    rule = get_rule(args.code) or next((r for r in RULES.values() if r.name == wanted), None)
    if rule is None:
        print(f"fullgraph rule: unknown rule {args.code!r} (see `fullgraph rules`)", file=sys.stderr)
        return 2
    print(rule.doc_markdown())
    return 0
