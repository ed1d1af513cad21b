"""fullgraph.testing in-process: options, frame skips, and the test process's logging left as it was."""

import logging

import pytest

pytestmark = pytest.mark.torch


def branchy(x):
    y = x * 2
    if y.sum() > 0:
        y = y + 1
    return y


def loop_print(x):
    for _ in range(2):
        x = x * 2
        print("step")
    return x


@pytest.fixture(scope="module")
def torch():
    import torch

    return torch


def test_allow_by_id_or_type(torch):
    from fullgraph.testing import assert_no_graph_breaks

    assert assert_no_graph_breaks(branchy, torch.ones(3), allow=["GB0170"]).graphs == [2]
    assert_no_graph_breaks(branchy, torch.ones(3), allow=["data-dependent branching"])


def test_max_graphs_is_a_budget(torch):
    from fullgraph.testing import assert_no_graph_breaks

    assert_no_graph_breaks(branchy, torch.ones(3), max_graphs=2)
    with pytest.raises(AssertionError, match=r"in branchy \(2 graphs, more than max_graphs=1\)"):
        assert_no_graph_breaks(branchy, torch.ones(3), max_graphs=1)


def test_a_skipped_frame_fails_within_the_budget(torch):
    from fullgraph.testing import assert_no_graph_breaks

    with pytest.raises(AssertionError) as info:
        assert_no_graph_breaks(loop_print, torch.ones(3), max_graphs=5)
    assert "Dynamo skipped the whole function" in str(info.value)
    assert "test_testing.py:20: " in str(info.value)  # the print in the loop


def test_dynamic_shapes_do_not_recompile(torch):
    from fullgraph.testing import assert_no_recompiles

    sets = [((torch.ones(2, 4),), {}), ((torch.ones(5, 4),), {})]
    assert assert_no_recompiles(lambda x: x * 2, sets, dynamic=True).recompilations == []
    with pytest.raises(AssertionError, match="size mismatch at index 0"):
        assert_no_recompiles(lambda x: x * 2, sets, dynamic=False)


def test_loggers_are_restored(torch):
    from fullgraph.confirm.capture import BREAK_LOGGERS
    from fullgraph.testing import assert_no_graph_breaks

    lg = logging.getLogger(BREAK_LOGGERS[0])
    before = (lg.level, lg.propagate, list(lg.handlers))
    assert_no_graph_breaks(lambda x: x + 1, torch.ones(2))
    assert (lg.level, lg.propagate, list(lg.handlers)) == before
