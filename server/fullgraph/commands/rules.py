"""`fullgraph rules`: list the rule catalog."""

from __future__ import annotations

import argparse
import json

HELP = "list the rule catalog"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from fullgraph.rules.catalog import RULES

    if args.format == "json":
        print(json.dumps([{"code": r.code, "name": r.name, "summary": r.summary, "gb_ids": list(r.gb_ids),
                           "fix_kind": r.fix_kind, "severity": r.severity, "doc_url": r.doc_url}
                          for r in RULES.values()], indent=2))
        return 0
    width = max(len(r.name) for r in RULES.values())
    for r in RULES.values():
        fix = r.fix_kind or "-"
        print(f"{r.code}  {r.name:<{width}}  {r.severity:<7}  fix:{fix:<11}  {r.summary}")
    return 0
