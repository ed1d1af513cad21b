"""Side-effect calls in epilogue position are not reported (nor the conversions in their arguments)."""

import ast

import pytest
from epilogue_shapes import FLAGGED_LINE, ONE_GRAPH, SHAPES, body_line, shape_source
from fullgraph.analysis.epilogue import in_epilogue, plain_value
from fullgraph.config import Config
from fullgraph.engine import analyze

CODES = {"FG301", "FG302", "FG303", "FG304", "FG201", "FG204"}
ALL = Config(assume_compiled="all")


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_checker_verdict_per_shape(name):
    found = [f for f in analyze(shape_source(name), "m.py", ALL) if f.code in CODES]
    if SHAPES[name][1] == ONE_GRAPH:
        assert found == []
    else:
        assert body_line(FLAGGED_LINE[name]) in {f.line for f in found}


def test_conversions_in_a_reported_call_are_still_reported():
    codes = {f.code for f in analyze(shape_source("op_after_item_in_call"), "m.py", ALL)}
    assert {"FG301", "FG201"} <= codes


def test_a_helper_is_never_an_epilogue():
    source = ("import torch\n\ndef report(y):\n    y = y * 2\n    print(y)\n    return y\n\n"
              "@torch.compile\ndef f(x):\n    y = report(x.relu())\n    return y\n")
    assert [(f.line, f.code) for f in analyze(source, "m.py")] == [(5, "FG301")]


def test_a_submodule_forward_called_by_its_parent_is_reported():
    source = ("import torch\nfrom torch import nn\n\nclass Inner(nn.Module):\n    def forward(self, x):\n"
              "        y = x.relu()\n        print(y.sum().item())\n        return y\n\n"
              "class Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
              "        self.inner = Inner()\n\n    def forward(self, x):\n        return self.inner(x) * 2\n")
    assert {f.code for f in analyze(source, "m.py")} == {"FG301", "FG201"}
    alone = source.split("\nclass Outer")[0]
    assert analyze(alone, "m.py") == []


@pytest.mark.parametrize("body", [
    "with torch.no_grad():\n    y = x.relu()\n    print(y)\nreturn y",
    "y = x.relu()\ntry:\n    print(y)\nfinally:\n    pass\nreturn y",
    "y = x.relu()\nprint(y)\nx = y\nreturn x",
])
def test_other_blocks_and_statements_end_no_epilogue(findings, body):
    assert "FG301" in {f.code for f in findings(body)}


def test_formatting_in_an_epilogue_call_is_quiet(findings):
    assert findings('y = x.relu()\nprint(f"{y}", str(y))\nreturn y') == []


def _call_parents(source: str) -> tuple[ast.FunctionDef, list[ast.AST]]:
    fn = ast.parse(source).body[0]
    chain = []

    def find(node, path):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            chain.extend(path + [node])
            return True
        return any(find(c, path + [node]) for c in ast.iter_child_nodes(node))

    assert any(find(stmt, []) for stmt in fn.body)
    return fn, chain


@pytest.mark.parametrize("body, expected", [
    ("y = g(x)\nprint(y)\nreturn y", True),
    ("y = g(x)\nprint(y)\nreturn", True),
    ("y = g(x)\nprint(y)\nreturn (y, self.cache, None)", True),
    ("y = g(x)\nprint(y)\nreturn y + 1", False),
    ("y = g(x)\nprint(y)\nreturn [y]", False),
    ("y = g(x)\nn = print(y)\nreturn y", False),
    ("y = g(x)\nif y:\n    print(y)\nelse:\n    y = y + 1\nreturn y", True),
    ("y = g(x)\nif flag:\n    print(y)\n    y = y + 1\nreturn y", False),
])
def test_in_epilogue_scan(body, expected):
    source = "def f(self, x, flag):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    fn, parents = _call_parents(source)
    is_print = lambda call: isinstance(call.func, ast.Name) and call.func.id == "print"
    assert in_epilogue(fn, parents, is_print) is expected


def test_plain_values():
    assert plain_value(ast.parse("(a, b.c, None)", mode="eval").body)
    assert not plain_value(ast.parse("a.T", mode="eval").body)
    assert not plain_value(ast.parse("a[0]", mode="eval").body)
