"""FG421: module hooks Dynamo cannot trace: one registered (or its handle removed) in compiled code,
and a call of a submodule whose `__init__` gave it a backward hook."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import self_attribute, walk
from fullgraph.analysis.per_node import per_node
from fullgraph.rules.common import last_binding, method_call, snippet
from fullgraph.rules.rule import Rule
from fullgraph.rules.untraceable import is_module

RULES = [
    Rule(
        "FG421", "module-hook", "a module hook registered in compiled code, or a submodule with a backward hook",
        ("GB0467", "GB0013", "GB0083"),
        what="Flags `register_forward_hook`, `register_forward_pre_hook` and the backward-hook registrations "
             "called on a module in a compiled region, `remove()` on the handle one returned, and a call of a "
             "submodule to which `__init__` gave a backward hook (`self.fc1.register_full_backward_hook(...)`). "
             "A hook registered in `__init__` on the compiled module itself, or a forward hook on a submodule, "
             "is fine.",
        why="Registering a hook mutates the module's hook dictionaries through a `RemovableHandle`, which "
            "Dynamo cannot model (GB0467 'setattr() on unsupported type'; its `remove()`: GB0013); and "
            "module-level backward hooks need compiled autograd, so Dynamo breaks at every call of a "
            "submodule that has one (GB0083), with or without gradients.",
        example="def forward(self, x):\n    handle = self.enc.register_forward_hook(save)\n    h = self.enc(x)\n"
                "    handle.remove()\n    return h",
        fixed_example="# in __init__ (or before compiling):\nself.enc.register_forward_hook(save)\n\n"
                      "def forward(self, x):\n    return self.enc(x)",
        fix_text="Register hooks once, outside the compiled code; for gradients of a submodule, use a tensor "
                 "hook on its output (`h.register_hook(fn)`) or compiled autograd instead of a module "
                 "backward hook.",
    ),
]

REGISTRATIONS = frozenset(("register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
                           "register_full_backward_pre_hook", "register_backward_hook"))
BACKWARD = frozenset(("register_full_backward_hook", "register_full_backward_pre_hook", "register_backward_hook"))


def check_call(node: ast.Call, w) -> None:
    func = node.func
    if method_call(node, *REGISTRATIONS) and is_module(func.value, w):
        w.report("FG421", node, f"`{snippet(node)}` registers a module hook in compiled code", gb_ids=("GB0467",))
    elif method_call(node, "remove") and not node.args and isinstance(func.value, ast.Name):
        made = last_binding(w.function.node, func.value.id, node.lineno)
        if isinstance(made, ast.Call) and method_call(made, *REGISTRATIONS):
            w.report("FG421", node, f"`{snippet(node)}` removes a hook in compiled code", gb_ids=("GB0013",))
    elif self_attribute(func) and w.function.cls is not None and func.attr in _backward_hooked(w):
        w.report("FG421", node, f"`{snippet(func)}` has a module backward hook (registered in `__init__`): "
                                "Dynamo breaks at its call", gb_ids=("GB0083",))


def _backward_hooked(w) -> frozenset[str]:
    """The submodules `__init__` of the class (or an in-file base) gives a backward hook."""
    return frozenset(name for c in w.index.chain(w.function.cls) if "__init__" in c.methods
                     for name in _hooked_in(c.methods["__init__"].node))


@per_node
def _hooked_in(init: ast.AST) -> frozenset[str]:
    return frozenset(n.func.value.attr for n in walk(init)
                     if isinstance(n, ast.Call) and method_call(n, *BACKWARD) and self_attribute(n.func.value))


CHECKS = {ast.Call: [check_call]}
