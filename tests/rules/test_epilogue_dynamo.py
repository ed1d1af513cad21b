"""What Dynamo does with each epilogue shape: the accepted ones trace exactly one graph."""

import pytest
from epilogue_shapes import FIRST, ONE_GRAPH, SHAPES, SKIPPED, SPLIT, shape_source

pytestmark = pytest.mark.torch


def _dynamo(name: str) -> tuple[int, int]:
    """(graphs traced, graph breaks taken) for shape ``name`` on a small input."""
    import torch
    from torch._dynamo.utils import counters

    namespace: dict = {}
    exec(compile(shape_source(name), f"<{name}>", "exec"), namespace)  # noqa: S102 - the shape's own source
    torch._dynamo.reset()
    counters.clear()
    explained = torch._dynamo.explain(namespace["f"])(torch.ones(2, 2))
    return explained.graph_count, sum(counters["graph_break"].values())


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_dynamo_outcome_per_shape(name):
    graphs, breaks = _dynamo(name)
    outcome = SHAPES[name][1]
    if outcome == ONE_GRAPH:
        assert graphs == 1
    elif outcome == SPLIT:
        assert graphs >= 2
    elif outcome == SKIPPED:
        assert graphs == 0
    else:
        assert outcome == FIRST and breaks >= 1 and graphs <= 1
