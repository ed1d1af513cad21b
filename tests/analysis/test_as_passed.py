"""`as_passed`: whether a parameter read somewhere in a function still holds what the call passed."""

import ast
import textwrap

import pytest
from fullgraph.analysis.bindings import as_passed

SOURCE = textwrap.dedent("""
    def f(a, b, c, d, e):
        if a is not None:
            a = a + 1
        b, e = g(b, e)
        if c:
            d = 0
        elif d:
            pass
        for _ in range(3):
            if e:
                e = 1
        return a, b, c, d, e
    """)


def _read(fn: ast.FunctionDef, name: str, line: int) -> ast.Name:
    return next(n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and n.lineno == line
                and isinstance(n.ctx, ast.Load))


@pytest.mark.parametrize("name, line, expected", [
    ("a", 3, True),  # the test above the store
    ("a", 13, False),  # after `a = a + 1`
    ("b", 5, True),  # an argument of the statement whose target rebinds it
    ("d", 8, True),  # the store is in the other branch of the `if`
    ("d", 13, False),  # after the `if` whose branch stores it
    ("e", 11, False),  # a loop around the read stores it: a later pass reads the new value
])
def test_a_read_holds_the_passed_value_until_a_store_can_run_first(name, line, expected):
    fn = ast.parse(SOURCE).body[0]
    assert as_passed(_read(fn, name, line), name, fn) is expected
