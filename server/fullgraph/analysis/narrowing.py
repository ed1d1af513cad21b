"""What tests say of names' None-ness for the code after them: past
``if x is not None and is_tracing(x): return``, ``x`` is None wherever Dynamo traces on, so
``x is None or x.all()`` never reads a tensor there."""

from __future__ import annotations

import ast


def none_test(test: ast.AST) -> tuple[str, bool] | None:
    """(name, True) for `name is None`, (name, False) for `name is not None`, else None."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        return test.left.id, isinstance(test.ops[0], ast.Is)
    return None


def narrow(test: ast.AST, holds: bool, value_of, nones: dict[str, bool]) -> None:
    """Record in `nones` (name -> is None) what `test` evaluating to `holds` says; `value_of(e)`
    is what `e` evaluates to while Dynamo traces (None: unknown)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        narrow(test.operand, not holds, value_of, nones)
        return
    named = none_test(test)
    if named is not None:
        nones[named[0]] = named[1] == holds
    elif isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And) == holds:  # `a and b` held / `a or b` failed: every operand did
            for value in test.values:
                narrow(value, holds, value_of, nones)
            return
        # `a and b` failed (`a or b` held): the one operand not known to go the other way decided it
        open_ = [v for v in test.values if value_of(v) is not (not holds)]
        if len(open_) == 1:
            narrow(open_[0], holds, value_of, nones)


def exits(body: list[ast.stmt]) -> bool:
    """Whether a block always leaves (ends in `return` or `raise`, or in an `if`/`else` whose
    branches all do)."""
    return _ends_in(body, (ast.Return, ast.Raise))


def returns(body: list[ast.stmt]) -> bool:
    """Whether a block always ends in `return` (an `if`/`else` whose branches all do)."""
    return _ends_in(body, (ast.Return,))


def skips_rest(body: list[ast.stmt]) -> bool:
    """Whether a block always ends in `return` or `continue` (an `if`/`else` whose branches all
    do): what follows it in its block runs only when it does not."""
    return _ends_in(body, (ast.Return, ast.Continue))


def _ends_in(body: list[ast.stmt], kinds: tuple[type, ...]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.If):
        return _ends_in(last.body, kinds) and _ends_in(last.orelse, kinds)
    return isinstance(last, kinds)


def kept(saved: dict[str, bool], current: dict[str, bool]) -> dict[str, bool]:
    """The narrowings from before a block that still hold after it (names it rebound are dropped)."""
    return {name: none for name, none in saved.items() if current.get(name) == none}
