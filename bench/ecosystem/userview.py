"""The user's view of the ecosystem bench: a script that compiles a package's model, checked with the
package installed (outside the workspace), against the breaks Dynamo recorded in that model's runs.

``python bench/ecosystem/userview.py [PACKAGE ...] [--json OUT] [--spellings FILE]`` writes, for every
recorded model its builder makes as an ``nn.Module`` of the package (or a method of one, or a
function of the package), a file as a user would write it::

    import torch
    from transformers import BertModel

    model = BertModel()
    compiled = torch.compile(model)

(the public spelling: the shortest module path that binds the class), runs ``fullgraph check`` on
them (this checkout's ``server/``, or ``$FULLGRAPH_SERVER``) with the bench venv as the interpreter,
and reads each finding at the compile line as the library lines it names: the one in its message
and the others in its related information ("breaks here"). Per package it prints:

* models: recorded models that broke / of them, those the script's check reports at all;
* lines: the recorded break lines of the checked models the findings name (recall), and the named
  lines that ran in a recorded run of that model without breaking there (false);
* named first: findings whose message names a line that broke in that model's runs, of those whose
  named line ran in one.

Models the builder makes otherwise (a closure, a lambda) are counted as not spelled. Spellings are
made in the bench venv (``spell`` mode: each model is built once); ``--spellings FILE`` keeps them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from score import bench_site_packages, fullgraph_command  # noqa: E402
from sites import reached, statements_for  # noqa: E402
from truth import TRUTH_DIR, load_runs  # noqa: E402

BENCH_PYTHON = HERE / ".venv" / "bin" / "python"


def spell(package: str, models: list[str]) -> dict[str, dict]:
    """(In the bench venv.) Model -> how a user names what its builder compiles: {"module", "name",
    "method", "kind"} (a class whose object is compiled, or its `method`; or a function), or {"skip": why}."""
    import importlib
    import inspect

    import torch

    builder = importlib.import_module(f"builders.{package}")
    out = {}
    for model in models:
        inits: dict[int, dict] = {}
        try:
            sys.setprofile(lambda frame, event, _: _record_init(frame, event, inits))
            case = builder.build(model, builder.variants(model)[0])
        except Exception as exc:  # noqa: BLE001 - a model that does not build is not spelled
            out[model] = {"skip": f"build: {type(exc).__name__}"}
            continue
        finally:
            sys.setprofile(None)
        case = case[0] if isinstance(case, list) else case  # a builder may make several calls of one model
        fn, method = case.fn, None
        if hasattr(fn, "__self__") and isinstance(fn.__self__, torch.nn.Module):
            target, method = type(fn.__self__), fn.__name__
        elif inspect.isfunction(fn) or inspect.isclass(fn):
            target = fn
        else:  # a module, or another object called: its class
            target = type(fn)
        name, module = getattr(target, "__qualname__", ""), getattr(target, "__module__", "") or ""
        if not name or "<" in name or "." in name or not module.startswith(builder.MODULE.split(".")[0]):
            out[model] = {"skip": f"not a {builder.MODULE} class or function: {module}.{name}"}
            continue
        made = fn.__self__ if method else fn
        out[model] = {"module": _public(module, name, target), "name": name, "method": method,
                      "kind": "class" if inspect.isclass(target) else "function",
                      "kwargs": _literal_arguments(target, inits.get(id(made), {})) if inspect.isclass(target) else {}}
    return out


def _record_init(frame, event: str, inits: dict[int, dict]) -> None:
    """Keep the arguments of the first (outermost) `__init__` each object runs."""
    if event == "call" and frame.f_code.co_name == "__init__" and "self" in frame.f_locals:
        inits.setdefault(id(frame.f_locals["self"]), dict(frame.f_locals))


def _literal_arguments(cls, arguments: dict) -> dict:
    """The arguments the builder gave the class that are literals (bool, number, string, None) and
    not the parameter's default: what the user's script passes too."""
    import inspect

    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return {}
    out = {}
    for name, value in arguments.items():
        param = params.get(name)
        if name == "self" or param is None or param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            continue
        literal = value is None or type(value) in (bool, int, float, str)
        default = param.default is not param.empty and type(param.default) is type(value) and param.default == value
        if literal and not default:
            out[name] = value
    return out


def _public(module: str, name: str, target) -> str:
    """The shortest prefix of ``module`` that binds ``name`` to ``target`` (the public import)."""
    import importlib

    parts = module.split(".")
    for n in range(1, len(parts) + 1):
        prefix = ".".join(parts[:n])
        try:
            if getattr(importlib.import_module(prefix), name, None) is target:
                return prefix
        except Exception:  # noqa: BLE001, S112 - a prefix that fails to import is not the spelling
            continue
    return module


def script(spelling: dict) -> str:
    """The user's file for one spelling; the compile call is on its last line."""
    head = f"import torch\nfrom {spelling['module']} import {spelling['name']}\n\n"
    made = f"{spelling['name']}({', '.join(f'{k}={v!r}' for k, v in spelling.get('kwargs', {}).items())})"
    if spelling["method"]:
        return head + f"model = {made}\ncompiled = torch.compile(model.{spelling['method']})\n"
    if spelling["kind"] == "class":
        return head + f"model = {made}\ncompiled = torch.compile(model)\n"
    return head + f"compiled = torch.compile({spelling['name']})\n"


def spellings_for(package: str, models: list[str]) -> dict[str, dict]:
    """`spell` run in the bench venv."""
    out = subprocess.run([str(BENCH_PYTHON), __file__, "spell", package, *models], capture_output=True, text=True,
                         cwd=HERE)
    if out.returncode != 0:
        raise SystemExit(f"spelling {package} failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def check(spelled: dict[str, dict], jobs: int) -> dict[str, list[dict]]:
    """Model -> the findings of its script."""
    cmd, env = fullgraph_command()
    with tempfile.TemporaryDirectory() as tmp:
        names = {}
        for i, (model, spelling) in enumerate(sorted(spelled.items())):
            path = Path(tmp) / f"user_{i}.py"
            path.write_text(script(spelling), encoding="utf-8")
            names[path.name] = model
        (Path(tmp) / "pyproject.toml").write_text(
            f"[project]\nname = 'userview'\n\n[tool.fullgraph]\npython = {json.dumps(str(BENCH_PYTHON))}\n",
            encoding="utf-8")
        out = subprocess.run([*cmd, "check", "--format", "json", "--jobs", str(jobs), *sorted(names)],
                             env=env, capture_output=True, text=True, cwd=tmp)
        if out.returncode not in (0, 1):
            raise SystemExit(f"fullgraph check failed ({out.returncode}): {out.stderr[-2000:]}")
        found: dict[str, list[dict]] = {m: [] for m in names.values()}
        for f in json.loads(out.stdout or "[]"):
            found[names[os.path.basename(f["path"])]].append(f)
    return found


def named_lines(finding: dict, site_packages: str, package: set[str]) -> list[tuple[str, int]]:
    """The library lines a finding names, its message's first. A break in another package (one the
    scored package calls, as pykeen calls opt_einsum) is named by the last line of the scored
    package it is reached through, where the truth places it (its innermost frame in the package)."""
    named: list[tuple[str, int]] = []
    outside = False
    for r in finding.get("related", []):
        if not os.path.abspath(r["path"]).startswith(site_packages + os.sep):
            continue
        where = (os.path.relpath(r["path"], site_packages).replace(os.sep, "/"), r["line"])
        message = r.get("message", "")
        if message.startswith("breaks here"):
            outside = where[0].split("/")[0] not in package
            named.append(where)
        elif message.startswith("through here") and outside and where[0].split("/")[0] in package:
            named[-1] = where
    return named


def score(runs: dict[str, dict], spelled: dict[str, dict], found: dict[str, list[dict]], site_packages: str) -> dict:
    """The figures of one package; lines are matched by statement (a break Dynamo places on a
    continuation line of a statement is that statement's), as the main scorer does."""
    files = {b["file"] for row in runs.values() for b in row.get("breaks", []) if b.get("file")}
    package = {b["file"].split("/")[0] for row in runs.values() for b in row.get("breaks", []) if b.get("file")}
    files |= {line[0] for fs in found.values() for f in fs for line in named_lines(f, site_packages, package)}
    stmts = statements_for(Path(site_packages), files)

    def statement(file: str, line: int) -> tuple[str, tuple[int, int]]:
        return file, stmts[file].of(line)

    by_model: dict[str, dict[str, dict]] = {}
    for rid, row in runs.items():
        by_model.setdefault(row["model"], {})[rid] = row
    out = {"broke": 0, "reported": 0, "spelled_broke": 0, "sites": 0, "named_true": 0, "named": 0, "false": 0,
           "first_true": 0, "first_judged": 0, "not_spelled": 0, "clean": 0, "clean_reported": 0, "clean_named": 0,
           "clean_false": 0,
           "errors": sum(f["code"] in ("FG000", "FG001") for fs in found.values() for f in fs)}
    for model, model_runs in sorted(by_model.items()):
        sites = {statement(b["file"], b["line"]) for row in model_runs.values() for b in row.get("breaks", [])
                 if b.get("file")}
        if not sites:
            ran_clean = model in found and all(row.get("status") == "ok" and not row.get("breaks")
                                               and row.get("graphs") == 1 for row in model_runs.values())
            out["clean"] += ran_clean
            out["clean_reported"] += ran_clean and bool(found[model])
            if ran_clean:  # a named line Dynamo traced there ran without breaking: a false alarm
                named = {statement(*line) for f in found[model] for line in named_lines(f, site_packages, package)}
                ran = reached(model_runs)
                out["clean_named"] += len(named)
                ran_named = sorted(s for s in named if s[1][0] in ran.get(s[0], ()))
                out["clean_false"] += len(ran_named)
                if ran_named:
                    out.setdefault("details", []).append(
                        f"{model}: one graph, {len(ran_named)} named lines that ran"
                        + "".join(f"\n    ran {s[0]}:{s[1][0]}" for s in ran_named))
            continue
        out["broke"] += 1
        if model not in found:
            out["not_spelled"] += 1
            continue
        out["spelled_broke"] += 1
        ran = reached(model_runs)
        findings = found[model]
        out["reported"] += bool(findings)
        out["sites"] += len(sites)
        named = {statement(*line) for f in findings for line in named_lines(f, site_packages, package)}
        false = {s for s in named - sites if s[1][0] in ran.get(s[0], ())}  # the statement ran, and never broke
        out["named"] += len(named)
        out["named_true"] += len(named & sites)
        out["false"] += len(false)
        out.setdefault("details", []).append(
            f"{model}: {len(named & sites)} of {len(sites)} break lines named"
            + "".join(f"\n    {'named' if s in named else 'missed'} {s[0]}:{s[1][0]}" for s in sorted(sites))
            + "".join(f"\n    false {s[0]}:{s[1][0]}" for s in sorted(false)))
        for f in findings:
            lines = [statement(*line) for line in named_lines(f, site_packages, package)]
            if lines and (lines[0] in sites or lines[0] in false):
                out["first_judged"] += 1
                out["first_true"] += lines[0] in sites
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["spell"]:
        print(json.dumps(spell(argv[1], argv[2:])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--spellings", help="a JSON file of spellings: read when it exists, else written")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--details", action="store_true", help="per model: its break lines, named or missed")
    args = parser.parse_args(argv)
    packages = args.packages or sorted(p.stem for p in TRUTH_DIR.glob("*.jsonl"))
    site_packages = os.path.realpath(bench_site_packages())
    kept = json.loads(Path(args.spellings).read_text()) if args.spellings and Path(args.spellings).exists() else {}
    rows = {}
    start = time.perf_counter()
    print("| package | models broke | spelled | reported | break lines named | named, ran without breaking "
          "| message's line broke | one graph, reported | one graph, named lines that ran |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for package in packages:
        runs = load_runs(TRUTH_DIR / f"{package}.jsonl")
        models = sorted({row["model"] for row in runs.values()})
        if package not in kept:
            kept[package] = spellings_for(package, models)
            if args.spellings:
                Path(args.spellings).write_text(json.dumps(kept), encoding="utf-8")
        spelled = {m: s for m, s in kept[package].items() if "skip" not in s}
        found = check(spelled, args.jobs) if spelled else {}
        row = rows[package] = score(runs, spelled, found, site_packages)
        print(f"| {package} | {row['broke']} | {row['spelled_broke']} | {row['reported']} "
              f"| {row['named_true']}/{row['sites']} | {row['false']} of {row['named']} "
              f"| {row['first_true']}/{row['first_judged']} | {row['clean_reported']} of {row['clean']} "
              f"| {row['clean_false']} of {row['clean_named']} |", flush=True)
    if args.details:
        for package, row in rows.items():
            print(f"\n### {package}\n" + "\n".join(row.get("details", [])))
    total = {k: sum(r[k] for r in rows.values()) for k in next(iter(rows.values()), {}) if k != "details"}
    if total:
        print(f"| all | {total['broke']} | {total['spelled_broke']} | {total['reported']} "
              f"| {total['named_true']}/{total['sites']} | {total['false']} of {total['named']} "
              f"| {total['first_true']}/{total['first_judged']} | {total['clean_reported']} of {total['clean']} "
              f"| {total['clean_false']} of {total['clean_named']} |")
    if total:
        print(f"\nFG000/FG001 findings (the check failed on a script or in library code): {total['errors']}")
    print(f"\nuserview wall time: {time.perf_counter() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
