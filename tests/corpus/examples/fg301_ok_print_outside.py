# expect: clean
"""Printing outside the compiled region, or only in eager mode, is fine."""
import torch


def report(x):
    print("result", x)


@torch.compile
def step(x: torch.Tensor) -> torch.Tensor:
    if not torch.compiler.is_compiling():
        print("eager step")
    return x.relu() + 1


def fullgraph_example():
    return step, (torch.randn(4),), {}
