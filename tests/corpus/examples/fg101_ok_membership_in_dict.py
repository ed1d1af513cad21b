# expect: clean
"""Membership in a table passed in (`method not in solvers`): a dict, not a tensor, so the test is
a Python one; only `v in t` on a tensor reads tensor values."""
import torch


@torch.compile
def solve(x, method, solvers):
    if method not in solvers:
        raise ValueError(f"unknown method {method}")
    return solvers[method](x)


def fullgraph_example():
    table = {"double": lambda t: t * 2, "negate": lambda t: -t}
    return [(solve, (torch.ones(4), "double", table), {}), (solve, (torch.ones(4), "negate", table), {})]
