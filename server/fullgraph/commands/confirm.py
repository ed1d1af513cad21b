"""`fullgraph confirm PATH[::Target]...`: run TorchDynamo on sample inputs and merge."""

from __future__ import annotations

import json
import os
import re
import sys

from fullgraph.wording import counted

HELP = "run TorchDynamo on sample inputs and confirm breaks"
MARKS = {True: "confirmed", False: "not confirmed", None: "static"}
MERGE_NOTE = re.compile(r" \[(confirmed by Dynamo: .*|not reached by .*|reached by .*)\]$")  # said by MARKS


def add_arguments(parser) -> None:
    parser.add_argument("targets", nargs="+", metavar="PATH[::Target]",
                        help="model files (optionally with a target name, fullgraph_example_<Target>) or folders "
                             "(every file there with sample inputs)")
    from fullgraph.commands.options import add_config_arguments

    add_config_arguments(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--python", help="interpreter that runs the worker (default: this one)")
    parser.add_argument("--timeout", type=float, help="seconds per target (default 120)")


def run(args) -> int:
    """Exit 0: no confirmed breaks; 1: confirmed breaks; 2: a target could not run."""
    from fullgraph.commands.options import config_from_args
    from fullgraph.confirm.document import client_for, confirm_document
    from fullgraph.confirm.targets import parse_spec
    from fullgraph.engine import analyze

    findings, targets, problems = [], [], []
    client = None
    try:
        for spec in expand_folders(args.targets, args):
            path, name = parse_spec(spec)
            try:
                with open(path, "rb") as f:
                    raw = f.read()
                config = config_from_args(args, path)
            except (OSError, ValueError) as e:
                problems.append(f"{path}: {e}")
                continue
            source = raw.decode("utf-8", "replace")
            client = client or client_for(config, args.python)
            if args.timeout:
                client.timeout = args.timeout
            done = confirm_document(client, os.path.abspath(path), source, analyze(raw, path, config), config,
                                    name=name, explicit=name is not None)
            if not done.outcomes:
                problems.append(f"{path}: no sample inputs; define fullgraph_example() returning "
                                "(callable, args, kwargs) or add a [tool.fullgraph.confirm] entry")
            findings += [f.with_(path=path) for f in done.findings]
            targets += [o.summary() for o in done.outcomes]
            problems += [f"{o.target.label}: {o.error}" for o in done.outcomes if o.error is not None]
    finally:
        if client is not None:
            client.close()
    if args.format == "json":
        json.dump({"findings": [f.to_dict() for f in findings], "targets": targets, "errors": problems},
                  sys.stdout, indent=2)
        print()
    else:
        print_text(findings, targets, problems)
    if any(f.confirmed for f in findings):
        return 1
    return 2 if problems else 0


def expand_folders(specs: list[str], args) -> list[str]:
    """The specs with each folder replaced by its files that have sample inputs (a factory or a
    `[tool.fullgraph.confirm]` entry), as `check` walks folders."""
    from fullgraph.commands.check import collect_files
    from fullgraph.commands.options import config_from_args
    from fullgraph.confirm.targets import targets_for

    out = []
    for spec in specs:
        if not os.path.isdir(spec):
            out.append(spec)
            continue
        config = config_from_args(args, spec)
        out += [path for path in collect_files([spec], config) if targets_for(path, None, config)]
    return out


def print_text(findings, targets, problems) -> None:
    """One line per finding (its Dynamo verdict said once), then one per target with its graph counts, then errors."""
    for f in findings:
        message = MERGE_NOTE.sub("", f.message)
        print(f"{f.path}:{f.line}:{f.col + 1}: {f.code} {message} ({MARKS[f.confirmed]})")
    for t in targets:
        if "graphs" in t:
            counts = ", ".join(str(g) for g in t["graphs"])
            print(f"{t['target']}: graphs per input set: {counts}; {counted(t['breaks'], 'distinct break')}, "
                  f"{counted(t['recompilations'], 'recompilation')} ({t['seconds']} s)")
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
