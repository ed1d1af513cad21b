"""The engine's list of `torch.Tensor` methods matches the installed torch, and decides what a
subclass's own method returns."""

import pytest

from fullgraph.analysis.tensor_methods import TENSOR_METHODS
from fullgraph.config import Config
from fullgraph.engine import analyze


def test_the_list_is_the_installed_torch_tensor_api():
    torch = pytest.importorskip("torch")
    assert TENSOR_METHODS == {n for n in dir(torch.Tensor) if callable(getattr(torch.Tensor, n, None))}, \
        "regenerate it: python scripts/tensor_methods.py"


def test_a_subclass_method_result_is_not_taken_for_a_tensor():
    source = """
import torch

class EdgeIndex(torch.Tensor):
    def sparse_size(self):
        return (3, 3)

def count(edges: torch.Tensor) -> int:
    if isinstance(edges, EdgeIndex):
        return max(edges.sparse_size())
    return edges.size(0)

class Net(torch.nn.Module):
    def forward(self, edges):
        n = count(edges)
        if n * n > 100:
            raise ValueError("too big")
        if edges.sum() > 0:
            return edges
        return -edges
"""
    assert [(f.line, f.code) for f in analyze(source, "m.py", Config())] == [(18, "FG101")]
