"""A deferral replayed by a module's hooks, run for real wherever the fixed module may run: eagerly,
compiled on its own, with its `forward` compiled alone, inside another module's compiled graph,
under `torch.export` (strict and not), saved and loaded, and when `forward` raises. Outputs and
printed/logged/warned text match the original's every time; where nothing replays, the call is made
in place (and still breaks, as before)."""

from __future__ import annotations

import copy
import io
import sys

import pytest

from fix_pairs import ROOT as ROOT_FIXES
from fix_pairs import expected_path
from test_fixes_dynamo import GraphCounter, captured, examples, load, same

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

HOOKED = sorted(p for p in (ROOT_FIXES / "defer").glob("*.in.py") if "@replay_deferred\nclass " in expected_path(p).read_text())


def pair(path):
    """The original and the fixed module, importable by name (as saving a module and Dynamo's
    export need)."""
    stem = f"ctx_{path.name[:-6]}"
    modules = load(path, stem + "_in"), load(expected_path(path), stem + "_out")
    for module in modules:
        sys.modules[module.__name__] = module
    return modules


def settled(module) -> bool:
    """Nothing left queued, no call counted as running."""
    return not module._fullgraph_deferred and not any(module._fullgraph_replaying.values())


class Outer(torch.nn.Module):
    """A network holding the fixed module (not decorated itself)."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, *args, **kwargs):
        return self.inner(*args, **kwargs)


def run(fn, args, kwargs):
    torch._dynamo.reset()
    every_time = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # torch's warn-once warnings, every time: the original runs first
    try:
        with captured() as text:
            out = fn(*args, **kwargs)
    finally:
        torch.set_warn_always(every_time)
    return out, text


def test_the_fixture_set_is_not_empty():
    assert len(HOOKED) >= 8


@pytest.mark.parametrize("path", HOOKED, ids=[p.name[:-6] for p in HOOKED])
@pytest.mark.parametrize("how", ["eager", "module", "forward alone", "inside another module", "saved and loaded"])
def test_same_outputs_and_text_wherever_it_runs(path, how):
    original, fixed = pair(path)
    for (m0, args0, kwargs0), (m1, args1, kwargs1) in zip(examples(original), examples(fixed)):
        want, text0 = run(m0, args0, kwargs0)
        counter = GraphCounter()
        if how == "eager":
            fn = m1
        elif how == "module":
            fn = torch.compile(m1, backend=counter, fullgraph=True)
        elif how == "forward alone":  # no hooks run: the call is made in place, breaking as the original did
            fn = torch.compile(m1.forward, backend=counter)
        elif how == "inside another module":  # Dynamo ignores the inner module's hooks there
            fn = torch.compile(Outer(m1), backend=counter)
        else:
            buffer = io.BytesIO()
            torch.save(copy.deepcopy(m1), buffer)
            buffer.seek(0)
            fn = torch.compile(torch.load(buffer, weights_only=False), backend=counter, fullgraph=True)
        got, text1 = run(fn, args1, kwargs1)
        assert same(got, want)
        assert text1 == text0
        assert settled(fixed)


@pytest.mark.parametrize("path", HOOKED, ids=[p.name[:-6] for p in HOOKED])
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "non-strict"])
def test_torch_export_takes_the_fixed_module_as_it_takes_the_original(path, strict):
    original, fixed = pair(path)
    for (m0, args0, kwargs0), (m1, args1, kwargs1) in zip(examples(original), examples(fixed)):
        torch._dynamo.reset()
        outcome = []
        for module, args, kwargs in ((m0, args0, kwargs0), (m1, args1, kwargs1)):
            try:
                with captured() as text:
                    program = torch.export.export(module, args, kwargs, strict=strict)
                outcome.append((program.module()(*args, **kwargs), "".join(text).count("\n")))
            except Exception as exc:  # noqa: BLE001 - the original's failure is the expectation
                outcome.append((type(exc).__name__, None))
        (want, lines0), (got, lines1) = outcome
        assert type(got) is type(want)
        if isinstance(want, torch.Tensor):
            assert same(got, want) and lines1 == lines0  # what export prints while tracing (fake values)
        assert settled(fixed)


def test_a_forward_that_raises_still_replays_what_it_queued(tmp_path):
    path = tmp_path / "raises.py"
    source = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n"
              "        print('seen', x.sum())\n        if x.shape[0] > 2:\n            raise ValueError('too long')\n"
              "        return x * 2\n")
    from fullgraph.fixes import fix_all

    path.write_text(fix_all(source, str(path)).source)
    assert "_fullgraph_defer('M'," in path.read_text()
    fixed = load(path, "ctx_raises")
    compiled = torch.compile(fixed.M(), backend="eager")
    torch._dynamo.reset()
    with captured() as text, pytest.raises(ValueError, match="too long"):
        compiled(torch.ones(3))
    assert text[0] == "seen tensor(3.)\n"
    assert settled(fixed)
    with captured() as text:
        compiled(torch.ones(2))
    assert text[0] == "seen tensor(2.)\n"


def test_a_function_entry_replays_from_its_wrapper(tmp_path):
    """The unsafe form, for a compiled function: one graph, the same text, after each call."""
    from fullgraph.fixes import fix_all

    source = ("import torch\n\n\ndef note(x):\n    print('total', x.sum())\n    return x + 1\n\n\n"
              "@torch.compile(backend='eager', fullgraph=True)\ndef step(x):\n    return note(x) * 2\n")
    path = tmp_path / "function_entry.py"
    path.write_text(fix_all(source, str(path), unsafe=True).source)
    assert "@replay_deferred\n@torch.compile" in path.read_text()
    fixed = load(path, "ctx_function_entry")
    torch._dynamo.reset()
    for scale in (1.0, 2.0):
        got, text = run(fixed.step, (torch.ones(3) * scale,), {})
        assert torch.equal(got, (torch.ones(3) * scale + 1) * 2)
        assert text[0] == f"total {torch.tensor(3 * scale)!s}\n"
        assert settled(fixed)
