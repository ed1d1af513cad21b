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
    from fullgraph.commands.options import add_config_arguments, seconds

    add_config_arguments(parser)
    parser.add_argument("--format", "--output-format", dest="format", choices=("text", "json", "github"),
                        default="text", help="github: workflow annotations for GitHub Actions")
    parser.add_argument("--write-example", action="store_true",
                        help="write synthesized sample inputs into the file as fullgraph_example_<Target>()")
    parser.add_argument("--python", help="interpreter that runs the worker (default: this one)")
    parser.add_argument("--timeout", type=seconds, help="seconds per target (default 120)")


def run(args) -> int:
    """Exit 0: no confirmed breaks; 1: confirmed breaks or recompilations; 2: a target could not run."""
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
                                "(callable, args, kwargs), add a [tool.fullgraph.confirm] entry, or name a model "
                                f"class ({path}::Model) to have its inputs synthesized")
            findings += [f.with_(path=path) for f in done.findings]
            targets += [o.summary() for o in done.outcomes]
            problems += [p for o in done.outcomes for p in o.problems()]
            if args.write_example:
                write_examples(path, [o.summary() for o in done.outcomes])
    finally:
        if client is not None:
            client.close()
    if args.format == "json":
        json.dump({"findings": [f.to_dict() for f in findings], "targets": targets, "errors": problems},
                  sys.stdout, indent=2)
        print()
    elif args.format == "github":
        print_github(findings, targets, problems)
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
    for line in target_lines(targets):
        print(line)
    for p in problems:
        print(f"error: {p}", file=sys.stderr)


def target_lines(targets) -> list[str]:
    """Per target: its graph counts, breaks and recompilations, and what inputs were synthesized."""
    lines = []
    for t in targets:
        if "graphs" in t:
            counts = ", ".join(str(g) for g in t["graphs"])
            lines.append(f"{t['target']}: graphs per input set: {counts}; {counted(t['breaks'], 'distinct break')}, "
                         f"{counted(t['recompilations'], 'recompilation')} ({t['seconds']} s)")
        if "synthesized" in t:
            lines.append(f"{t['target']}: {t['synthesized']['description']}")
    return lines


def print_github(findings, targets, problems) -> None:
    """Confirmed findings as annotations at their level, the others as notices; errors as errors."""
    from fullgraph.commands.github import annotation, finding_annotation

    for f in findings:
        print(finding_annotation(f, None if f.confirmed else "info"))
    for line in target_lines(targets):
        print(line)
    for p in problems:
        print(annotation("error", p, "fullgraph confirm"))


def write_examples(path: str, targets) -> None:
    """Append each synthesized factory to ``path`` (once), saying so on stderr."""
    from fullgraph.confirm.targets import with_example

    for t in targets:
        if "synthesized" in t:
            with open(path, encoding="utf-8", newline="") as f:
                source = f.read()
            updated = with_example(source, t["synthesized"]["example"])
            if updated != source:
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(updated)
                print(f"{path}: wrote fullgraph_example_{t['name']}() (edit it to choose the inputs)", file=sys.stderr)
