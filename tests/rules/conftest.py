"""Fixtures for rule tests."""

import pytest
from fullgraph.engine import analyze
from rule_snippets import module_source


@pytest.fixture
def findings():
    """findings(body) -> findings of the snippet placed in M.forward(self, x, mask=None, use_cache=None)."""
    return lambda body, **kw: analyze(module_source(body), "m.py", **kw)
