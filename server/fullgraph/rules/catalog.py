"""The rule catalog: every code, in order, with its documentation (front ends read this)."""

from __future__ import annotations

from fullgraph.rules import control_flow, dynamic_shapes, module_hooks, side_effects, tensor_to_python, untraceable
from fullgraph.rules.rule import DOCS_BASE_URL, Rule

FAMILIES = (control_flow, tensor_to_python, side_effects, untraceable, module_hooks, dynamic_shapes)

SYNTAX = Rule(
    "FG000", "syntax-error", "the file cannot be parsed or decoded", (),
    what="Reported once per file that is not valid Python (a syntax error, undecodable bytes, or "
         "nesting too deep for the parser). No other rule runs on such a file.",
    why="The checker needs a syntax tree; Dynamo would not get that far either.",
    example="def forward(self, x)\n    return x",
    fixed_example="def forward(self, x):\n    return x",
    fix_text="Fix the syntax error at the reported position.",
    severity="error",
)

NOT_ANALYZED = Rule(
    "FG001", "not-analyzed", "compiled code the checker could not analyse", (),
    what="Reported on a compiled function (or at the top of the file) that the checker could not "
         "analyse: an expression nested deeper than it can follow (such as a sum of tens of thousands "
         "of terms) or an internal error. The message says which. Its graph breaks, if any, are not "
         "reported, rather than silently missing.",
    why="Nothing is known about this code's graph breaks; Dynamo may still compile it.",
    example="y = x + x + x + ...  # 15,000 terms on one line",
    fixed_example="y = x * 15000",
    fix_text="Split the expression into smaller ones, or report the internal error.",
)

UNMATCHED = Rule(
    "FG900", "unmatched-dynamo-break", "graph break Dynamo reported that no static rule predicted", (),
    what="Reported by `fullgraph confirm` (and the editor's confirmation) when TorchDynamo breaks the "
         "graph at a line where no static finding sits. The message carries Dynamo's own reason and "
         "registry id.",
    why="Some breaks depend on run-time values, library internals or configuration that static "
        "analysis cannot see.",
    example="y = some_c_extension(x)  # Dynamo: 'Attempted to call function marked as skipped'",
    fixed_example="y = torch_equivalent(x)",
    fix_text="Follow the linked registry page for the reported id.",
)

RECOMPILED = Rule(
    "FG901", "recompilation", "Dynamo recompiled a function across the sample input sets", (),
    what="Reported by confirmation when running the sample input sets one after another made Dynamo "
         "compile the same function again. The message names the guard that failed (a shape, a dtype, "
         "a Python value such as a flag or a length).",
    why="Every recompilation pays the full compile time again, and after "
        "`torch._dynamo.config.recompile_limit` recompilations Dynamo gives up and runs the function "
        "eagerly (the \"second compilation killer\").",
    example="model(x)           # batch 2\nmodel(x[:1])       # batch 1: guard on size()[0] fails",
    fixed_example="torch._dynamo.mark_dynamic(x, 0)\nmodel(x)",
    fix_text="Mark the varying dimension dynamic (`torch._dynamo.mark_dynamic` or "
             "`torch.compile(dynamic=True)`), or stop passing Python values that change between calls.",
    severity="info",
)

RULES: dict[str, Rule] = {
    r.code: r for r in sorted([SYNTAX, NOT_ANALYZED, UNMATCHED, RECOMPILED, *(r for f in FAMILIES for r in f.RULES)], key=lambda r: r.code)
}


def get_rule(code: str) -> Rule | None:
    """The rule for `code` (case-insensitive), or None."""
    return RULES.get(code.upper())


def checks() -> dict:
    """Node type -> detector functions of every family, in family order."""
    merged: dict = {}
    for family in FAMILIES:
        for node_type, funcs in family.CHECKS.items():
            merged.setdefault(node_type, []).extend(funcs)
    return merged


__all__ = ["DOCS_BASE_URL", "RULES", "Rule", "checks", "get_rule"]
