"""When a Python value a compiled method stores on its module (``self.avg = t.mean().item()``,
statistics kept for the user to read) may be stored at the replay after the module's call instead
(:mod:`fullgraph.fixes.store_deferral` rewrites it): nothing in the module's class may use the
attribute in between, and a module class the replaying hooks surround must run the method."""

from __future__ import annotations

import ast

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.stored_values import stored_attribute
from fullgraph.fixes.captures import captured_parts, mutation_reason
from fullgraph.fixes.deferral_chain import names_reason
from fullgraph.fixes.keep_tensor import conversion_warning
from fullgraph.fixes.known import known_tensors, torchscript_reason
from fullgraph.fixes.sites import enclosing_function, parents

# Blocks a deferred store may sit in: the captured tensors are computed in place, only Python-side
# conversions move (a `with` of torch's grad modes does not change them).
GRAD_MODES = ("no_grad", "enable_grad", "inference_mode", "set_grad_enabled")


def store_of(tree: ast.AST, call: ast.Call) -> tuple[ast.Assign, str] | None:
    """The ``self.<attr> = <value>`` statement whose value holds the conversion ``call``."""
    fn = enclosing_function(tree, call)
    return stored_attribute(fn, call) if fn is not None else None


def store_reason(tree: ast.AST, call: ast.Call, finding, stored: tuple[ast.Assign, str]) -> str | None:
    """Why the store can't be deferred to the replay after the module's call (None: it can)."""
    data = finding.data if isinstance(finding.data, dict) else {}
    stmt, attr = stored
    classes = data.get("replay_classes")
    if not classes:
        return (f"the conversion's value is stored on `self.{attr}`, and no module `forward` of this file is seen to "
                "run the method, so nothing would replay the store once the call returns")
    uses = data.get("stored_uses")
    if uses is None or uses:
        named = ", ".join((uses or ["code the engine did not check"])[:3]) + (" and more" if uses and len(uses) > 3 else "")
        return (f"the value is stored on `self.{attr}`, which is also used by {named}: deferred until "
                f"`{classes[0]}`'s call returns, the store would come after that use")
    if not data.get("replay_supported"):
        return ("the project's torch lacks what the deferral's code calls (`torch.compiler.is_exporting`, "
                "`torch._dynamo.config.ignore_logging_functions`, forward hooks with `always_call`): a newer torch has them")
    reason = names_reason(tree) or torchscript_reason(finding, "a lambda kept in a module-level list")
    if reason is not None:
        return reason
    if any(isinstance(n, (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp))
           for n in walk(stmt.value)):
        return "the stored value assigns a name or holds a comprehension or lambda"
    fn = enclosing_function(tree, call)
    captured = captured_parts(tree, fn, [stmt.value])
    holder = next((n for n in captured if call is n or call in walk(n)), None)
    if holder is not None:
        return (f"the conversion is inside `{ast.unparse(holder)}`, which would still run where the store stands "
                "(only conversions and NumPy or `math` calls around it move to the replay)")
    changed = mutation_reason(fn, captured, known_tensors(finding))
    if changed is not None:
        return changed
    chain = parents(fn)
    node = chain.get(stmt)
    while node is not fn:
        if isinstance(node, (ast.Try, ast.Match, ast.AsyncWith, ast.AsyncFor)) or isinstance(node, ast.With) \
                and not all(_grad_mode(item.context_expr) for item in node.items):
            return f"the store is inside a `{type(node).__name__.lower()}` block, which the replay would be outside of"
        node = chain.get(node)
    return None


def _grad_mode(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in GRAD_MODES


def store_replay_reason(finding, call: ast.Call) -> str | None:
    """Why fix-all leaves a deferred store to the user (None: it applies it): ``float()`` of a tensor
    that requires grad warns, and the warning would name the replay's line; the module class also
    runs inside other module code, whose graph traces its hooks (the store then stays in place)."""
    if conversion_warning(call) is not None:
        return ("`float()` of a tensor that requires grad prints a UserWarning, which the deferred store would "
                "report at the replay's line (Python prints and filters warnings by their line), so fix-all "
                "leaves it to you (a quick fix, or `fullgraph fix --unsafe-fixes`)")
    data = finding.data if isinstance(finding.data, dict) else {}
    inside = data.get("runs_inside")
    if not inside:
        return None
    return used_elsewhere(data["replay_classes"][0], inside, "store")


def used_elsewhere(owner: str, inside, what: str) -> str:
    """Why a deferral (of a call or a ``what``) is left to the user: the replaying class also runs as
    part of other module code, whose graph Dynamo compiles with the break still in it."""
    return (f"`{owner}` is also made or called by other module code ({', '.join(inside[:3])}): compiled as part "
            f"of that module, the {what} stays where it is and so does the break (the hooks that replay deferred "
            "calls run only around a module Dynamo compiles on its own), so fix-all leaves it to you (a quick fix, "
            "or `fullgraph fix --unsafe-fixes`)")
