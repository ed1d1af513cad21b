"""Every fixture's ``fullgraph_example()`` runs eagerly on CPU, and every line where Dynamo
really breaks on those inputs is an expected finding, a suppressed line, or a documented
``dynamo-only`` line (a break no rule covers)."""

from __future__ import annotations

import pytest

from dynamo_capture import eager, examples_of, load_module, run_example  # imports torch
from fixture_files import fixture_id, fixture_sources, has_factory, read_expected, suppressed_lines

pytestmark = pytest.mark.torch

MODELS = [pytest.param(p, id=fixture_id(p)) for p in fixture_sources() if has_factory(p)]


@pytest.mark.parametrize("path", MODELS)
def test_factory_runs_eagerly(path):
    calls = examples_of(load_module(path))
    assert calls, "fullgraph_example() returned no call"
    for target, args, kwargs in calls:
        assert eager(target)(*args, **kwargs) is not None


@pytest.mark.parametrize("path", MODELS)
def test_dynamo_breaks_are_expected(path):
    expected = read_expected(path)
    allowed = {line for line, _, _ in expected.findings} | suppressed_lines(path) | expected.dynamo_only
    lines = {b.line for b in run_example(path).breaks if b.line is not None}
    assert lines <= allowed, f"Dynamo breaks at lines {sorted(lines - allowed)} that the .expected file does not cover"
    assert expected.dynamo_only <= lines, f"dynamo-only lines {sorted(expected.dynamo_only - lines)} do not break"
