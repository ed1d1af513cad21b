# expect: clean
"""A solver chosen by name: `method == METHODS.euler` compares with a class attribute bound to a
string (a constants namespace, as torchsde's), and `method != DEFAULT` with a module constant:
Python tests, even though nothing says what `method` is."""
import torch

DEFAULT = "euler"


class METHODS:
    euler = "euler"
    heun = "heun"


@torch.compile
def step(x, method):
    if method == METHODS.euler:
        return x * 2
    if method != DEFAULT:
        return x - 1
    return x


def fullgraph_example():
    return [(step, (torch.ones(4), "euler"), {}), (step, (torch.ones(4), "heun"), {})]
