"""The pytest plugin (entry point ``pytest11``): the ``fullgraph`` fixture guards graph breaks.

``fullgraph.assert_no_graph_breaks(model, x)`` and ``fullgraph.assert_no_recompiles(model,
[((x,), {}), ((y,), {})])`` are ``fullgraph.testing``'s functions. Nothing here imports torch:
that happens when a test calls one of them.
"""

from __future__ import annotations

import pytest


class Guard:
    """The ``fullgraph`` fixture's value."""

    def assert_no_graph_breaks(self, fn, *args, **kwargs):
        """See ``fullgraph.testing.assert_no_graph_breaks``."""
        __tracebackhide__ = True
        from fullgraph.testing import assert_no_graph_breaks

        return assert_no_graph_breaks(fn, *args, **kwargs)

    def assert_no_recompiles(self, fn, input_sets, **options):
        """See ``fullgraph.testing.assert_no_recompiles``."""
        __tracebackhide__ = True
        from fullgraph.testing import assert_no_recompiles

        return assert_no_recompiles(fn, input_sets, **options)


@pytest.fixture
def fullgraph() -> Guard:
    """Assertions that a model compiles without graph breaks or recompilations."""
    return Guard()
