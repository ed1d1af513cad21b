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
from test_fixes_dynamo import GraphCounter, captured, examples, load, same, tagless

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
        assert (text1 if how == "eager" else tagless(text1)) == (text0 if how == "eager" else tagless(text0))
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


def test_the_replay_comes_before_the_modules_own_forward_hooks(tmp_path):
    """A hook the module registers in `__init__` runs after `forward`, and so after what `forward` printed:
    the replaying hook goes first."""
    path = tmp_path / "hooked.py"
    source = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n"
              "        super().__init__()\n        self.register_forward_hook(self.done)\n\n"
              "    def done(self, module, args, output):\n        print('forward done')\n\n"
              "    def forward(self, x):\n        print('seen', x.sum())\n        return (x * 2).relu()\n")
    from fullgraph.fixes import fix_all

    path.write_text(fix_all(source, str(path)).source)
    assert "_fullgraph_defer('M'," in path.read_text()
    fixed = load(path, "ctx_hooked")
    torch._dynamo.reset()
    with captured() as text:
        torch.compile(fixed.M(), backend="eager")(torch.ones(3))
    assert "".join(text) == "seen tensor(3.)\nforward done\n"
    assert settled(fixed)


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


NESTED = '''import logging

import torch
from torch import nn

logger = logging.getLogger("nested_order")


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def _pad(self, x):
        if x.shape[1] % 4:
            logger.warning("padded %d rows (norm %.4f)", 4 - x.shape[1] % 4, x.norm())
            x = nn.functional.pad(x, (0, 0, 0, 4 - x.shape[1] % 4))
        return x

    def forward(self, x):
        return self.proj(self._pad(x))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, y, memory):
        out = self.proj(y) + memory.mean(dim=1, keepdim=True)
        {decoder_log}
        return out


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    def forward(self, x, y):
        memory = self.encoder(x)
        {between}
        return self.decoder(y, memory)


class ModelForTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Model()
        self.head = nn.Linear(4, 2)

    def forward(self, x, y):
        return self.head(self.model(x, y))
'''


LOG = 'logger.warning("decoder mean %.4f", out.mean())'
STAYS = 'with torch.no_grad():\n            logger.warning("decoder mean %.4f", out.mean())'  # not deferred


@pytest.mark.parametrize("between", ["pass", "torch._dynamo.graph_break()"], ids=["one graph", "a break between"])
@pytest.mark.parametrize("compiled", ["ModelForTask", "Model", "Model inside ModelForTask"])
@pytest.mark.parametrize("decoder_log", [LOG, STAYS], ids=["deferred", "stays"])
def test_calls_deferred_in_two_submodules_replay_in_their_order(tmp_path, between, compiled, decoder_log):
    """Fix-all defers the encoder's warning only once the decoder's (which runs after it) is deferred
    too; whichever module of the file Dynamo compiles, with or without a break between them, the log
    is the original's, in order, and nothing is left queued. Where the decoder's stays (inside a
    `with`), so does the encoder's."""
    from fullgraph.fixes import fix_all

    source = NESTED.replace("{between}", between).replace("{decoder_log}", decoder_log)
    name = f"ctx_nested_{len(between)}_{compiled.replace(' ', '_')}_{len(decoder_log)}"
    (tmp_path / "original.py").write_text(source)
    fixed_source = fix_all(source, str(tmp_path / "fixed.py")).source
    assert fixed_source.count("_fullgraph_defer((") == (2 if decoder_log == LOG else 0)
    (tmp_path / "fixed.py").write_text(fixed_source)
    original, fixed = load(tmp_path / "original.py", name + "_in"), load(tmp_path / "fixed.py", name + "_out")
    torch.manual_seed(0)
    x, y = torch.randn(2, 3, 4), torch.randn(2, 2, 4)
    for module in (original, fixed):
        torch.manual_seed(1)
        outer = module.ModelForTask()
        target = outer.model if compiled == "Model" else outer
        if compiled == "Model inside ModelForTask":
            outer.model = torch.compile(outer.model, backend="eager")
        module.run = (target if compiled.endswith("ModelForTask") and compiled != "ModelForTask"
                      else torch.compile(target, backend="eager", fullgraph=module is fixed and between == "pass" and decoder_log == LOG))
    want, text0 = run(original.run, (x, y), {})
    got, text1 = run(fixed.run, (x, y), {})
    assert same(got, want)
    assert [line for line in text1 if line.startswith("log")] == [line for line in text0 if line.startswith("log")]
    assert len([line for line in text0 if line.startswith("log")]) == 2
    assert decoder_log != LOG or settled(fixed)
