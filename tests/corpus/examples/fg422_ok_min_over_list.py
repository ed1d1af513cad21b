# expect: clean
"""The same reductions over a list comprehension, a generator of plain numbers, and a `range` with a
key: Dynamo reduces each of them."""
import itertools

import torch


@torch.compile
def pick(a, b, c):
    shapes = (a.shape, b.shape, c.shape)
    cost, order = min([(sum(shapes[i][0] for i in p), p) for p in itertools.permutations(range(3))])
    smallest = min(s[0] for s in shapes)
    widest = max(range(3), key=lambda i: shapes[i][-1])
    return (a, b, c)[order[0]] * (cost + smallest + widest)


def fullgraph_example():
    return pick, (torch.randn(2, 3), torch.randn(4, 5), torch.randn(3, 2)), {}
