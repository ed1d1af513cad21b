"""Sizes are never None, and `exists(v)`-style helpers test for None: a call passing a size leaves
the callee's None tests on it decided."""

from __future__ import annotations

import ast
import textwrap

import pytest

from fullgraph.analysis.never_none import _tests_none, never_none
from fullgraph.analysis.project import ProjectIndex
from fullgraph.engine import analyze_document


def _function(source: str) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(source)).body[0]


@pytest.mark.parametrize("name, expected", [
    ("a", True), ("b", True), ("seq", True), ("n", True), ("rows", True), ("pad", False), ("maybe", False),
])
def test_sizes_are_never_none(name, expected):
    fn = _function("""\
        def f(x, other):
            a, b = x.shape
            seq, pad = x.shape[1], None
            n = len(other)
            rows = x.size(0)
            maybe = x.shape[0] if other else None
            return a
        """)
    read = ast.Name(id=name, ctx=ast.Load())
    assert never_none(read, fn) is expected


def test_a_name_also_bound_otherwise_is_not_known():
    fn = _function("def f(x):\n    a, b = x.shape\n    a = None\n    return a\n")
    assert never_none(ast.Name(id="a", ctx=ast.Load()), fn) is False


@pytest.mark.parametrize("source, tests", [
    ("def exists(v):\n    return v is not None\n", False),
    ("def missing(v):\n    '''Doc.'''\n    return v is None\n", True),
    ("def other(v):\n    return v == 0\n", None),
    ("def two(v, w):\n    return v is not None\n", None),
])
def test_helpers_that_test_for_none(source, tests):
    assert _tests_none(_function(source)) is tests


def test_a_size_passed_to_a_none_default_decides_its_test(tmp_path):
    """x-transformers: `seq, index = x.shape[1], self.ignore_index`, then `lens_to_mask(lens, seq)`,
    whose `if not exists(max_len): max_len = lens.amax().item()` never runs; passed None, it does."""
    library = textwrap.dedent("""\
        import torch
        from torch import nn

        def exists(v):
            return v is not None

        def lens_to_mask(lens, max_len=None):
            if not exists(max_len):
                max_len = lens.amax().item()
            return torch.arange(max_len) < lens[..., None]

        class Wrapper(nn.Module):
            def forward(self, x, lens):
                seq, index = x.shape[1], 0
                return x.masked_fill(~lens_to_mask(lens, seq), index)

        class Unsized(nn.Module):
            def forward(self, x, lens):
                return x.masked_fill(~lens_to_mask(lens), 0)
        """)
    (tmp_path / "lib" / "fglib").mkdir(parents=True)
    (tmp_path / "lib" / "fglib" / "__init__.py").write_text(library)
    (tmp_path / "ws").mkdir()
    found = {}
    for made in ("Wrapper", "Unsized"):
        path = tmp_path / "ws" / f"{made.lower()}.py"
        path.write_text(f"import torch\nfrom fglib import {made}\n\ncompiled = torch.compile({made}())\n")
        project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
        found[made] = [f.code for f in analyze_document(path.read_text(), str(path), project=project).findings]
    assert found == {"Wrapper": [], "Unsized": ["FG201"]}


def test_an_unpacking_of_names_reads_them_without_recursing():
    """`c, d = a, b` after `a, b = x.shape`: the names are not followed (the table of sizes is being
    built); no recursion, and `c` is not known."""
    fn = _function("def f(x):\n    a, b = x.shape\n    c, d = a, b\n    return c\n")
    assert never_none(ast.Name(id="c", ctx=ast.Load()), fn) is False
    assert never_none(ast.Name(id="a", ctx=ast.Load()), fn) is True
