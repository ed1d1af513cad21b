"""FG453's masked-store rewrite: exact values and gradients, and the stores it declines."""

from __future__ import annotations

import importlib.util
import textwrap

import pytest
from fix_pairs import ROOT as ROOT_FIXES
from fix_pairs import expected_path
from fullgraph.engine import analyze
from fullgraph.fixes import fix_all

HEAD = "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor, y: torch.Tensor, m: torch.Tensor, k: float):\n"


def blocked(body: str) -> str | None:
    source = HEAD + textwrap.indent(textwrap.dedent(body), "    ")
    finding = next(f for f in analyze(source, "m.py") if f.code == "FG453")
    return finding.fix_blocked


@pytest.mark.parametrize("body, reason", [
    ("keep = y.sum(dim=1) > 0\nx[keep] = y[keep]\nreturn x\n", "not known to have the shape of `x`"),  # rows of x
    ("keep = x > k\nx[keep] = y[keep] * 2\nreturn x\n", "not a selection by the same mask"),
    ("keep = x > k\nx[keep] += y\nreturn x\n", "not a selection by the same mask (negated or not) or a number"),
    ("keep = x > k\nx[keep] = y[x > k]\nreturn x\n", "not a selection by the same mask"),
    ("keep = x > k\nz = x[keep]\nreturn z\n", "only a store back through the same mask"),
    ("keep = x > k\nx[keep], y[keep] = y[keep], x[keep]\nreturn x\n", "only a store back through the same mask"),
    ("x[x.normal_() > k] = y[x.normal_() > k]\nreturn x\n", "computed once instead of at each use"),
])
def test_declines_with_reason(body, reason):
    assert reason in (blocked(body) or "")


def test_takes_a_mask_of_the_stored_tensors_shape():
    assert blocked("keep = (x > k) & ~torch.isnan(y)\nout = torch.zeros_like(x)\nout[keep] = -y[keep]\nreturn out\n") \
        is None


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.torch
@pytest.mark.parametrize("stem", ["masked_copy", "masked_negate"])
def test_values_and_gradients_are_the_stores(stem):
    """`torch.where` selects what the store wrote, bit for bit, and routes the same gradients."""
    torch = pytest.importorskip("torch")
    path = ROOT_FIXES / "where" / f"{stem}.in.py"
    original, fixed = _load(path, f"ms_{stem}_in"), _load(expected_path(path), f"ms_{stem}_out")
    for (fn0, args, kwargs), (fn1, _, _) in zip(original.fullgraph_example(), fixed.fullgraph_example()):
        results = []
        for fn in (fn0, fn1, torch.compile(fn1, backend="eager", fullgraph=True)):
            torch._dynamo.reset()
            leaf = args[0].detach().clone().requires_grad_(args[0].is_floating_point())
            out = fn(leaf, *args[1:], **kwargs)
            outs = out if isinstance(out, tuple) else (out,)
            sum(o.sum() for o in outs).backward()
            results.append(([o.detach() for o in outs], leaf.grad))
        for outs, grad in results[1:]:
            assert all(torch.equal(a, b) for a, b in zip(outs, results[0][0]))
            assert torch.equal(grad, results[0][1])


def test_a_mask_of_a_name_bound_again_is_declined():
    # `keep` has the shape `x` had; `x` is rows of itself by the store, where `torch.where` would
    # broadcast `keep` against its last dimension.
    body = "keep = x > k\nx = x.unsqueeze(1).expand(-1, 3)\nx[keep] = y[keep]\nreturn x\n"
    assert "not known to have the shape of `x`" in blocked(body)
    assert blocked("x = x * 2\nx[x > k] += 1\nreturn x\n") is None  # the mask reads `x` where the store is


def test_fix_all_keeps_comments_and_shared_lines():
    body = """\
        out = torch.zeros_like(x); out[x > k] = y[x > k]; z = 1
        if k > 0: out[x > k] += 2
        out[x < -k] = \\
            -y[x < -k]
        out[x == k] = y[  # keep this comment
            x == k]
        return out, z
        """
    fixed = """\
        out = torch.zeros_like(x); out.copy_(torch.where(x > k, y.to(out.dtype), out)); z = 1
        if k > 0: out.copy_(torch.where(x > k, out.clone().add_(2), out))
        out.copy_(torch.where(x < -k, (-y).to(out.dtype), out))
        # keep this comment
        out.copy_(torch.where(x == k, y.to(out.dtype), out))
        return out, z
        """
    source = HEAD + textwrap.indent(textwrap.dedent(body), "    ")
    assert fix_all(source, "m.py").source == HEAD + textwrap.indent(textwrap.dedent(fixed), "    ")


@pytest.mark.torch
def test_a_floating_point_masked_sum_is_an_unsafe_fix():
    """`x[m].sum()` as `torch.where(m, x, 0).sum()` adds in another order: the sums differ in their
    last bits, so fix-all leaves the rewrite to the user (a sum of booleans is exact)."""
    torch = pytest.importorskip("torch")
    generator = torch.Generator().manual_seed(0)
    pairs = [(torch.randn(n, generator=generator), torch.rand(n, generator=generator) > 0.5) for n in range(1000, 1020)]
    assert any(not torch.equal(x[m].sum(), torch.where(m, x, 0).sum()) for x, m in pairs)
    for body in ("keep = x > k\nreturn x[keep].sum()\n", "keep = x > k\nreturn torch.mean(x[keep])\n"):
        source = HEAD + textwrap.indent(body, "    ")
        finding = next(f for f in analyze(source, "m.py") if f.code == "FG453")
        assert "in another order" in finding.fix_blocked and finding.unsafe_fix
        assert fix_all(source, "m.py").source == source
        assert "torch.where(keep, x, 0)" in fix_all(source, "m.py", unsafe=True).source
    assert blocked("keep = x > k\nflags = torch.isfinite(x)\nreturn flags[keep].sum()\n") is None


@pytest.mark.parametrize("body, reason", [
    ("keep = y.sum(dim=1) > 0\nreturn x[keep].any()\n", "not known to have the shape of `x`"),  # rows of x
    ("keep = x > k\nreturn x[keep].sum(dim=0)\n", "only a store back through the same mask"),  # not whole
    ("keep = x > k\nreturn x[keep].amax()\n", "only a store back through the same mask"),  # ties share gradients
    ("return x[x.normal_() > k].any()\n", "computed once instead of at each use"),
])
def test_reductions_declined_with_reason(body, reason):
    assert reason in (blocked(body) or "")


def test_a_mask_made_after_every_binding_of_the_tensor_is_followed():
    """`idx = ~torch.isnan(res)` after the branches that bind `res`: `idx` has the shape `res` has
    where it is read, unless `res` is bound again later or in a loop."""
    branches = "if k > 0:\n    res = x * 2\nelse:\n    res = x + 1\nidx = ~torch.isnan(res)\n"
    assert "in another order" in blocked(branches + "return res[idx].mean()\n")
    assert blocked(branches + "return res[idx].any()\n") is None
    for later in ("res = res.unsqueeze(0)\n", "for _ in range(2):\n    res = res.unsqueeze(0)\n"):
        assert "not known to have the shape of `res`" in blocked(branches + later + "return res[idx].any()\n")
    looped = "for _ in range(2):\n    res = x.unsqueeze(0)\n    idx = ~torch.isnan(res)\n    y = res[idx].any()\n"
    assert "not known to have the shape of `res`" in blocked(looped + "return y\n")


def test_a_mean_in_an_expression_keeps_its_parentheses():
    body = "keep = torch.isfinite(x)\nreturn 2 * x[keep].mean(), [x[keep].mean()]\n"
    fixed = fix_all(HEAD + textwrap.indent(body, "    "), "m.py", unsafe=True).source
    assert "return 2 * (torch.where(keep, x, 0).sum() / keep.sum()), [torch.where(keep, x, 0).sum() / keep.sum()]" \
        in fixed
