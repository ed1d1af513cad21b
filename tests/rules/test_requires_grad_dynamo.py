"""FG406's note on `t.requires_grad_()`: it breaks only where `t` does not already require grad
(Dynamo run for real on both inputs), and the message says so where the call turns it on."""

import pytest
from rule_snippets import module_source

from fullgraph.engine import analyze

BODY = "y = x * 2\ny.requires_grad_(True)\nreturn y + 1"


@pytest.mark.torch
@pytest.mark.parametrize("grad, breaks", [(False, True), (True, False)])
def test_turning_requires_grad_on_breaks_only_where_it_is_off(grad, breaks):
    import torch
    from torch._dynamo.utils import counters

    def f(x):
        y = x * 2
        y.requires_grad_(True)
        return y + 1

    torch._dynamo.reset()
    counters.clear()
    torch.compile(f, backend="eager")(torch.randn(3, requires_grad=grad))
    assert bool(sum(counters["graph_break"].values())) is breaks


@pytest.mark.parametrize("body, note", [
    (BODY, True),
    ("x.requires_grad_()\nreturn x", True),
    ("y = x.detach().requires_grad_()\nreturn y", False),  # a detached tensor never requires grad
    ("x.requires_grad_(False)\nreturn x", False),
])
def test_the_message_names_the_case_where_nothing_breaks(body, note):
    found = [f for f in analyze(module_source(body), "m.py") if f.code == "FG406"]
    assert len(found) == 1
    assert ("already requires grad: then the call changes nothing" in found[0].message) is note


@pytest.mark.parametrize("receiver", ["made", "made[0]", "made.detach()"])
def test_a_flag_set_on_a_tensor_the_function_made_breaks_only_when_true(receiver):
    """`requires_grad_(flag)` on a tensor the function made, an element of one or a detached one:
    Dynamo traces `requires_grad_(False)` there, so the finding is conditional on the flag."""
    body = f"made = torch.zeros(3, 2)\nreturn {receiver}.requires_grad_(use_cache)"
    found = [f for f in analyze(module_source(body), "m.py") if f.code == "FG406"]
    assert len(found) == 1 and "(when `use_cache`)" in found[0].message
