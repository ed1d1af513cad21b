"""Call sites outside the compiled region: the file's module-level code and module-level
functions that are not compiled, and the sample inputs a file declares for confirmation
(``fullgraph_example()`` returning ``(callable, args, kwargs)`` tuples), which say how its entries
are called."""

from __future__ import annotations

import ast
from collections.abc import Callable

from fullgraph.analysis.callers import CallSite, CallSites, bind_arguments
from fullgraph.analysis.nodes import walk
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.regions import FunctionInfo, ModuleIndex
from fullgraph.analysis.walk_cache import Walked
from fullgraph.analysis.walker import Visit, Walker

_NO_ARGS = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def outside_call_sites(index: ModuleIndex, tree: ast.Module, entries: list[FunctionInfo], sites: CallSites,
                       walk: Callable[[Visit], Walker | Walked] | None = None) -> None:
    """Add to `sites` the calls of in-file functions (and the sample-input tuples) found in
    module-level code and in the module-level functions that are not `entries` (the walk of a
    function in the region replaces the call sites found here in it). A function with no sample
    input is walked by `walk` when given (the editor's kept walks)."""
    body = [s for s in tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    module = ast.FunctionDef(name="<module>", args=_NO_ARGS, body=body, decorator_list=[], returns=None,
                             type_params=[], lineno=1, col_offset=0)
    region = {id(f) for f in entries}
    outside = [FunctionInfo(module, "<module>"), *(f for f in index.functions.values() if id(f) not in region)]
    names = set(index.functions) | set(index.classes) | set(index.instances)
    for function in outside:
        if not _mentions(function.node, names):
            continue
        visit, samples = Visit(function, function, guesses=False), _sample_calls(function.node)
        try:
            if walk is None or samples or function.node is module:
                walker = Walker(index, visit, {})
                walker.run()
            else:
                walker = walk(visit)
        except Exception:  # noqa: BLE001, S112 - call sites are a refinement: without them the guesses apply
            continue
        for target, call, passed, _ in walker.calls:
            if passed is not None:  # (an autograd Function's `backward` is run, not called with arguments)
                sites.add(target.node, CallSite(function.qualname, call, passed))
        for call in samples:
            call = walker.called_through(call) or call
            target = walker.callee(call)
            if target is not None:
                passed = bind_arguments(target.node, target.cls is not None, call, walker.passed)
                sites.add(target.node, CallSite(function.qualname, call, passed))


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return not _names(node).isdisjoint(names)


@per_node
def _names(node: ast.AST) -> frozenset[str]:
    """The names a function reads or writes."""
    return frozenset(n.id for n in walk(node) if isinstance(n, ast.Name))


def _sample_calls(node: ast.AST) -> list[ast.Call]:
    """`(callable, (args...), {kwargs})` tuples as the calls they stand for."""
    calls = []
    for sub in walk(node):
        if not (isinstance(sub, ast.Tuple) and len(sub.elts) in (2, 3) and isinstance(sub.elts[1], ast.Tuple)):
            continue
        kwargs = sub.elts[2] if len(sub.elts) == 3 else ast.Dict(keys=[], values=[])
        if not isinstance(kwargs, ast.Dict) or not isinstance(sub.elts[0], (ast.Name, ast.Attribute, ast.Call)):
            continue
        keywords = [ast.keyword(arg=k.value, value=v) for k, v in zip(kwargs.keys, kwargs.values)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        call = ast.Call(func=sub.elts[0], args=list(sub.elts[1].elts), keywords=keywords)
        calls.append(ast.copy_location(call, sub))
    return calls
