"""Call sites: what each call passes to an in-file function's parameters, and what a parameter
is once every known call site is combined.

A parameter's fact is a pair ``(fact, guess)``: the tensor fact and the guessed parameters it
rests on (``()`` when it is known). :func:`parameter_facts` combines the pairs of every call
site; the caller of the engine decides where call sites come from (the walks of the file's
functions today, a project index later), see :class:`CallSites`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from fullgraph.analysis.facts import LIKELY, NUMPY, SPARSE, TENSOR, VALUE, Choice, Context, Function, Instance, Items, Module

Passed = tuple  # (fact, guess): the fact of an argument and the guesses it rests on
UNKNOWN: Passed = (None, ())
MASK = "boolean mask"  # the fact passed for a boolean tensor (`edge_type == i`): a tensor, and a mask


@dataclass(frozen=True)
class CallSite:
    """One call of a function: who calls it, the call, and what it passes to each parameter."""

    caller: str  # qualified name of the calling function
    call: ast.Call
    passed: dict[str, Passed]


@dataclass
class CallSites:
    """Every known call site, by the id of the called function's node."""

    by_callee: dict[int, list[CallSite]] = field(default_factory=dict)
    callees_of: dict[str, set[int]] = field(default_factory=dict)  # caller -> ids of the nodes it calls
    _facts: dict[int, dict[str, Passed] | None] = field(default_factory=dict)  # by callee, while its sites stay

    def add(self, callee: ast.AST, site: CallSite) -> None:
        self.by_callee.setdefault(id(callee), []).append(site)
        self.callees_of.setdefault(site.caller, set()).add(id(callee))
        self._facts.pop(id(callee), None)

    def of(self, callee: ast.AST) -> list[CallSite]:
        return self.by_callee.get(id(callee), [])

    def facts(self, callee: ast.AST) -> dict[str, Passed] | None:
        """:func:`parameter_facts` over the known call sites of `callee`."""
        if id(callee) not in self._facts:
            self._facts[id(callee)] = parameter_facts(self.of(callee))
        return self._facts[id(callee)]

    def drop(self, caller: str) -> set[int]:
        """Forget the call sites in `caller` (before it is walked again); the ids of the nodes it called."""
        callees = self.callees_of.pop(caller, set())
        for callee in callees:
            self.by_callee[callee] = [site for site in self.by_callee[callee] if site.caller != caller]
            self._facts.pop(callee, None)
        return callees


def is_method(node: ast.FunctionDef | ast.AsyncFunctionDef, in_class: bool) -> bool:
    return in_class and not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def with_defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.arg, ast.expr | None]]:
    """The named parameters of `node`, each with its default (None: none)."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    return [*zip(positional, defaults), *zip(args.kwonlyargs, args.kw_defaults)]


def bind_arguments(node: ast.FunctionDef | ast.AsyncFunctionDef, in_class: bool, call: ast.Call,
                   evaluate: Callable[[ast.expr], Passed], default: Callable[[ast.expr], Passed] | None = None,
                   facts: bool = True) -> dict[str, Passed]:
    """What `call` passes to each parameter of `node` (a method is called bound: `self.m(x)`,
    `module(x)`). A parameter the call leaves out takes ``default(its default)`` (its default's
    fact unless told); after a `*args` of unknown length, unmatched positional parameters are
    unknown (a keyword-only one still takes its default), after a `**kwargs` argument every one. With `facts` (`evaluate` gives (fact, guess) pairs, not the argument
    nodes a literal reading wants), a `*args` of known length is spread and a `*args` parameter gets
    the extra positional arguments (`Items`)."""
    default = default or _default_fact
    args = node.args
    positional = args.posonlyargs + args.args
    every = with_defaults(node)
    if is_method(node, in_class) and positional:
        positional, every = positional[1:], every[1:]
    passed: dict[str, Passed] = {}
    values = _positional_values(call, evaluate, facts)
    spread = values is None  # a `*args` reaches the positional parameters only
    for param, value in zip(positional, values or ()):
        passed[param.arg] = value
    extra = values[len(positional):] if facts and args.vararg is not None and values is not None else None
    if extra is not None:
        passed[args.vararg.arg] = (Items(tuple(f for f, _ in extra), (False,) * len(extra)),
                                   tuple(sorted({g for _, guess in extra for g in guess})))
    named = {a.arg for a in positional} | {a.arg for a in args.kwonlyargs}
    keywords_spread = False  # a `**kwargs` may reach any parameter
    for keyword in call.keywords:
        if keyword.arg is None:
            keywords_spread = True
        elif keyword.arg in named:
            passed[keyword.arg] = evaluate(keyword.value)
    reached = {id(a) for a in positional}
    for param, value in every:
        if param.arg not in passed:
            unknown = keywords_spread or spread and id(param) in reached or value is None
            passed[param.arg] = UNKNOWN if unknown else default(value)
    return passed


def _positional_values(call: ast.Call, evaluate: Callable[[ast.expr], Passed], facts: bool) -> list[Passed] | None:
    """What each positional argument of `call` passes, with `facts` a `*args` of known length spread
    out (`self.model(*args)` where `args` holds what its caller passed); None after any other `*`."""
    values: list[Passed] = []
    for arg in call.args:
        if not isinstance(arg, ast.Starred):
            values.append(evaluate(arg))
            continue
        fact, guess = evaluate(arg.value) if facts else (None, ())
        if not isinstance(fact, Items):
            return None
        values += [(element, guess) for element in fact.facts]
    return values


def _default_fact(default: ast.expr) -> Passed:
    return (VALUE, ()) if isinstance(default, ast.Constant) else UNKNOWN


def combine(passed: list[Passed]) -> Passed:
    """One parameter's fact over the call sites that know what they pass: a mask (a sparse tensor) if
    every one passes a known mask (sparse tensor), a tensor if any passes a known tensor (else a guessed one), a value (a
    NumPy array) if all pass values (arrays), a module (or an object of one class) if all pass the
    same, every function any passes (a callee calling the parameter may run each), unknown otherwise."""
    passed = [p for p in passed if p[0] is not None]
    if passed and all(fact == MASK and not guess for fact, guess in passed):
        return MASK, ()
    if passed and all(fact == SPARSE for fact, _ in passed):
        return SPARSE, ()
    passed = [(TENSOR if fact in (MASK, SPARSE) else fact, guess) for fact, guess in passed]
    facts = [fact for fact, _ in passed]
    if any(fact == TENSOR and not guess for fact, guess in passed):
        return TENSOR, ()
    if TENSOR in facts:
        return TENSOR, tuple(sorted({g for fact, guess in passed if fact == TENSOR for g in guess}))
    if LIKELY in facts:
        return LIKELY, ()
    if facts and all(fact == VALUE for fact in facts):
        return VALUE, ()
    if facts and all(fact == NUMPY for fact in facts):
        return NUMPY, ()
    if facts and isinstance(facts[0], (Module, Context, Instance, Choice)) and all(fact == facts[0] for fact in facts):
        return facts[0], ()
    if facts and all(isinstance(f, Items) and len(f.facts) == len(facts[0].facts) for f in facts):
        elements = [combine([(f.facts[i], guess) for f, guess in passed]) for i in range(len(facts[0].facts))]
        return Items(tuple(f for f, _ in elements), (False,) * len(elements)), \
            tuple(sorted({g for _, guess in elements for g in guess}))
    if any(isinstance(fact, Function) for fact in facts):  # any of the functions the sites pass may run
        infos = {id(i): i for fact in facts if isinstance(fact, Function) for i in fact.infos}
        return Function(tuple(infos.values())), ()
    return UNKNOWN


def parameter_facts(sites: list[CallSite]) -> dict[str, Passed] | None:
    """Each parameter's fact over `sites`; None when no call site is known. Where no site knows
    what it passes, the parameter is unknown, and an entry's guess applies. The object a method
    runs on (`self`, passed only for an object of a subclass of its class) is known only when
    every site passes the same one."""
    if not sites:
        return None
    names = dict.fromkeys(name for site in sites for name in site.passed)
    receivers = [site.passed.get("self", UNKNOWN)[0] for site in sites]
    if "self" in names and any(r != receivers[0] for r in receivers):
        del names["self"]
    return {name: combine([site.passed.get(name, UNKNOWN) for site in sites]) for name in names}
