"""``decline_reason``: the reasons a finding's fix is blocked, straight from the engine."""

from __future__ import annotations

import textwrap

import pytest
from fullgraph.config import Config
from fullgraph.engine import analyze
from fullgraph.fixes import fix_all

HEAD = "import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer('buf', torch.zeros(3))\n\n    def forward(self, x: torch.Tensor, items=None):\n"


def blocked(body: str, code: str) -> str | None:
    source = HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)
    found = [f for f in analyze(source, "m.py") if f.code == code]
    assert found, f"no {code} finding"
    return found[0].fix_blocked


@pytest.mark.parametrize("body, reason", [
    ("if x.sum() > 0:\n    y = self.proj(x)\nelse:\n    y = x\nreturn y\n", "calls `self.proj`, which is not known to be pure; it would run on both sides"),
    ("y = x\nif x.sum() > 0:\n    print(x)\n    y = x * 2\nreturn y\n", "calls `print`"),
    ("if x.sum() > 0:\n    x.add_(1)\nreturn x\n", "calls `x.add_`"),
    ("y = x\nif x.sum() > 0:\n    y[0] = 1\nreturn y\n", "mutates `y[0]` in place"),
    ("y = x\nif x.sum() > 0:\n    y += 1\nreturn y\n", "updates `y` in place"),
    ("if x.sum() > 0:\n    y = None\nelse:\n    y = x\nreturn y\n", "None"),
    ("if x.sum() > 0:\n    y = [x]\nelse:\n    y = [x, x]\nreturn y\n", "not a tensor"),
    ("i = x.argmax()\nif x.sum() > 0:\n    y = x[i]\nelse:\n    y = x[0]\nreturn y\n", "data-dependent index"),
    ("if x.sum() > 0:\n    return x\ny = x * 2\nreturn y\n", "falls through into more code"),
    ("if x.sum() > 0:\n    y = x\nreturn x\n", "`y` is only assigned on some paths"),
    ("if x.sum() > 0:\n    self.other = x\nreturn x\n", "not a local name or registered buffer"),
    ("a, b = x, x\nif x.sum() > 0:\n    a, b = b, a\nreturn a - b\n", "assigns several names from each other"),
    ("a = b = x\nif x.sum() > 0:\n    a, b = self.split(x)\nreturn a - b\n", "calls `self.split`"),
    ("a, b = x, x\nif x.sum() > 0:\n    a, self.other = x, x\nreturn a\n", "`self.other`, which is not a local name"),
])
def test_predication_declines_with_reason(body, reason):
    assert reason in (blocked(body, "FG101") or "")


@pytest.mark.parametrize("body, reason", [
    # `x.float()` is `x` itself for a float32 `x`: the original's `h.add_` changes the caller's tensor
    ("h = x.float()\nif h.abs().max() > 10:\n    h = h * 0.5\nh.add_(1.0)\nreturn h\n", "changed in place after this"),
    ("h = x[0]\nfor _ in range(2):\n    if h.sum() > 0:\n        h = h.clamp(max=1)\n    h.mul_(2)\nreturn x\n",
     "changed in place after this"),
    ("h = x.float()\nh.add_(1.0)\nif h.abs().max() > 10:\n    h = h * 0.5\nreturn h\n", None),  # changed before only
    ("h = x.float()\nif h.abs().max() > 10:\n    h = h * 0.5\nout = (h,)\nout += (x,)\nreturn out\n", None),  # a tuple's +=
    ("counts = x.long()\nif counts.min() < 1:\n    counts = counts.clamp(min=0.5)\nreturn counts\n", "may differ in dtype"),
    ("mask = x > 0\nif mask.any():\n    mask = mask * 2\nreturn mask\n", "may differ in dtype"),
])
def test_predication_keeps_what_later_code_and_dtypes_see(body, reason):
    found = blocked(body, "FG101")
    assert found is None if reason is None else reason in (found or "")


@pytest.mark.parametrize("body, reason", [
    ("t = x.sum()\nt = t or self.buf\nreturn x / t\n", "`t` is used as a value at line"),  # `or` picks an operand
    ("skip = not torch.isfinite(x).all()\nw = 1.0 - skip\nreturn x * w\n", "`skip` is used as a value"),
    ("return x, not torch.isfinite(x).all()\n", "its result is used as a value"),
])
def test_a_boolean_operator_whose_value_is_used_is_not_lowered(body, reason):
    assert reason in (blocked(body, "FG105") or "")


def test_a_flag_tested_through_arithmetic_is_not_kept_as_a_tensor():
    body = "m = x.mean().item()\nif m * 10 > 1.0:\n    x = x * 0.5\nreturn x\n"
    assert "computes `m * 10` from `m`" in (blocked(body, "FG201") or "")




def test_predication_takes_bound_names_and_leaves_buffers_to_unsafe_fixes():
    """A buffer updated with `copy_` may be one autograd still needs (probed: "modified by an
    inplace operation" in backward), and a branch reading the module reaches parameters the other
    side may not: those predications are unsafe fixes."""
    assert blocked("y = x\nif x.sum() > 0:\n    y = x * 2\nreturn y\n", "FG101") is None
    assert "the branches use `self.buf`" in blocked("if x.sum() > 0:\n    self.buf = self.buf * 2\nreturn x\n", "FG101")
    assert "the branches use `self.buf`" in blocked(
        "a = b = x\nif x.sum() > 0:\n    a, (b, self.buf) = x * 2, (x + 1, self.buf + 1)\nreturn a\n", "FG101")


@pytest.mark.parametrize("body", [
    "n = x.norm()\nif n > 0:\n    y = x / n\nelse:\n    y = x\nreturn y\n",
    "y = x.float()\nif y.min() > 0:\n    return y.log()\nreturn y\n",
    "s = x.sum()\nreturn x.rsqrt() if s > 0 else x\n",
])
def test_predication_declines_a_side_whose_gradient_may_be_infinite(body):
    """`torch.where` computes both sides: `x / n` at `n == 0` gives inf there, and its gradient
    0 * inf = NaN (probed on a zero input: original gradient 1, fixed NaN)."""
    code = "FG103" if " if " in body.splitlines()[-1] else "FG101"
    assert "and its gradient there would be NaN" in blocked(body, code)


@pytest.mark.parametrize("body, reason", [
    ("if x.sum() > 0:\n    return x.sum()\nreturn x\n", "may differ in shape"),  # where() would broadcast the sum
    ("y = x\nif x.sum() > 0:\n    y = x.sum(0)\nreturn y\n", "may not have the shape"),
    ("if x.sum() > 0:\n    self.buf = x\nreturn x\n", "may differ in shape"),  # the buffer's own shape is not known
    ("y = x\nif x.sum() > 0:\n    y = x / 2\nreturn y\n", "may differ in dtype"),  # an integer `x` stays one
    ("y = x\nif x.mean() > 0:\n    y = x / 2\nreturn y\n", None),  # `mean` raises on integers: `x` is a float
    ("z = x if x.sum() > 0 else x[:1]\nreturn z\n", "may not have the shape"),
    ("if self.buf[:1].item() > 0:\n    x = x * 2\nreturn x\n", "not known to be 0-d"),  # (1,) broadcasts a 0-d x
    ("if (x > 0).any():\n    x = x * 2\nreturn x\n", None),
])
def test_predication_keeps_shapes_and_dtypes(body, reason):
    """`torch.where` broadcasts and promotes: merged values must have one shape and dtype."""
    found = blocked(body, "FG103" if " if " in body.split("\n")[0] else "FG201" if ".item()" in body else "FG101")
    assert (found is None) if reason is None else (reason in (found or "")), found


def test_keep_tensor_keeps_values_and_shapes():
    assert "`int()` truncates" in blocked("n = int(x.mean())\nreturn x * n\n", "FG204")
    count = blocked("n = int((x > 0).sum())\nreturn x * n\n", "FG204")  # a count: integers, not truncated
    assert "truncates" not in count and "type promotion" in count  # but the kept tensor is promoted with `x`
    assert "not known to be 0-d" in blocked("return x * self.buf[:1].item()\n", "FG201")


def test_defer_declines_when_result_is_used():
    assert "result is used" in blocked("n = print(x)\nreturn x\n", "FG301")


def test_defer_declines_in_try_block():
    assert "`try` block" in blocked("try:\n    print(x)\nexcept ValueError:\n    pass\nreturn x\n", "FG301")


@pytest.mark.parametrize("prelude", ["_fullgraph_deferred = []  # the user's own list\n",
                                     "def replay_deferred(buffer):\n    return list(buffer)\n",
                                     "from collections import deque as _fullgraph_defer\n"])
def test_defer_declines_where_the_file_binds_a_name_its_code_defines(prelude):
    source = prelude + HEAD + "        print(x.sum())\n        return x * 2\n"
    [finding] = [f for f in analyze(source, "m.py") if f.code == "FG301"]
    assert "the file already binds" in finding.fix_blocked
    assert fix_all(source, "m.py").source == source


def test_a_second_deferral_reuses_the_definitions_the_first_added():
    source = HEAD + "        print(x.sum())\n        y = x * 2\n        print(y.mean())\n        return y * 3\n"
    once = fix_all(source, "m.py").source
    assert once != source and once.count("def replay_deferred") == 1
    assert fix_all(once, "m.py").source.count("def replay_deferred") == 1


OUTER = "\n\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.m = M()\n\n" \
        "    def forward(self, x):\n        y = self.m(x) * 2\n        with torch.no_grad():\n            print(y)\n" \
        "        return y\n"


def test_defer_declines_when_output_that_stays_may_follow_in_a_module_that_replays():
    # Outer makes M, so Outer's hooks replay what M.forward defers; Outer's own print (inside a
    # `with`, so not deferred) runs after M's call and would come before the replay.
    source = HEAD + textwrap.indent("y = x * 2\nprint(y)\nreturn y\n", " " * 8) + OUTER
    found = [f for f in analyze(source, "m.py") if f.code == "FG301"]
    assert [f.line for f in found] == [12, 24]
    assert "`Outer.forward` also print, log, warn or write a stream, and may do so after this call" in found[0].fix_blocked
    assert "inside a `with` block" in found[1].fix_blocked
    assert fix_all(source, "m.py").source == source


def test_trap_declines_from_clause_and_try():
    assert "`from` clause" in blocked("if x.sum() < 0:\n    raise ValueError('bad') from None\nreturn x\n", "FG107")
    body = "try:\n    if x.sum() < 0:\n        raise ValueError('bad')\nexcept ValueError:\n    pass\nreturn x\n"
    assert "inside a `try`" in blocked(body, "FG107")


def test_keep_tensor_declines_python_use():
    assert "Python number" in blocked("n = x.sum().item()\nreturn x.view(-1)[: int(n)]\n", "FG201")
    # two numbers added and returned: a float would become a (float32) tensor (torchkge's accuracy)
    body = "hits = (x > 0).sum().item() + (x < 0).sum().item()\nreturn hits / 7\n"
    assert "outside tensor arithmetic" in blocked(body, "FG201")
    assert "outside tensor arithmetic" in blocked("return x.sum().item() * torch.equal(x, x)\n", "FG201")


def test_deferral_declines_a_captured_value_changed_in_place_that_is_not_a_tensor():
    """A list printed then appended to would print appended at the replay; a tensor is copied."""
    assert "`items` is changed in place" in blocked("items = [1]\nprint(items)\nitems.append(2)\nreturn x\n", "FG301")
    assert blocked("y = x * 2\nprint(y)\ny += 1\nreturn y\n", "FG301") is None


def test_a_counter_is_no_change_in_place():
    """`i += 1` on a name only ever bound to numbers rebinds it: the lambda captured its value (found by probing)."""
    body = "i = 0\nwhile i < 3:\n    x = x * 2\n    print('iter', i, x.sum())\n    i += 1\nreturn x\n"
    assert "changed in place" not in (blocked(body, "FG301") or "")
    assert "changed in place" in blocked(body.replace("i = 0", "i = items or 0"), "FG301")  # maybe a list


@pytest.mark.parametrize("body, reason", [
    ("self.avg = x.mean().item()\nreturn x * self.avg\n", "also used by `M.forward`"),
    ("self.avg = x.mean().item()\nreturn x * getattr(self, 'avg')\n", "also used by `M.forward`"),
    ("try:\n    self.avg = x.mean().item()\nexcept ValueError:\n    pass\nreturn x\n", "inside a `try` block"),
    ("with open('log') as f:\n    self.avg = x.mean().item()\nreturn x\n", "inside a `with` block"),
    ("self.avg = x.mean().item() if x.numel() else 0.0\nreturn x\n", "still run where the store stands"),
])
def test_store_deferral_declines_with_reason(body, reason):
    """A value stored on the module is set only once the call returns: nothing in the class may
    read it before, and the replay runs outside any block but torch's grad modes."""
    assert reason in (blocked(body, "FG201") or "")


def test_store_deferral_reads_computed_attribute_names_by_their_constant_ends():
    """`getattr(self, f"{kind}_reduction")` can't read `avg`, nor a loop over `["n", "m"]`;
    `getattr(self, f"{kind}avg")` and a name with no constant ends may."""
    store = "self.avg = x.mean().item()\n"
    assert blocked(store + "return getattr(self, f'{items}_reduction')(x)\n", "FG201") is None
    assert blocked(store + "return getattr(self, '{}_reduction'.format(items))(x)\n", "FG201") is None
    assert blocked(store + "return getattr(self, 'get_' + items)(x)\n", "FG201") is None
    assert blocked(store + "for a in ['n', 'm']:\n    x = x * getattr(self, a)\nreturn x\n", "FG201") is None
    assert "also used by" in blocked(store + "for a in ['n', 'avg']:\n    x = x * getattr(self, a)\nreturn x\n", "FG201")
    for name in ("f'{items}avg'", "'{}'.format(items)", "items", "'a' + items"):
        assert "also used by `M.forward`" in blocked(store + f"return getattr(self, {name})(x)\n", "FG201"), name


def test_store_deferral_declines_under_a_base_class_it_cannot_read():
    source = textwrap.dedent("""\
        import torch
        from somewhere import Base


        class M(Base):
            def forward(self, x: torch.Tensor):
                self.avg = x.mean().item()
                return x
        """)
    found = [f for f in analyze(source, "m.py") if f.code == "FG201"]
    assert "`Base` (a base class whose source was not found)" in found[0].fix_blocked


def test_store_deferral_sees_a_base_class_in_another_file_that_reads_the_attribute(tmp_path):
    """The inherited `forward` (another file) reads the statistic the dispatched method stores:
    deferred, it would read the old value, so the store stays."""
    from fullgraph.analysis.project import ProjectIndex
    from fullgraph.engine import analyze_document

    base = textwrap.dedent("""\
        import torch
        from torch import nn


        class Base(nn.Module):
            def mine(self, x):
                raise NotImplementedError

            def forward(self, x):
                out = self.mine(x)
                return out * self.{name}
        """)
    miner = textwrap.dedent("""\
        import torch

        from base import Base


        class Miner(Base):
            def mine(self, x: torch.Tensor):
                self.avg = x.mean().item()
                return x + 1
        """)
    (tmp_path / "miner.py").write_text(miner)
    for name, reason in (("avg", "also used by `Base.forward`"), ("scale", None)):
        (tmp_path / "base.py").write_text(base.replace("{name}", name))
        project = ProjectIndex([str(tmp_path)])
        found = [f for f in analyze_document(miner, str(tmp_path / "miner.py"), project=project).findings
                 if f.code == "FG201"]
        assert found and found[0].data.get("replay_classes") == ["Miner"]
        assert (reason in (found[0].fix_blocked or "")) if reason else found[0].fix_blocked is None, found[0].fix_blocked


# -- Harm cases from real code (issue 14): a rewrite only turns values the engine knows are tensors
# into tensor code, and never leaves a break at another line. Each failed before the engine said
# what it knows.

ALL = Config(assume_compiled="all")


def _harm(source: str, code: str, config: Config | None = None) -> str:
    """The decline reason of the `code` finding, after checking fix-all leaves the source alone."""
    source = textwrap.dedent(source)
    assert fix_all(source, "m.py", config).source == source
    found = [f for f in analyze(source, "m.py", config) if f.code == code]
    assert found and found[0].fix_blocked, f"no declined {code}"
    return found[0].fix_blocked


def test_no_trap_lowering_of_a_python_condition():
    # transformers' `if not lines[0].startswith("__all__"): raise` became a torch._assert_async
    # on a str method's result, and `import transformers` failed.
    # `startswith` is no tensor method, so that test is not taken for a tensor at all; a test
    # that could be one on a guessed parameter is flagged, and its fix declined.
    source = '''
        def check_all(lines):
            if not lines[0].startswith("__all__"):
                raise ValueError("no __all__ line")
            return lines
    '''
    assert fix_all(textwrap.dedent(source), "m.py", ALL).source == textwrap.dedent(source)
    assert [f.code for f in analyze(textwrap.dedent(source), "m.py", ALL)] == []
    guessed = source.replace('lines[0].startswith("__all__")', "lines[0].sum() > 0")
    assert "rests on a guess that `lines` is a tensor" in _harm(guessed, "FG107", ALL)
    # `.any()` only makes the value likely a tensor (a numpy array has it too): no rewrite either
    shared = source.replace('lines[0].startswith("__all__")', "lines[0].any()")
    assert "`lines[0].any()` is not known to be a tensor" in _harm(shared, "FG107", ALL)


def test_no_keep_tensor_on_a_numpy_value():
    # `np.random.rand(1).item()` lost its `.item()`: the numpy value was taken for a tensor.
    source = '''
        import numpy as np
        import torch


        class Noise(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                noise = np.random.rand(1).item()
                return x * noise
    '''
    assert "`np.random.rand(1)` is NumPy code" in _harm(source, "FG201")


def test_no_torch_cond_with_a_python_operand():
    # a torch.cond operand that is a Python int raised RuntimeError.
    source = '''
        import torch


        class Steps(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                n = 3
                if x.sum() > 0:
                    n = n + 1
                    y = x * n
                else:
                    y = x
                return y
    '''
    assert "`n + 1` is not known to be a tensor" in _harm(source, "FG101")


def test_no_predication_of_a_python_flag_its_next_if_reads():
    # the predicated flag became a tensor, so the next `if not to_drop:` broke instead.
    source = '''
        import torch


        class Drop(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                to_drop = False
                if x.sum() > 0:
                    to_drop = True
                if not to_drop:
                    x = x * 2
                return x
    '''
    assert "the value of `to_drop` `True` is not known to be a tensor" in _harm(source, "FG101")


def test_no_deferral_in_a_function_compiled_only_by_assumption():
    # a deferred `warning_once` in a helper analysed as its own entry still broke, at its end.
    source = '''
        import torch
        from transformers.utils import logging

        logger = logging.get_logger(__name__)


        def scale(x: torch.Tensor):
            logger.warning_once("scaling")
            return x * 2
    '''
    assert "compiled only by assumption" in _harm(source, "FG302", ALL)


def test_no_deferral_in_a_helper_of_another_function():
    source = '''
        import torch
        from transformers.utils import logging

        logger = logging.get_logger(__name__)


        def scale(x: torch.Tensor):
            logger.warning_once("scaling")
            return x * 2


        def run(x: torch.Tensor):
            return scale(x) + 1
    '''
    assert "`run` is compiled only by assumption" in _harm(source, "FG302", ALL)


def test_only_calls_that_always_run_prove_a_tensor():
    """`torch.isinf(h)` in an `and` test proves `h` is a tensor when the body runs; under an `or`
    or a conditional expression the call may not run, and a method (`h.any()`) proves nothing
    (NumPy arrays have it too)."""
    import ast

    from fullgraph.fixes.known import proven_by_test

    def proven(test):
        return proven_by_test(ast.parse(test, mode="eval").body)

    assert proven("h.dtype == torch.float16 and torch.isinf(h).any()") == {"h"}
    assert proven("torch.isnan(a).any() and not torch.isfinite(b).all()") == {"a", "b"}
    assert proven("flag or torch.isinf(h).any()") == set()
    assert proven("(torch.isinf(h) if flag else h).any()") == set()
    assert proven("h.isinf().any()") == set()


def test_only_a_submodules_output_counts_as_floating():
    """`h / 2` against `h` needs `h` floating: a layer's output is, a method's result (here ids) is not."""
    source = textwrap.dedent("""\
        import torch
        from torch import nn


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(4, 4)

            def ids(self, x):
                return x.argmax(-1)

            def forward(self, x: torch.Tensor):
                h = self.{callee}(x)
                if x.sum() > 0:
                    h = h / 2
                return h
        """)
    layer = [f for f in analyze(source.format(callee="proj"), "m.py") if f.code == "FG101"]
    method = [f for f in analyze(source.format(callee="ids"), "m.py") if f.code == "FG101"]
    assert layer[0].fix_blocked is None
    assert "may differ in dtype" in (method[0].fix_blocked or "")


def test_no_tensor_rewrite_of_numpy_code():
    """Dynamo traces NumPy arrays as tensors, so a branch on one breaks, but torch code in its place
    would change the values' type."""
    source = "import numpy as np\n" + HEAD + textwrap.indent(textwrap.dedent("""\
        low = np.zeros(3)
        if np.any(low > 0):
            x = x * 2
        return x if np.sum(low) > 0 else x + 1
    """), " " * 8)
    found = {f.code: f.fix_blocked or "" for f in analyze(source, "m.py")}
    assert "is NumPy code" in found["FG101"] and "is NumPy code" in found["FG103"]
    assert fix_all(source, "m.py").source == source


def test_a_fix_check_that_fails_blocks_the_fix(monkeypatch, capsys):
    """An internal error while checking a fix leaves the finding, never an unchecked fix."""
    import fullgraph.engine as engine

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "fix_check", broken)
    source = HEAD + textwrap.indent("y = x\nif x.sum() > 0:\n    y = x * 2\nreturn y\n", " " * 8)
    (finding,) = [f for f in analyze(source, "m.py") if f.code == "FG101"]
    assert "internal error" in finding.fix_blocked
    assert fix_all(source, "m.py").source == source
    assert "fix check of FG101" in capsys.readouterr().err


def test_a_name_only_the_else_branch_makes_a_tensor_is_not_lowered():
    """`cutoffs` is a list after the body and a tensor after the `else`: a likely tensor, flagged,
    but `torch.logical_not(max(cutoffs) > 0.5)` would raise on the list, so the check stays."""
    source = textwrap.dedent("""\
        import torch
        from torch import nn


        class Bands(nn.Module):
            def forward(self, x: torch.Tensor, cutoffs=None):
                if cutoffs is None:
                    cutoffs = [0.1, 0.2]
                else:
                    cutoffs = torch.tensor(cutoffs)
                if max(cutoffs) > 0.5:
                    raise ValueError("bad")
                return x
        """)
    [found] = [f for f in analyze(source, "m.py") if f.code == "FG107"]
    assert "not known to be tensors" in found.fix_blocked
    assert fix_all(source, "m.py", unsafe=True).source == source


@pytest.mark.parametrize("body, reason", [
    ("drop = not x.all()\nkeep = [r for r in x if drop]\nreturn keep\n",
     "`drop` is then tested by the comprehension filter at line 12, where the break would move"),
    ("flag = not x.all()\nif flag:\n    self.proj(x)\nreturn x\n",
     "`flag` is then tested by the `if` at line 12, where the break would move (branch calls `self.proj`"),
    ("flag = not x.all()\nassert flag, 'all set'\nreturn x\n", "`flag` is then tested by the `assert` at line 12"),
])
def test_a_negation_whose_truth_is_taken_anyway_is_not_lowered(body, reason):
    """`not t` as `torch.logical_not(t)` would only move the break: its result is still tested."""
    assert reason in (blocked(body, "FG105") or "")


def test_a_negation_whose_test_is_predicated_too_is_lowered():
    source = HEAD + textwrap.indent("flag = not x.all()\nif flag:\n    x = x * 2\nreturn x\n", " " * 8)
    assert [f.fix_blocked for f in analyze(source, "m.py") if f.code == "FG105"] == [None]
    fixed = fix_all(source, "m.py").source
    assert "flag = torch.logical_not(x.all())" in fixed and "torch.where(flag" in fixed


def test_only_stream_writes_of_the_io_rule_are_deferred():
    """FG304's deferral moves a write to sys.stdout/stderr (also one spelled `stderr.write` after
    `from sys import stderr`); other I/O keeps its place, with the reason."""
    def fg304(body: str, head: str = "import sys\n") -> str | None:
        source = head + HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)
        found = [f for f in analyze(source, "m.py") if f.code == "FG304"]
        assert len(found) == 1
        return found[0].fix_blocked

    assert fg304("y = x * 2\nsys.stdout.write('step\\n')\nreturn y + 1\n") is None
    assert fg304("y = x * 2\nstderr.write('step\\n')\nreturn y + 1\n", "from sys import stderr\n") is None
    assert "only a write to `sys.stdout` or `sys.stderr`" in fg304("y = x * 2\nopen('log.txt').close()\nreturn y + 1\n")
    assert "result is used" in fg304("y = x * 2\nn = sys.stdout.write('step')\nreturn y + n\n")


@pytest.mark.parametrize("imports, fixed", [
    ("import os\n\nimport paddle\n", False),  # a module meant to run without torch (ncps' paddle cells)
    ("import os\n\ntry:\n    import torch\nexcept ImportError:\n    torch = None\n", True),
    ("from torch import nn\n", True),
])
def test_no_rewrite_adds_the_first_torch_import(imports, fixed):
    """Every rewrite uses torch: in a file with no module-level torch import none applies, the
    unsafe ones (the print operator, a function entry's deferral) included, and the quick fix
    list holds no rewrite either."""
    from fullgraph.fixes import fixes_for
    from fullgraph.fixes.preconditions import NO_TORCH

    source = imports + "\n\ndef load(x, path):\n    y = x * 2\n    print(\"done\")\n    return y + 1\n"
    result = fix_all(source, "m.py", ALL, unsafe=True)
    assert (result.source != source) == fixed
    (found,) = [f for f in analyze(source, "m.py", ALL) if f.code == "FG301"]
    assert (found.fix_blocked == NO_TORCH) == (not fixed)
    assert bool(fixes_for(source, found)) == fixed  # the print operator, unsafe


@pytest.mark.parametrize("query", ["x.allclose(y)", "x.is_signed()", "x.is_same_size(y)", "torch.allclose(x, y)"])
def test_a_tensor_query_returning_a_python_bool_is_no_tensor(query):
    """`x.allclose(y) and (x > 0).all()` was lowered to `torch.logical_and(x.allclose(y).bool(), ...)`,
    which raises AttributeError: these methods return Python bools (probed on fair-esm's neighbours)."""
    source = (f"import torch\n\n\ndef settle(x: torch.Tensor, y: torch.Tensor):\n    x = x * 2\n"
              f"    ok = {query} and (x > 0).all()\n    return x + ok\n")
    assert "FG105" not in {f.code for f in analyze(source, "m.py", ALL)}
    assert fix_all(source, "m.py", ALL, unsafe=True).source == source


def test_a_nested_function_that_prints_later_keeps_a_print_in_place():
    """`print("first", y)` deferred past a later call of a nested `show()` that prints "second" would
    swap the two lines (fair-esm's neighbours, probed): the deferral declines. A print of constants
    alone goes into the graph instead (torch's print operator prints it where it stood)."""
    source = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def forward(self, x):\n"
              "        def show(t):\n            print('second')\n        y = x * 2\n        print('first', y)\n"
              "        show(y)\n        return y + 1\n")
    inner, found = sorted((f for f in analyze(source, "m.py") if f.code == "FG301"), key=lambda f: f.line)
    assert "`show`, a function defined inside another: no rewrite is offered there" in inner.fix_blocked
    assert "another print, logging, warnings or stream-write call follows" in found.fix_blocked
    assert fix_all(source, "m.py").source == source
    constant = source.replace("print('first', y)", "print('first')")
    assert fix_all(constant, "m.py").source == constant.replace(
        "        print('first')\n", '        if torch.compiler.is_compiling():\n'
        '            torch._higher_order_ops.print("first")\n        else:\n            print(\'first\')\n')


def test_an_elif_is_rewritten_only_with_its_if():
    """An `elif` whose `if` is declined had `[*]` (its own check passed) but no rewrite applied."""
    body = ("if x.max() > 1:\n    x = x / x.max()\nelif x.min() < -1:\n    x = -x\nelse:\n    x = x.abs()\n"
            "return x\n")
    source = HEAD + textwrap.indent(body, " " * 8)
    reasons = {f.line: f.fix_blocked for f in analyze(source, "m.py") if f.code == "FG101"}
    assert reasons[13] == "an `elif` is rewritten only with the `if` chain it continues (line 11)"
    assert "may differ in dtype" in reasons[11]


def test_builtin_any_over_a_tensor_is_found_and_declined():
    """`any(y > 0)` tests each element (Dynamo: data-dependent branching); `bool()`'s keep-tensor fix
    must not take it for a truth test of one tensor."""
    source = HEAD + textwrap.indent("y = x * 2\nif any(y > 0):\n    y = y + 1\nreturn y\n", " " * 8)
    (found,) = [f for f in analyze(source, "m.py") if f.code == "FG105"]
    assert found.fix_blocked.startswith("builtin `any()` over tensor elements has no automatic rewrite")
    assert fix_all(source, "m.py", unsafe=True).source == source


HELPERS = '''\
import torch
import torch.nn.functional as F
from torch import nn


class M(nn.Module):
    def __init__(self, w: float = 0.5):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("weight", torch.tensor(w))
        self.register_buffer("twice", torch.tensor(1.0))
        self.register_buffer("twice", torch.tensor([1.0, 2.0]))

    def pure(self, x):
        return F.relu(x) * 2

    def scaled(self, x):
        return x * self.scale

    def noisy(self, x):
        return F.dropout(x, 0.1, self.training)

    def __doubled(self, x):
        return x * 2

    def forward(self, x: torch.Tensor):
        a = self.pure(x).mean() if self.training and self.weight > 0 else x.mean()
        b = self.scaled(x).mean() if x.mean() > 0 else x.mean()
        c = self.noisy(x).mean() if x.mean() > 0 else x.mean()
        d = x.mean() if self.twice > 0 else x.mean() * 2
        e = self.__doubled(x).mean() if self.training and self.weight > 0 else x.mean()
        return a + b + c + d + e
'''


def test_a_helper_method_is_proven_pure_as_a_function_is_and_a_buffer_made_once_from_a_number_is_0_d():
    found = {f.line: f for f in analyze(HELPERS, "m.py") if f.code == "FG103"}
    assert sorted(found) == [27, 28, 29, 30, 31]
    # pure, and the Python part stays a test with `self.weight` 0-d; a subclass could override `pure`: unsafe
    assert "a subclass that overrides it would run its own code" in found[27].fix_blocked
    assert "reads `self.scale`, which holds a parameter: it would get zero gradients" in found[28].fix_blocked
    assert "`F.dropout`, which draws random numbers" in found[29].fix_blocked
    assert "`self.twice > 0` is not known to be 0-d" in found[30].fix_blocked
    assert found[31].fix_blocked is None  # a name-mangled method: no subclass overrides it


def test_a_helper_method_of_a_class_without_init_is_checked_too():
    source = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def aux(self, x):\n        return x * 2\n\n"
              "    def forward(self, x: torch.Tensor):\n        return self.aux(x).mean() if x.mean() > 0 else x.mean()\n")
    [found] = [f for f in analyze(source, "m.py") if f.code == "FG103"]
    assert "a subclass that overrides it would run its own code" in found.fix_blocked


@pytest.mark.parametrize("test, moved, site", [
    ("torch.isnan(x).any()", True, "\n        if torch.compiler.is_compiling():"),
    ("(x > 0).any() and x.sum() < 1", True, "\n        if torch.compiler.is_compiling():"),  # `and` of tensors: logical_and
    ("x.sum() > 0", True, "\n        if torch.compiler.is_compiling():"),
    # a Python operand of `and` stays a real `if` around the deferral
    ("self.training and x.sum() > 0", True, "\n        if self.training:\n            if torch.compiler.is_compiling():"),
    # a Python value under `or`: the call alone is deferred, inside the `if`
    ("self.training or x.sum() > 0", False, "\n            if torch.compiler.is_compiling():"),
])
def test_an_output_call_alone_in_a_tensor_if_is_deferred_with_it(test, moved, site):
    """The `if` moves into the queued call (its test computed in the graph, tested at the replay)
    only when its test is tensor code, or a Python `and` tensor code; otherwise the call alone is
    deferred inside the `if`."""
    body = f"if {test}:\n    print('seen', x.sum())\nreturn x * 2\n"
    source = HEAD + textwrap.indent(body, " " * 8)
    fixed = fix_all(source, "m.py").source
    deferred = [line.strip() for line in fixed.splitlines() if "_fullgraph_defer('M'" in line]
    assert len(deferred) == 1
    assert (" if cond_for_output else None)" in deferred[0]) is moved
    assert f"if {test}:" in fixed  # the original `if` stays for eager runs (under `else:`)
    assert site in fixed


NUMBER_ATTR = """import torch
from torch import nn


class M(nn.Module):
    def __init__(self, limit{note} = 30.0):
        super().__init__()
        self.limit = limit

    def forward(self, x: torch.Tensor):
        if x.abs().max() > self.limit:
            x = x.clamp(-self.limit, self.limit)
        return x
{more}"""


@pytest.mark.parametrize("note, more, reason", [
    (": int", "", None),  # annotated: a number, never a parameter or buffer
    (": float", "", "may differ in dtype"),  # a float bound makes an integer `x` float
    ("", "", "annotate `__init__`'s parameter `limit` `float` or `int`"),  # could be a tensor of any shape
    (": float", "\n    def reset(self, t: torch.Tensor):\n        self.limit = t\n", "may not have the shape"),  # set twice
])
def test_an_attribute_set_once_from_an_annotated_number_is_a_number(note, more, reason):
    source = NUMBER_ATTR.format(note=note, more=more)
    found = [f for f in analyze(source, "m.py") if f.code == "FG101"]
    assert len(found) == 1
    if reason is None:
        assert found[0].fix_blocked is None
    else:
        assert reason in (found[0].fix_blocked or "")


@pytest.mark.parametrize("body, reason", [
    # kept as a tensor, `x.mean()` would meet 0.3 as float32: `float32(0.3) > 0.3` holds as doubles only
    ("if x.mean().item() > 0.3:\n    x = x + 1\nreturn x\n", "`0.3` is not known to be exact"),
    ("m = x.mean().item()\nif m > 0.3:\n    x = x + 1\nreturn x\n", "`0.3` is not known to be exact"),
    # `int(0.5) > 0` is False, `0.5 > 0` is True
    ("if int(x.sum()) > 0:\n    x = x + 1\nreturn x\n", "truncates"),
    ("n = int(x.sum())\nif n:\n    x = x + 1\nreturn x\n", "truncates"),
    ("if int(x.max()):\n    x = x + 1\nreturn x\n", "truncates"),
    ("assert x.mean().item() < 0.7, 'too large'\nreturn x\n", "`0.7` is not known to be exact"),  # lowered check
    # XLM's `assert lengths.max().item() <= slen`: a Python int may round in a floating dtype
    ("n = len(items)\nassert x.max().item() <= n\nreturn x\n", "`n` is not known to be exact"),
])
def test_a_dropped_conversion_must_compare_alike(body, reason):
    codes = ("FG201", "FG204")
    source = HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)
    found = [f for f in analyze(source, "m.py") if f.code in codes]
    assert found and reason in (found[0].fix_blocked or "")


@pytest.mark.parametrize("body", [
    "if x.mean().item() > 0.5:\n    x = x + 1\nreturn x\n",  # 0.5 is exact in every floating dtype
    "if int((x > 0).sum()) > 2:\n    x = x + 1\nreturn x\n",  # a count: integers
    "if x.max().item() > x.min().item():\n    x = x + 1\nreturn x\n",  # tensor against tensor
])
def test_a_dropped_conversion_that_compares_alike_is_fixed(body):
    source = HEAD + textwrap.indent(textwrap.dedent(body), " " * 8)
    found = [f for f in analyze(source, "m.py") if f.code in ("FG201", "FG204")]
    assert found and all(f.fix_blocked is None for f in found)


@pytest.mark.parametrize("body", [
    "torch = None\ny = x * 1.0\nif x.sum() > 0:\n    y = y * 2.0\nreturn y\n",
    "for torch in items or ():\n    pass\ny = x * 1.0\nif x.sum() > 0:\n    y = y * 2.0\nreturn y\n",
])
def test_no_rewrite_where_the_function_binds_torch_itself(body):
    """The rewrite's `torch.where` would read the local name (found by probing: AttributeError)."""
    assert "binds the name `torch` itself" in (blocked(body, "FG101") or "")


@pytest.mark.parametrize("body, reason", [
    ("h = x * 1.0\nif x.sum() > 0:\n    y = torch.zeros_like(h) * 1.0\nelse:\n    y = h * 2.0\nreturn y\n",
     "`torch.zeros_like(h) * 1.0` carries no gradient while `h * 2.0` may"),
    ("h = x * 1.0\nz = h\nif x.sum() > 0:\n    z = h.detach()\n    y = z * 2\nelse:\n    y = h * 2.0\nreturn y\n",
     "carries no gradient"),
    ("if x.sum() > 0:\n    return torch.zeros_like(x)\nreturn x * 2\n", "returned value `torch.zeros_like(x)` carries no gradient"),
    ("h = x * 1.0\nif x.sum() > 0:\n    y = torch.zeros(3, requires_grad=True)\nelse:\n    y = h\nreturn y\n", None),
    ("h = x * 1.0\nif x.sum() > 0:\n    y = h.exp()\nelse:\n    y = h * 2.0\nreturn y\n", None),
])
def test_no_predication_where_only_one_side_carries_a_gradient(body, reason):
    """Probed: the original's value had no `grad_fn` on one path (a parameter's gradient stayed None)."""
    found = blocked(body, "FG101")
    assert (reason in found) if reason else "carries no gradient" not in (found or "")


def test_no_ternary_predication_where_only_one_side_carries_a_gradient():
    assert "`torch.ones(3)` carries no gradient" in blocked("y = x * 0.5 if x.sum() > 0 else torch.ones(3)\nreturn y\n",
                                                           "FG103")


def test_a_parameter_rebound_to_a_float_at_the_top_is_floating():
    """`x = x.float()` first: `x * x.sum()` and `x + 0.0` are both floating (the decline said nothing
    showed it, found by probing); a rebinding inside a branch before the `if` does not count."""
    body = "x = x.float()\ny = x + 0.0\nif x.sum() > 0:\n    y = x * x.sum()\nreturn y\n"
    assert blocked(body, "FG101") is None
    nested = "if items:\n    x = x.float()\ny = x + 0.0\nif x.sum() > 0:\n    y = x * x.sum()\nreturn y\n"
    assert "may differ in dtype" in (blocked(nested, "FG101") or "")



def test_a_parameter_updated_in_place_is_no_counter():
    """`x += 1` on the tensor parameter changes the caller's tensor where the `if` left it: a predicated
    `x` (a new tensor) would not, so the rewrite declines (a number `+=` counts as a counter only for a
    local bound to number literals)."""
    body = "y = x * 2\nif x.sum() > 0:\n    y = x\nx += 1\nreturn y\n"  # `y` may be `x` itself
    assert "changed in place after this" in (blocked(body, "FG101") or "")
