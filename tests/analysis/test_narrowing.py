"""None-ness shown by earlier tests: what Dynamo never evaluates is not flagged, and a rebound
name loses what was shown of it."""

import textwrap

from fullgraph.config import Config
from fullgraph.engine import analyze


def lines(src: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in analyze(textwrap.dedent(src), "n.py", Config(assume_compiled="decorated"))]


HEAD = """
import torch
@torch.compile
def f(x: torch.Tensor, m: torch.Tensor | None = None, flag: bool = False):
"""


def test_early_return_under_compile_makes_the_name_none():
    assert lines(HEAD + """
    if m is not None and torch.compiler.is_compiling():
        return x
    if m is None or m.all():
        return x + 1
    return x
""") == []


def test_without_the_compile_guard_the_tensor_is_read():
    assert lines(HEAD + """
    if m is not None and flag:
        return x
    if m is None or m.all():
        return x + 1
    return x
""") == [(8, "FG101")]


def test_one_test_narrows_the_operands_after_it():
    assert lines(HEAD + """
    if not (m is not None and torch.compiler.is_compiling()) and (m is None or m.all()):
        return x + 1
    return x
""") == []


def test_a_name_rebound_in_a_branch_loses_the_narrowing():
    assert lines(HEAD + """
    if m is not None and torch.compiler.is_compiling():
        return x
    if flag:
        m = x > 0
    if m is None or m.all():
        return x + 1
    return x
""") == [(10, "FG101")]


def test_a_name_rebound_in_a_loop_loses_the_narrowing_at_the_loop_top():
    assert lines(HEAD + """
    if m is not None and torch.compiler.is_compiling():
        return x
    for _ in range(2):
        if m is None or m.all():
            x = x + 1
        m = x > 0
    return x
""") == [(9, "FG101")]


ISINSTANCE = """
import torch
@torch.compile
def f(edges: "Adjacency", mask: torch.Tensor):
    before = edges[mask > 0]
{body}
"""


def test_isinstance_tensor_makes_the_name_a_tensor_in_its_branch_only():
    assert lines(ISINSTANCE.format(body="""\
    if isinstance(edges, torch.Tensor):
        return edges[mask > 0]
    return edges[mask > 0]
""")) == [(7, "FG453")]


def test_a_failed_not_isinstance_that_returns_makes_the_name_a_tensor_after_it():
    assert lines(ISINSTANCE.format(body="""\
    if not isinstance(edges, (torch.Tensor, torch.nn.Parameter)):
        return edges
    return edges[mask > 0]
""")) == [(8, "FG453")]


def test_a_parameter_only_guessed_a_tensor_decides_no_type_test():
    """`g`'s unannotated `tails` is only guessed a tensor: passed on, it must not rule out
    `isinstance(tails, list)` in the helper (a list of strings takes that branch)."""
    src = """
import torch

def helper(inputs, d, tails="linear"):
    if tails == "linear":
        d_ = d + 1
    elif isinstance(tails, list):
        d_ = d.clone()
        ind = [t == "circular" for t in tails]
        d_[..., ind, -1] = d_[..., ind, 0]
    return d_[inputs > 0]

@torch.compile
def g(x, d, tails):
    return helper(x, d, tails=tails)
"""
    assert lines(src) == [(10, "FG453"), (11, "FG453")]
    known = lines(src.replace("g(x, d, tails)", "g(x, d, tails: torch.Tensor)"))
    assert (10, "FG453") not in known  # a tensor it is said to be still decides the test


def test_a_python_type_test_makes_the_name_no_tensor_where_it_holds():
    """`isinstance(n, int)` holding: `n` is no tensor there, whatever it was guessed; after
    `if not isinstance(n, (int, float)): return`, from there on; outside the branch, as before."""
    src = """
import torch

@torch.compile
def f(x, n):
    if isinstance(n, int):
        if n > 0:
            x = x * n
    if not isinstance(n, (int, float)):
        return x
    if n > 1:
        return x * 2
    return x

@torch.compile
def g(x, n):
    if isinstance(n, int):
        x = x + 1
    if n > 0:
        return x
    return x + 1
"""
    assert lines(src) == [(19, "FG101")]


def test_a_python_type_test_keeps_what_is_known_of_a_list_s_elements():
    """`isinstance(xs, list)` holding says nothing against the tensors the list holds."""
    assert lines("""
import torch

@torch.compile
def f(a: torch.Tensor, b: torch.Tensor):
    xs = [a, b]
    if isinstance(xs, list):
        for t in xs:
            if t.sum() > 0:
                a = a + 1
    return a
""") == [(9, "FG101")]


def test_a_branch_that_rebinds_the_name_keeps_its_binding():
    assert lines(ISINSTANCE.format(body="""\
    if isinstance(edges, torch.Tensor):
        edges = edges.tolist()
    return edges[mask > 0]
""")) == [(7, "FG202")]


HELPER = """
import torch

def can_stop(x):
    if torch.jit.is_scripting():
        return False
    if torch.jit.is_tracing() or torch.compiler.is_compiling():
        return False
    return x.numel() > 4

@torch.compile
def f(x: torch.Tensor):
"""


def test_a_literal_a_helper_false_under_compile_chose_decides_later_tests():
    """kornia's distance transform: `stop_checks = (...) if can_stop(x) else ()` is `()` while
    Dynamo traces, so `i in stop_checks and not bool(x.any())` never reads the tensor."""
    body = """
    checks = (1, 3) if can_stop(x) else ()
    for i in range(4):
        if i in checks and not bool(x.any()):
            break
        x = x * 2
    if can_stop(x):
        x = x + int(x.sum())
    return x
"""
    assert lines(HELPER + body) == []
    rebound = body.replace("        x = x * 2\n", "        x = x * 2\n        checks = (i,)\n")
    assert [code for _, code in lines(HELPER + rebound)] == ["FG105"]  # bound twice: no longer known
    unguarded = HELPER.replace("    if torch.jit.is_tracing() or torch.compiler.is_compiling():\n        return False\n", "")
    assert sorted(code for _, code in lines(unguarded + body)) == ["FG105", "FG204"]


def test_a_failed_type_test_makes_the_name_no_tensor_in_the_operands_after_it():
    """`not torch.is_tensor(x) and x == 0` compares only a Python value; `isinstance(x, Tensor) or
    x > 0` likewise. In a branch the test rules out, the name is no tensor either."""
    assert lines(HEAD + """
    if (not torch.is_tensor(x)) and (x == 0):
        return x
    if isinstance(x, torch.Tensor) or x > 0:
        return x
    if not torch.is_tensor(m):
        if m > 0:
            return x
    if torch.is_tensor(m) and m.sum() > 0:
        return x
    return x
""") == [(13, "FG101")]
