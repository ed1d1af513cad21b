"""The pytest plugin, driven by pytester in a fresh pytest process (as a project's CI runs it)."""

import importlib.metadata
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MODELS = '''import torch
from torch import nn


class Breaky(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        if h.sum() > 0:  # the break
            h = h * 2
        return h


class Clean(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).relu()


def route(x):
    return x * 2


def test_breaking(fullgraph):
    fullgraph.assert_no_graph_breaks(Breaky(), torch.ones(2, 4))


def test_clean(fullgraph):
    report = fullgraph.assert_no_graph_breaks(Clean(), torch.ones(2, 4))
    assert report.graphs == [1]


def test_recompiling(fullgraph):
    fullgraph.assert_no_recompiles(route, [((torch.ones(2, 4),), {}), ((torch.ones(5, 4),), {})])
'''


def plugin_args() -> list[str]:
    """``-p fullgraph.pytest_plugin`` unless the installed fullgraph already registers it."""
    installed = any(e.value == "fullgraph.pytest_plugin" for e in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "fullgraph.pytest_plugin"]


def test_entry_point_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["pytest11"] == {"fullgraph": "fullgraph.pytest_plugin"}


def test_plugin_does_not_import_torch_until_used(pytester):
    pytester.makepyfile(test_quiet='''
import sys


def test_no_torch(fullgraph):
    assert "torch" not in sys.modules
''')
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


@pytest.mark.torch
def test_breaking_clean_and_recompiling_models(pytester):
    pytester.makepyfile(test_models=MODELS)
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "--show-capture=no")
    result.assert_outcomes(passed=1, failed=2)
    lines = MODELS.splitlines()
    branch = next(i for i, ln in enumerate(lines, 1) if "# the break" in ln)
    route = next(i for i, ln in enumerate(lines, 1) if ln.startswith("def route"))
    result.stdout.fnmatch_lines([
        "*AssertionError: 1 graph break in Breaky.forward (? graph*):",
        f"*test_models.py:{branch}: Data-dependent branching (GB0170): Detected data-dependent branching*",
    ])
    result.stdout.fnmatch_lines([
        "*AssertionError: 1 recompilation of route over 2 input sets:",
        f"*test_models.py:{route}: route recompiled on input set 2: guard failed: "
        "tensor 'x' size mismatch at index 0. expected 2, actual 5",
    ])
