"""Random statements typed into function bodies of real model files: every analysis made with the
editor's caches (parse and walk caches) must give the findings of one made without them.

``python bench/walk_cache_edits.py [--edits N] [--seed S] [FILE[:SETTING] ...]``

FILE is the name of one of transformers' modeling files (default: four of them, one analysed with
every function compiled); each edit inserts one statement at the start of a statement of a random
function (data flow, early returns, attribute stores, prints, tensor branches), and is kept for the
next edit half the time. Prints, per file, the edits tried and the mismatches (none expected).
"""

from __future__ import annotations

import argparse
import ast
import random
import sys

from transformers_models import models_or_say

from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.walk_cache import WalkCache
from fullgraph.config import Config
from fullgraph.engine import analyze_document

FILES = ("modeling_bart.py", "modeling_t5.py", "modeling_llama.py:all", "modeling_qwen3_omni_moe.py")
STATEMENTS = ("y = x.sum()", "hidden_states = hidden_states * 2", "hidden_states = hidden_states.sum().item()",
              "return hidden_states", "return None", "x = 1", "print(hidden_states)",
              "if hidden_states.sum() > 0:\n{indent}    hidden_states = hidden_states + 1", "attention_mask = None",
              "self.flag = True", "residual = torch.zeros(3)", "return torch.rand(3).sum()", "return 1")


def mismatches(path: str, setting: str, edits: int, rng: random.Random) -> tuple[int, int]:
    """Edit `path` `edits` times at random: the edits analysed (those that parse), and those whose
    cached and fresh analyses differ."""
    text = open(path, encoding="utf-8").read()
    config = Config(assume_compiled=setting)
    parses, walks = ParseCache(), WalkCache()
    analyze_document(text, path, config, parses, None, walks)
    lines = text.split("\n")
    functions = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)]
    bad = tried = 0
    for _ in range(edits):
        function = rng.choice(functions)
        at = function.body[rng.randrange(len(function.body))]
        indent = " " * at.col_offset
        edited = lines[:at.lineno - 1] + [indent + rng.choice(STATEMENTS).replace("{indent}", indent)] + lines[at.lineno - 1:]
        source = "\n".join(edited)
        try:
            tree = ast.parse(source)
        except SyntaxError:  # between a nested def and its decorators: not an edit of code that runs
            continue
        tried += 1
        cached = analyze_document(source, path, config, parses, None, walks)
        if cached != analyze_document(source, path, config):
            bad += 1
            print(f"  mismatch: {function.name}, line {at.lineno}: {edited[at.lineno - 1].strip()!r}", file=sys.stderr)
        if rng.random() < 0.5:
            lines, functions = edited, [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    return tried, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=list(FILES))
    parser.add_argument("--edits", type=int, default=75)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    root = models_or_say()
    if root is None:
        return 1
    total = 0
    for spec in args.files:
        name, _, setting = spec.partition(":")
        path = str(next(root.rglob(name)))
        tried, bad = mismatches(path, setting or "modules", args.edits, random.Random(f"{args.seed}:{spec}"))
        total += bad
        print(f"{name} ({setting or 'modules'}): {tried} edits analysed, {bad} mismatches", flush=True)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
