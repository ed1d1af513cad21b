"""Findings name the trace-time conditions they sit under; `assume` drops impossible ones."""

import textwrap

import pytest
from fullgraph.config import Config
from fullgraph.engine import analyze

SRC = """
import torch
from torch import nn
class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self._debug = False
        self.verbose = False
        self.layerdrop = config.layerdrop
    def set_verbose(self):
        self.verbose = True
    def forward(self, hidden_states, mask=None):
        if hidden_states.dtype == torch.float16 and not torch.isfinite(hidden_states).all():
            hidden_states = hidden_states.clamp(-1, 1)
        if self.training:
            if torch.rand([]) < self.layerdrop:
                return hidden_states
        if mask is None:
            print("no mask")
        if self._debug:
            print(hidden_states.sum().item())
        if self.verbose:
            print("verbose")
        hidden_states = hidden_states * 2
        return hidden_states
"""


def found(config=None):
    return {f.line: f.message for f in analyze(textwrap.dedent(SRC), "m.py", config or Config())}


def test_conditions_are_named():
    messages = found()
    assert "(when `hidden_states` is float16)" in messages[13]
    assert "(in training mode only)" in messages[16]
    assert "(when `mask` is None)" in messages[19]
    assert "(when `self.verbose`)" in messages[23]
    assert 21 not in messages  # `self._debug` is False for every instance


@pytest.mark.parametrize("assume, gone", [
    ({"training": False}, {16}),
    ({"dtype": "float32"}, {13}),
    ({"dtype": "float16", "training": True}, set()),
])
def test_assume_drops_what_cannot_happen(assume, gone):
    everything = set(found())
    assert everything - set(found(Config().merged({"assume": assume}))) == gone


def test_assume_is_checked():
    with pytest.raises(ValueError):
        Config().merged({"assume": {"dtype": "int8"}})
    with pytest.raises(ValueError):
        Config().merged({"assume": {"eval": True}})


LAYERDROP = """
import torch
from torch import nn
class Stack(nn.Module):
    def forward(self, hidden_states):
        skip = False
        if self.training and self.layerdrop > 0.0:
            skip = torch.rand([]) < self.layerdrop
        if skip:
            return hidden_states
        noisy = hidden_states
        if self.training:
            noisy = hidden_states + 1
        if noisy.sum() > 0:
            return noisy
        return hidden_states
"""


def test_a_value_that_becomes_a_tensor_under_a_condition_carries_it():
    """`skip` is a Python bool unless training with layerdrop: the break at `if skip:` happens only
    then. `noisy` was a tensor before its conditional rebinding: its test breaks always."""
    messages = {f.line: f.message for f in analyze(textwrap.dedent(LAYERDROP), "m.py")}
    assert "(in training mode only, when `self.layerdrop > 0.0`)" in messages[9]
    assert "training" not in messages[14]
    dropped = {f.line for f in analyze(textwrap.dedent(LAYERDROP), "m.py", Config().merged({"assume": {"training": False}}))}
    assert dropped == {14}


QUANTIZER = """
import torch
from torch import nn
class Quantizer(nn.Module):
    def __init__(self, config):
        super().__init__()
        n_codebooks = config.n_codebooks
        self.n_codebooks = n_codebooks
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n_codebooks)])
    def forward(self, hidden, n_quantizers: int | None = None):
        n_quantizers = n_quantizers if n_quantizers is not None else self.n_codebooks
        if self.training:
            n_quantizers = torch.ones((hidden.shape[0],)) * self.n_codebooks
        for i, layer in enumerate(self.layers):
            if self.training is False and i >= n_quantizers:
                break
            if not self.training and i >= n_quantizers:
                break
            hidden = layer(hidden)
        return hidden
"""


def test_a_tensor_only_in_training_tested_only_in_eval_never_breaks():
    """`n_quantizers` is a tensor in training mode only, and the tests read it in eval mode only:
    no configuration breaks there."""
    assert analyze(textwrap.dedent(QUANTIZER), "q.py") == []


def test_an_early_return_guards_the_rest_of_its_block():
    """`if not self.training: return x` leaves the rest to training (TabNet-style, probed: the eval
    module compiles in one graph); a `raise` guard checks inputs and names nothing; the guard ends
    with its block."""
    source = textwrap.dedent("""
        import torch
        from torch import nn
        class T(nn.Module):
            def forward(self, x, mask=None):
                if not self.training:
                    return x
                if x.sum() > 0:
                    x = x * 2
                for step in range(2):
                    if mask is None:
                        continue
                    print(x.sum().item())
                print(x)
                if x.dim() != 2:
                    raise ValueError("2-d")
                return x.tolist()
    """)
    messages = {f.line: f.message for f in analyze(source, "m.py")}
    assert messages[8].endswith("(in training mode only)")
    assert messages[13].endswith("(in training mode only, when `mask` is not None) (inside a loop: Dynamo skips the "
                                 "whole function)")
    assert messages[14].endswith("(in training mode only)")
    assert messages[17].endswith("(in training mode only)")
    assert not any(f.line > 7 for f in analyze(source, "m.py", Config(assume={"training": False})))


def test_a_helper_called_only_in_training_inherits_the_mode():
    """`if self.training: x = helper(x)`: the helper's break happens in training only (probed: the
    eval module compiles in one graph); a second call outside the test makes the mode unknown."""
    source = textwrap.dedent("""
        import torch
        from torch import nn
        def helper(x):
            if x.sum() > 0:
                x = x * 2
            return x
        class A(nn.Module):
            def forward(self, x):
                if self.training:
                    x = helper(x)
                return x
    """)
    (found,) = analyze(source, "m.py")
    assert found.line == 5 and found.message.endswith("(in training mode only)")
    assert analyze(source, "m.py", Config(assume={"training": False})) == []
    both = source.replace("        return x\n", "        return helper(x)\n")
    assert [f.message.endswith("(in training mode only)") for f in analyze(both, "m.py")] == [False]


@pytest.mark.parametrize("passed, mode", [("self.training", "in training mode only"),
                                          ("not self.training", "in eval mode only")])
def test_a_flag_every_call_sets_to_the_mode_names_the_mode(passed, mode):
    """`self.f(x, record_rng=self.training)` then `if record_rng: self.record()` in the submodule:
    the break happens in training only (performer/reformer reversible blocks; probed: eval 0 breaks,
    train 1), directly under the flag and in a helper called under it."""
    source = textwrap.dedent(f"""
        import torch
        from torch import nn
        class Det(nn.Module):
            def record(self):
                self.state = torch.get_rng_state()
            def forward(self, x, record_rng=False):
                if record_rng:
                    self.record()
                    print("recorded")
                return x * 2
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.f = Det()
            def forward(self, x):
                return self.f(x, record_rng={passed}) + 1
    """)
    found = analyze(source, "m.py")
    assert [(f.line, f.message.endswith(f"({mode})")) for f in found] == [(6, True), (10, True)]
    assume = {"training": mode == "in eval mode only"}
    assert analyze(source, "m.py", Config(assume=assume)) == []
    other = source + ("class Always(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                      "        self.f = Det()\n    def forward(self, x):\n        return self.f(x, record_rng=True)\n")
    assert not any(f.message.endswith(f"({mode})") for f in analyze(other, "m.py"))


DEVICES = """
import torch
from torch import nn
class Norm(nn.Module):
    def forward(self, x):
        if x.device == torch.device("cpu"):
            if not torch.all((x >= 0) * (x <= 1)):
                x = x.sigmoid()
        if x.is_cuda and x.sum() > 0:
            x = x - 1
        if x.device.type != "mps":
            x = x[x > 0]
        return x
"""


def test_device_tests_are_named_and_assumable():
    """A test of a tensor's device (`x.device == torch.device("cpu")`, `x.is_cuda`, `x.device.type`) is
    a trace-time condition the user's inputs decide, named like a dtype; `assume.device` drops the
    findings that cannot happen on the project's device."""
    messages = {f.line: f.message for f in analyze(textwrap.dedent(DEVICES), "m.py")}
    assert messages[7].endswith("(when `x` is on cpu)")
    assert messages[9].endswith("(when `x` is on cuda)")
    assert messages[12].endswith("(when `x` is not on mps)")
    on_cuda = {f.line for f in analyze(textwrap.dedent(DEVICES), "m.py", Config().merged({"assume": {"device": "cuda"}}))}
    assert on_cuda == {9, 12}
    with pytest.raises(ValueError):
        Config().merged({"assume": {"device": 3}})


def test_a_test_every_call_decides_as_it_holds_is_no_condition():
    """`if not normalization: return x` before the finding, with every compiled call passing
    `normalization="sigmoid"`: the finding is not said to sit under it."""
    src = textwrap.dedent("""
        import torch
        from torch import nn
        def normalize(x, normalization=None):
            if not normalization:
                return x
            if not torch.all(x >= 0):
                x = x.sigmoid()
            return x
        class M(nn.Module):
            def forward(self, x):
                return normalize(x, normalization="sigmoid")
        """)
    [finding] = analyze(src, "m.py")
    assert finding.line == 7 and "unless" not in finding.message and "when" not in finding.message
    [finding] = analyze(src.replace('normalization="sigmoid"', "normalization=self.kind"), "m.py")
    assert finding.message.endswith("(when `normalization`)")


def test_the_python_part_of_a_tensor_test_is_a_condition_every_call_may_decide():
    """`if zero_division == "warn" and torch.any(denom == 0):` (torchmetrics' `_safe_divide`): the body
    runs only where `zero_division == "warn"`, which Dynamo decides while tracing (an `and` stops at
    it). Every compiled call leaving `zero_division` at 0.0 rules out the test's break and the body's
    print; a call passing "warn" keeps both, named under that condition."""
    src = textwrap.dedent("""
        import torch
        from torch import nn
        def safe_divide(num, denom, zero_division=0.0):
            if zero_division == "warn" and torch.any(denom == 0):
                print("zero division")
            return torch.where(denom != 0, num / denom, torch.zeros_like(num))
        class M(nn.Module):
            def forward(self, a, b):
                return safe_divide(a, b) + safe_divide(b, a, zero_division=0.0)
        """)
    assert analyze(src, "m.py") == []
    warned = src + "class W(nn.Module):\n    def forward(self, a, b):\n        return safe_divide(a, b, zero_division='warn')\n"
    assert [(f.code, f.message.endswith("(when `zero_division == 'warn'`)")) for f in analyze(warned, "m.py")] == [
        ("FG101", True), ("FG301", True)]


def test_a_callers_parameter_passed_on_carries_the_literal_its_own_callers_give():
    """`ratio(a, b)` leaves `zero_division` at 0.0 and passes it on (`safe_divide(..., zero_division=
    zero_division)`): `safe_divide`'s `zero_division == "warn"` is decided there too; a caller that
    passes "warn" to `ratio` keeps both findings."""
    src = textwrap.dedent("""
        import torch
        from torch import nn
        def safe_divide(num, denom, zero_division=0.0):
            if zero_division == "warn" and torch.any(denom == 0):
                print("zero division")
            return torch.where(denom != 0, num / denom, torch.zeros_like(num))
        def ratio(num, denom, zero_division=0.0):
            return safe_divide(num, denom, zero_division=zero_division)
        class M(nn.Module):
            def forward(self, a, b):
                return ratio(a, b) + ratio(b, a)
        """)
    assert analyze(src, "m.py") == []
    warned = src.replace("ratio(b, a)", 'ratio(b, a, zero_division="warn")')
    assert [f.code for f in analyze(warned, "m.py")] == ["FG101", "FG301"]


def test_a_message_names_the_innermost_conditions_and_counts_the_rest():
    """Two conditions are named, the innermost; the outer ones left out are counted, so the
    message does not read as if the two were all it takes."""
    src = textwrap.dedent("""
        import torch
        from torch import nn
        class Block(nn.Module):
            def forward(self, x, mask=None, bias=None, scale=None):
                if self.training:
                    if mask is not None:
                        if bias is None:
                            if scale is not None:
                                print(x.sum().item())
                return x
        """)
    [found] = [f for f in analyze(src) if f.code == "FG201"]
    assert found.message.endswith("(when `bias` is None, when `scale` is not None; 2 more conditions around it)")
