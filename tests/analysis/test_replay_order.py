"""ReplayOrder: which other output may run between a deferred call and its replay."""

from __future__ import annotations

import ast
from types import SimpleNamespace

from fullgraph.analysis.regions import FunctionInfo
from fullgraph.analysis.replay_order import ReplayOrder
from fullgraph.analysis.walker import Raw

SOURCE = """
def forward(x):
    log(x)
    x = helper(x)
    done(x)
    return unwalked(x)

def helper(x):
    print(x)
    return x

def done(x):
    print("done")
"""


def _order() -> tuple[ReplayOrder, dict[str, FunctionInfo], ast.Call]:
    tree = ast.parse(SOURCE)
    functions = {f.name: FunctionInfo(f, f.name) for f in tree.body}
    calls = {c.func.id: c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
    unwalked = FunctionInfo(ast.parse("def unwalked(x):\n    return x\n").body[0], "unwalked")  # reached, never walked
    printed = {name: [Raw("FG301", node, "", "high", False) for node in ast.walk(functions[name].node)
                      if isinstance(node, ast.Call) and node.func.id == "print"] for name in ("helper", "done")}
    walks = [(SimpleNamespace(calls=[(functions["helper"], calls["helper"], {}, False),
                                     (functions["done"], calls["done"], {}, False),
                                     (unwalked, calls["unwalked"], {}, False)], raws=[]),
              SimpleNamespace(function=functions["forward"])),
             *((SimpleNamespace(calls=[], raws=printed[name]), SimpleNamespace(function=functions[name]))
               for name in ("helper", "done"))]
    return ReplayOrder(walks, {"FG301"}), functions, printed["helper"][0].node


def test_output_after_the_deferred_call_is_found_and_functions_never_walked_are_skipped():
    order, functions, site = _order()
    assert order.following([functions["forward"]], functions["helper"], site) == ["done"]
