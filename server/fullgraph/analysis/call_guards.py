"""What every compiled call of a function decides about its tests.

* Tests on ``self``: a method that compiled code calls only as ``if self.merged: self.unmerge()``
  starts with ``self.merged`` true, so the method's own ``if not self.merged: warnings.warn(...)``
  is dead in compiled code, as long as nothing that may change ``self`` (a call, an attribute or
  item store) runs between the caller's test and the callee's.
* Flags: a parameter every compiled call leaves at its literal default or passes the same literal
  (``self.merge(adapter_names=names)`` for ``def merge(self, safe_merge=False, ...)``) has that value
  while Dynamo traces, so ``if safe_merge:`` is decided (when nothing rebinds the parameter).

A finding under a test decided the other way is not reported.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from fullgraph.analysis.bindings import as_passed, local_bindings
from fullgraph.analysis.call_reach import incoming
from fullgraph.analysis.callers import bind_arguments
from fullgraph.analysis.never_none import NOT_NONE, never_none, none_helper_test
from fullgraph.analysis.nodes import names_in, self_attribute, walk
from fullgraph.analysis.parents import function_parents
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.regions import FunctionInfo

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
Atom = tuple[str, bool]  # (ast.dump of a test on self, whether it holds)
MAX_SPREAD_BINDINGS = 4  # dict literals a `**kwargs` argument may hold, read key by key


def atoms(test: ast.expr, holds: bool) -> list[tuple[ast.expr, bool]]:
    """The parts ``test`` evaluating to ``holds`` decides: each part of an ``and`` that holds (of an
    ``or`` that does not), through ``not``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return atoms(test.operand, not holds)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) == holds:
        return [a for v in test.values for a in atoms(v, holds)]
    return [(test, holds)]


def atom_mode(test: ast.expr, holds: bool) -> bool | None:
    """The mode one atom holds the code to: True (training) for `self.training` that holds (or
    `self.training is False` that does not), False for the eval side; None for another test."""
    if isinstance(test, ast.Attribute) and test.attr == "training":
        return holds
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Attribute) \
            and test.left.attr == "training" and isinstance(test.ops[0], (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) \
            and isinstance(test.comparators[0], ast.Constant) and isinstance(test.comparators[0].value, bool):
        return holds == (test.comparators[0].value == isinstance(test.ops[0], (ast.Is, ast.Eq)))
    return None


def mode_of_test(test: ast.expr, holds: bool) -> bool | None:
    """The mode a trace-time test holds the code to (`if self.training and cfg.x:` True; its `else`
    only when the mode is all it tests), or None."""
    modes = {m for atom, atom_holds in atoms(test, holds) if (m := atom_mode(atom, atom_holds)) is not None}
    return modes.pop() if len(modes) == 1 else None


TRAINING = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr="training", ctx=ast.Load())


@per_node
def passes_mode(call: ast.AST) -> bool:
    """Whether a call passes some argument that is a test of the mode (`record_rng=self.training`)."""
    return isinstance(call, ast.Call) and any(mode_of_test(a, True) is not None for a in (*call.args, *(k.value for k in call.keywords)))


def moded(test: ast.expr, holds: bool, modes: dict[str, bool]) -> tuple[ast.expr, bool]:
    """A test of a parameter every call passes the mode (`modes`: True for `self.training`, False for
    its negation), as the test of the mode itself; any other test as it is."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    name = test.operand if negated else test
    if isinstance(name, ast.Name) and name.id in modes:
        return TRAINING, (holds != negated) == modes[name.id]
    return test, holds


def argument_nodes(function: FunctionInfo, call: ast.Call) -> dict[str, object]:
    """What ``call`` passes to each parameter of ``function``: the argument's node, the default's node
    where the call leaves one in place, UNKNOWN where a `*`/`**` argument may reach it; nothing for a
    method called unbound (`helper(...)` or `Base.merge(self, ...)`: not bound as `self.merge(...)` is)."""
    node = function.node
    first = (node.args.posonlyargs + node.args.args)[:1]
    itself = isinstance(call.func, ast.Name) and call.func.id == "self"  # `self(x)`: the object's own call, bound
    if first and first[0].arg == "self" and not itself and (not isinstance(call.func, ast.Attribute) or any(
            isinstance(a, ast.Name) and a.id == "self" for a in call.args[:1])):
        return {}
    method = function.cls is not None or bool(first and first[0].arg == "self")
    return bind_arguments(node, method, call, lambda arg: arg, default=lambda value: value, facts=False)


def argument_choices(function: FunctionInfo, call: ast.Call, caller: ast.AST | None) -> list[dict[str, object]]:
    """:func:`argument_nodes` once per dict literal a `**kwargs` argument of ``call`` may hold: the
    literal itself, or each binding in ``caller`` of a local name that is only ever spread
    (`kwargs = {}` in one branch, `kwargs = {"tails": self.tails}` in the other), its keys passed
    by name. One binding, the call's own, where there is no such argument."""
    return [argument_nodes(function, spelled) for spelled in _spread_keywords(call, caller)]


def _spread_keywords(call: ast.Call, caller: ast.AST | None) -> list[ast.Call]:
    """``call`` with its one `**` argument replaced by the keywords of each dict literal it may
    hold (:func:`argument_choices`); ``[call]`` when it has none, or holds something else."""
    spread = [k for k in call.keywords if k.arg is None]
    if len(spread) != 1:
        return [call]
    literals = _spread_literals(spread[0].value, caller)
    if literals is None:
        return [call]
    kept = [k for k in call.keywords if k.arg is not None]
    return [ast.Call(func=call.func, args=call.args,
                     keywords=kept + [ast.keyword(arg=key.value, value=value) for key, value in zip(d.keys, d.values)])
            for d in literals]


def _spread_literals(value: ast.expr, caller: ast.AST | None) -> list[ast.Dict] | None:
    """The dict literals a `**` argument holds (MAX_SPREAD_BINDINGS at most), each key a string."""
    if isinstance(value, ast.Dict):
        literals = [value]
    elif isinstance(value, ast.Name) and caller is not None and _only_spread(caller, value.id):
        literals = local_bindings(caller).get(value.id) or []
    else:
        return None
    if not literals or len(literals) > MAX_SPREAD_BINDINGS or not all(
            isinstance(d, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in d.keys)
            for d in literals):
        return None
    return literals


@per_node
def _spread_names(fn: ast.AST) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``fn`` spreads as `**name`, and those it reads anywhere else."""
    spread, loads = set(), []
    for node in walk(fn):
        if isinstance(node, ast.keyword) and node.arg is None and isinstance(node.value, ast.Name):
            spread.add(id(node.value))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Load, ast.Del)):
            loads.append(node)
    return (frozenset(n.id for n in loads if id(n) in spread),
            frozenset(n.id for n in loads if id(n) not in spread))


def _only_spread(fn: ast.AST, name: str) -> bool:
    """Whether ``fn`` reads local `name` only as `**name` (nothing can change the dict it holds)."""
    spread, other = _spread_names(fn)
    return name in spread and name not in other


def _literal_arguments(function: FunctionInfo, call: ast.Call, outer: dict[str, object] | None = None,
                       caller: ast.AST | None = None, flags: dict[str, object] | None = None) -> dict[str, object]:
    """The parameters ``call`` gives a literal (a constant argument, or a constant default it leaves
    in place, or a parameter of the calling function `caller` that `outer` says holds one, where it
    still does, or `self.<attr>` where the object's `flags` say it holds one), or NOT_NONE (a size);
    through a `**` argument, the literal every dict it may hold gives."""
    choices = [_literal_choice(bound, outer or {}, caller, flags or {})
               for bound in argument_choices(function, call, caller)]
    first, rest = choices[0], choices[1:]
    return {name: value for name, value in first.items()
            if all(name in other and _same_literal(value, other[name]) for other in rest)}


def _literal_choice(bound: dict[str, object], outer: dict[str, object], caller: ast.AST | None,
                    flags: dict[str, object]) -> dict[str, object]:
    """:func:`_literal_arguments` of one binding of the call's arguments."""
    rebound = local_bindings(caller) if caller is not None else {}
    found = {}
    for name, value in bound.items():
        if isinstance(value, ast.Constant):
            found[name] = value.value
        elif isinstance(value, ast.Name) and value.id in outer and (value.id not in rebound
                                                                    or as_passed(value, value.id, caller)):
            found[name] = outer[value.id]
        elif self_attribute(value) and value.attr in flags:
            found[name] = flags[value.attr]
        elif isinstance(value, ast.AST) and caller is not None and never_none(value, caller):
            found[name] = NOT_NONE  # a size: only its None tests are decided
    return found


def _same_literal(a: object, b: object) -> bool:
    """Whether two literals decide every test :meth:`CallGuards._decided` reads alike: equal, and of
    one type, or both an int or float (`zero_division=0` from one call, its default `0.0` from another)."""
    numbers = (int, float)
    return a == b and (type(a) is type(b) or type(a) in numbers and type(b) in numbers)


def _literal_comparison(test: ast.expr) -> tuple[str, object, bool] | None:
    """(name, literal, True for ==) for `name == <literal>` / `name != <literal>` (either side; not a
    None literal, which `is` tests): literals compare as Python compares them."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    for name, other in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        if isinstance(name, ast.Name) and isinstance(other, ast.Constant) and other.value is not None:
            return name.id, other.value, isinstance(test.ops[0], ast.Eq)
    return None


def _on_self(test: ast.expr) -> bool:
    """A test that reads only ``self``'s state (``self.merged``, ``self.cfg.flag is None``): no call."""
    return names_in(test) == {"self"} and not any(isinstance(n, ast.Call) for n in walk(test))


def _may_change_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) or (isinstance(node, (ast.Attribute, ast.Subscript))
                                          and isinstance(node.ctx, (ast.Store, ast.Del)))


_NONE = object()  # no literal known


class CallGuards:
    """Which findings sit under a test (on ``self``, or on a flag) that every compiled call of their
    function decides the other way. Built from the walks of one analysis (its calls are every
    compiled call), and for an entry only compiled code of other files calls, from those calls (`remote`);
    `self_flags(function)` gives the literals the construction of `function`'s object leaves in
    its attributes (a call passing `self.zero_division` passes that literal)."""

    def __init__(self, walks, entries: list[FunctionInfo], remote: dict[int, list[ast.Call]] | None = None,
                 self_flags: Callable[[FunctionInfo], dict] = lambda function: {}) -> None:
        self._into: dict[int, list[tuple[FunctionInfo | None, ast.Call]]] = incoming(walks)
        self._self_flags = self_flags  # the literals an object's construction leaves in its `self.<attr>`
        self._remote = set(remote or ())  # entries only compiled code of other files calls: its calls decide flags
        for fid, calls in (remote or {}).items():
            self._into.setdefault(fid, []).extend((None, call) for call in calls)
        self._entries = {id(e) for e in entries} - self._remote
        self._held: dict[int, frozenset[Atom]] = {}
        self._literals: dict[int, dict[str, object]] = {}

    def unreachable(self, conditions, function: FunctionInfo) -> bool:
        """Whether a finding under ``conditions`` in ``function`` cannot run in compiled code."""
        if not conditions or id(function) in self._entries:
            return False
        for t, h in (a for test, holds in conditions for a in atoms(test, holds)):
            if id(function) not in self._remote and _on_self(t) and (ast.dump(t), not h) in self._held_at_entry(function) \
                    and self._early(function.node, t):
                return True
            value = self._decided(function, t)
            if value is not None and value != h:
                return True
        return False

    def unsettled(self, conditions, function: FunctionInfo) -> tuple:
        """``conditions`` without the tests every compiled call of ``function`` decides as they hold
        (`if not normalization: return x` before the finding, every call passing `normalization="sigmoid"`):
        those are no condition."""
        if not conditions or id(function) in self._entries:
            return conditions
        return tuple((test, holds) for test, holds in conditions
                     if not all(self._decided(function, t) == h for t, h in atoms(test, holds)))

    def _decided(self, function: FunctionInfo, test: ast.expr) -> bool | None:
        """The value of ``flag`` / ``flag is None`` / ``flag is not None`` / ``flag == <literal>`` /
        ``flag != <literal>`` for a parameter every compiled call gives one literal; None for any
        other test."""
        where, test = test, none_helper_test(test, function.module) or test  # `exists(v)`: `v is not None`
        compared = _literal_comparison(test)
        if compared is not None:
            name, value, equal = compared
            literal = self._literal_at(function, name, where)
            return None if literal is _NONE or literal is NOT_NONE else (literal == value) == equal
        name, none = test, None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
            name, none = test.left, isinstance(test.ops[0], ast.Is)
        if not isinstance(name, ast.Name):
            return None
        value = self._literal_at(function, name.id, where)
        if value is _NONE or value is NOT_NONE and none is None:
            return None
        return bool(value) if none is None else (value is None) == none

    def _literal_at(self, function: FunctionInfo, name: str, test: ast.expr):
        """The literal every compiled call gives parameter `name`, as `test` reads it (before the
        body rebinds it: `zero_division = 0.0 if zero_division == "warn" else zero_division`
        comes after the test), or _NONE."""
        literals = self._literals_at_entry(function)
        if name not in literals or name in local_bindings(function.node) and not as_passed(test, name, function.node):
            return _NONE
        return literals[name]

    def _literals_at_entry(self, function: FunctionInfo) -> dict[str, object]:
        """Parameters every compiled call of ``function`` gives the same literal (where the body rebinds
        one, it holds only before: :meth:`_literal_at`), through the callers' own parameters passed on
        (`_safe_divide(n, d, zero_division=zero_division)`)."""
        if id(function) not in self._literals:
            self._literals[id(function)] = {}  # a call of itself, on the way, decides nothing
            node = function.node
            found: dict[str, object] | None = None
            calls = self._into.get(id(function), []) if not node.decorator_list else []
            for caller, call in calls:  # a caller's own parameter passed on holds what its callers give it
                outer = self._literals_at_entry(caller) if caller is not None and id(caller) not in self._entries else {}
                passed = _literal_arguments(function, call, outer, caller.node if caller is not None else None,
                                            self._self_flags(caller) if caller is not None else None)
                found = passed if found is None else {k: v for k, v in found.items()
                                                      if k in passed and _same_literal(passed[k], v)}
            self._literals[id(function)] = found or {}
        return self._literals[id(function)]

    def _held_at_entry(self, function: FunctionInfo) -> frozenset[Atom]:
        """The tests on ``self`` every compiled call of ``function`` is made under: those around the
        call, and those its caller starts under when nothing before the call may change ``self``."""
        if id(function) not in self._held:
            self._held[id(function)] = frozenset()  # an entry, and a recursive call, start under none
            if id(function) in self._entries:
                return self._held[id(function)]
            node = function.node
            bound = node.args.args and node.args.args[0].arg == "self"
            held = None
            for caller, call in self._into.get(id(function), []) if bound else ():
                at = self._guards(caller.node, call, node.name)
                if at is None:  # not a call on the caller's own `self`, or others run with it
                    held = frozenset()
                    break
                if self._early(caller.node, call):
                    at |= self._held_at_entry(caller)
                held = at if held is None else held & at
                if not held:
                    break
            self._held[id(function)] = held or frozenset()
        return self._held[id(function)]

    def _guards(self, caller: ast.AST, call: ast.Call, name: str) -> frozenset[Atom] | None:
        """Tests on ``self`` decided where ``self.<name>(...)`` is called, with nothing that may
        change ``self`` run between them and the call; None when the call is not that alone."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name)
                and func.value.id == "self") or any(isinstance(n, ast.Call) for n in walk(call) if n is not call):
            return None
        parents = function_parents(caller)
        out: set[Atom] = set()
        child = parents.get(call)
        while child is not None and not isinstance(child, ast.stmt):
            if isinstance(child, _LOOPS + _SCOPES):  # a comprehension or lambda may call it more than once
                return None
            child = parents.get(child)
        if child is None or any(isinstance(n, ast.Call) and n is not call for n in walk(child)):
            return None
        while child is not caller:
            owner = parents.get(child)
            if owner is None or isinstance(owner, _LOOPS) or (isinstance(owner, _SCOPES) and owner is not caller):
                break
            block = next((b for b in (getattr(owner, f, None) for f in ("body", "orelse", "finalbody", "handlers"))
                          if isinstance(b, list) and any(s is child for s in b)), None)
            if block is None:  # the test of an `if`, a `with` item...: not a statement of a block
                break
            before = block[:next(i for i, s in enumerate(block) if s is child)]
            if any(_may_change_self(n) for s in before for n in walk(s)):
                break
            if isinstance(owner, ast.If):
                if any(isinstance(n, ast.Call) for n in walk(owner.test)):
                    break
                holds = block is owner.body
                out.update((ast.dump(t), h) for t, h in atoms(owner.test, holds) if _on_self(t))
            elif not isinstance(owner, (ast.Try, ast.ExceptHandler)) and owner is not caller:
                break  # a `with` enters a context manager (a call) first
            child = owner
        return frozenset(out)

    def _early(self, fn: ast.AST, test: ast.expr) -> bool:
        """Whether ``test`` runs before anything in ``fn`` that may change ``self`` (and not in a loop)."""
        parents = function_parents(fn)
        node = parents.get(test)
        ancestors = set()
        while node is not None and node is not fn:
            if isinstance(node, _LOOPS + _SCOPES):
                return False
            ancestors.add(id(node))
            node = parents.get(node)
        if node is None:
            return False
        at = (test.lineno, test.col_offset)
        return not any(_may_change_self(n) and (n.lineno, n.col_offset) < at and id(n) not in ancestors
                       for stmt in fn.body for n in walk(stmt) if hasattr(n, "lineno"))
