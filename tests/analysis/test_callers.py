"""Parameters take their callers' facts: call sites in the file decide whether a parameter is a
tensor; the entry guess applies only where no call site says, and its findings say so."""

from __future__ import annotations

import os
import textwrap

import pytest

from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document

ALL = Config(assume_compiled="all")


def check(src: str, config: Config | None = None):
    return analyze(textwrap.dedent(src), "c.py", config)


def test_every_call_passes_a_python_value():
    src = """
    import enum
    import torch

    class Kind(enum.Enum):
        FAST = 1

    def pick(x, kind, with_stats, scale):
        if kind == Kind.FAST:
            x = x * 2
        if with_stats:
            x = x - x.mean()
        if scale > 1:
            x = x * scale
        return x

    def run(x: torch.Tensor):
        s = x.max().item()
        a = pick(x, Kind.FAST, True, s)
        return pick(x, kind=Kind.FAST, with_stats=False, scale=len(x.shape)) + a
    """
    assert [f.code for f in check(src, ALL)] == ["FG201"]  # only the `.item()` itself


def test_any_call_passing_a_tensor_makes_a_tensor():
    src = """
    import torch

    def gate(x, flag):
        if flag:
            x = x * 2
        return x

    def run(x: torch.Tensor):
        return gate(x, False) + gate(x, x.sum() > 0)
    """
    [f] = check(src, ALL)
    assert (f.code, f.line, f.confidence) == ("FG101", 5, "certain")
    assert "guess" not in f.message and "guess" not in f.data


def test_a_parameter_is_sparse_only_when_every_call_passes_a_sparse_tensor():
    src = """
    import torch
    from torch import nn

    class Conv(nn.Module):
        def __init__(self, adj):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.adj = torch.sparse_coo_tensor(adj.nonzero().T, adj[adj != 0], adj.shape).coalesce()

        def forward(self, x):
            return propagate(self.adj.t(), x) + mixed(x)

    def propagate(adj, x):
        return torch.sparse.mm(adj, x)

    def mixed(x, adj=None):
        return x if adj is None else adj @ x

    def run(x: torch.Tensor):
        return mixed(x, x.to_sparse()) + mixed(x, torch.eye(4))
    """
    found = [(f.code, f.line) for f in check(src, ALL)]
    assert ("FG420", 12) in found and ("FG420", 15) in found  # `self.adj` read; `adj` passed sparse by its one caller
    assert not any(line == 18 for _, line in found)  # one caller passes a dense tensor: not known to be sparse


def test_helpers_are_analysed_in_their_callers_context_not_as_entries():
    src = """
    import torch

    def helper(t, n):
        for _ in range(n):
            t = t * 2
        return t

    def run(x: torch.Tensor):
        return helper(x, 3)
    """
    report = analyze_document(textwrap.dedent(src), "c.py", ALL)
    assert report.findings == []
    assert [e.message for e in report.entries] == ["run"]  # the root of the call graph


def test_a_guess_stays_likely_and_says_so():
    src = """
    def pick(x, kind):
        if kind > 1:
            x = x * 2
        return x
    """
    [f] = check(src, ALL)
    assert (f.code, f.confidence) == ("FG101", "likely")
    assert f.message.endswith("(if `kind` is a tensor: a guess)")
    assert f.data["guess"] == ["kind"]
    assert "rests on a guess that `kind` is a tensor" in f.fix_blocked


def test_a_guess_passed_on_stays_a_guess():
    src = """
    import torch

    def inner(t):
        if t.sum() > 0:
            t = t * 2
        return t

    def outer(x):
        return inner(x)
    """
    [f] = check(src, ALL)
    assert (f.line, f.confidence, f.data["guess"]) == (5, "likely", ["outer.x"])
    assert f.message.endswith("(if `x` of `outer` is a tensor: a guess)")


@pytest.mark.parametrize("loop", [
    "return tuple(j for i, j in pairs if i == self.first)",
    "for i, j in pairs:\n                if i == self.first:\n                    return j",
])
def test_an_element_of_a_guessed_parameter_is_a_guess(loop):
    src = f"""
    import torch.nn as nn

    class Head(nn.Module):
        def forward(self, x, pairs):
            {loop}
    """
    [f] = check(src)
    assert (f.confidence, f.data["guess"]) == ("likely", ["pairs"])
    assert "(if `pairs` is a tensor: a guess)" in f.message


def test_count_names_take_call_site_facts_not_spelling():
    src = """
    import torch

    @torch.compile
    def take(x, index):
        if index > 0:
            x = x * 2
        return x

    out = take(torch.ones(3), torch.tensor(1))
    """
    [f] = check(src)
    assert (f.code, f.confidence) == ("FG101", "certain")


def test_sample_inputs_are_call_sites():
    src = """
    import torch
    from torch import nn

    class M(nn.Module):
        def forward(self, x, scale):
            if scale > 1:
                x = x * scale
            return x

    def fullgraph_example():
        model = M()
        return [(model, (torch.ones(3), 2.0), {})]
    """
    assert check(src) == []


def test_python_tests_on_constants_are_never_tensor_tests():
    src = """
    import torch
    from mylib import Mode

    @torch.compile
    def f(x, mode, name):
        if mode == Mode.TRAIN or name != "head":
            x = x + 1
        if mode in (1, 2) or name is None:
            x = x * 2
        return x
    """
    assert check(src) == []


def test_unknown_arguments_leave_the_entry_guess():
    src = """
    import torch
    from torch import nn

    class M(nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                x = x * 2
            return x

    def train(model, batches):
        for batch in batches:
            model(batch)

    train(M(), [])
    """
    [f] = check(src)
    assert (f.code, f.confidence) == ("FG101", "likely")


def test_a_submodule_built_into_a_local_list_is_a_helper_of_its_parent():
    src = """
    import torch
    from torch import nn

    class Layer(nn.Module):
        def forward(self, x, scale):
            if scale > 1:
                x = x * scale
            return x

    class Stack(nn.Module):
        def __init__(self):
            super().__init__()
            layers = [Layer() for _ in range(2)]
            self.layers = nn.ModuleList(layers)

        def forward(self, x: torch.Tensor):
            for layer in self.layers:
                x = layer(x, 2.0)
            return x
    """
    report = analyze_document(textwrap.dedent(src), "c.py")
    assert report.findings == [] and [e.message for e in report.entries] == ["Stack.forward"]


def test_constructors_take_the_facts_of_their_instantiations():
    src = """
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, width, depth):
            super().__init__()
            if width > 8:
                width = 8
            self.layers = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])

    class Net(nn.Module):
        def __init__(self, sizes):
            super().__init__()
            self.blocks = nn.ModuleList([Block(16, 2), Block(4, len(sizes))])
    """
    assert check(src, ALL) == []


def test_a_parameter_annotated_with_another_type_is_not_guessed_a_tensor():
    src = """
    import numpy as np
    from typing import Any

    def route(msg: "Message", arr: np.ndarray, anything: Any):
        if msg["infer"].get("skip") or arr.sum() > 0:
            return 1
        if anything > 0:
            return 2
        return 0
    """
    [f] = check(src, ALL)
    assert (f.line, f.data["guess"]) == (8, ["anything"])


def test_numpy_on_a_guessed_parameter_is_a_guess_too():
    """FG410's premise is that the NumPy call's argument is a tensor: on a guessed parameter the
    finding is likely and says so, as FG204's is (ncps' wirings, probed: no break on an int)."""
    source = ("import numpy as np\n\n\ndef count(units, sparsity=0.0):\n"
              "    return int(np.round(units * units * (1 - sparsity)))\n")
    found = [f for f in analyze(source, "m.py", Config(assume_compiled="all")) if f.code == "FG410"]
    assert [(f.confidence, f.message.endswith("(if `units` is a tensor: a guess)")) for f in found] == [("likely", True)]


def test_an_imported_workspace_class_and_a_static_method_are_followed(tmp_path):
    """`Split(mask)` runs `Split.__init__` of another workspace file, `Gate.make(x)` a static method
    of this one (zuko's coupling flows build a `CouplingTransform` whose `__init__` calls
    `mask.nonzero()` in `forward`: 4 breaks, probed)."""
    from fullgraph.analysis.project import ProjectIndex

    (tmp_path / "helpers.py").write_text(
        "class Split:\n    def __init__(self, mask):\n        self.idx = mask.nonzero().squeeze(-1)\n")
    model = tmp_path / "model.py"
    model.write_text(
        "import torch\nfrom torch import nn\n\nfrom helpers import Split\n\n\nclass Gate:\n    @staticmethod\n"
        "    def make(x):\n        return x * 2 if x.sum() > 0 else x\n\n\nclass M(nn.Module):\n"
        "    def forward(self, x: torch.Tensor, mask: torch.Tensor):\n"
        "        return Gate.make(x)[..., Split(mask > 0).idx]\n")
    report = analyze_document(model.read_text(), str(model), project=ProjectIndex([str(tmp_path)]))
    assert {(f.code, f.line) for f in report.findings} == {("FG103", 10)}
    assert {(f.code, f.line, os.path.basename(f.path)) for f in report.elsewhere} == {("FG451", 3, "helpers.py")}


def test_a_method_of_an_object_init_stores_is_followed_wherever_its_class_is(tmp_path):
    """`self.rot.rotate(q)` runs `Rotary.rotate` of another workspace file, `self.plain.apply(q)` a
    method of a plain class, `self.given.scale(q)` one of a parameter's annotated class (rotary
    embeddings and helper objects held by a module; probed: each breaks under Dynamo)."""
    from fullgraph.analysis.project import ProjectIndex

    (tmp_path / "helpers.py").write_text(
        "from torch import nn\n\n\nclass Rotary(nn.Module):\n    def rotate(self, t):\n"
        "        return t * 2 if t.sum() > 0 else t\n\n\nclass Plain:\n    def apply(self, t):\n"
        "        return t * t.max().item()\n\n\nclass Scaler:\n    def scale(self, t):\n        print(t)\n"
        "        return t\n")
    model = tmp_path / "model.py"
    model.write_text(
        "import torch\nfrom torch import nn\n\nfrom helpers import Plain, Rotary, Scaler\n\n\n"
        "class M(nn.Module):\n    def __init__(self, given: Scaler):\n        super().__init__()\n"
        "        self.rot = Rotary()\n        self.plain = Plain()\n        self.given = given\n\n"
        "    def forward(self, q: torch.Tensor):\n        return self.given.scale(self.plain.apply(self.rot.rotate(q)))\n")
    report = analyze_document(model.read_text(), str(model), project=ProjectIndex([str(tmp_path)]))
    assert {(f.code, f.line) for f in report.elsewhere} == {("FG103", 6), ("FG201", 11), ("FG301", 16)}


@pytest.mark.parametrize("argument, flagged", [("[1]", False), ("{'a': 1}", False), ("{1, 2}", False), ("[x]", True)])
def test_a_literal_of_python_values_passed_from_another_file_is_no_tensor(tmp_path, argument, flagged):
    """`check([1])` in another file left `check`'s parameter guessed a tensor (pytorch-tabnet's
    utils under "all", probed: one graph); a list holding an unknown value still leaves the guess."""
    from fullgraph.analysis.project import ProjectIndex

    helpers = tmp_path / "helpers.py"
    helpers.write_text("def check(a):\n    if a == 0:\n        raise ValueError('a must be non-zero')\n    return a\n")
    (tmp_path / "model.py").write_text(f"from helpers import check\n\n\ndef build(x):\n    return x * len(check({argument}))\n")
    report = analyze_document(helpers.read_text(), str(helpers), Config(assume_compiled="all"),
                              project=ProjectIndex([str(tmp_path)]))
    assert bool(report.findings) == flagged


def test_an_autograd_functions_backward_is_walked_and_left_unfixed():
    """Dynamo traces an applied Function's `backward` too when an input requires grad (probed on
    linear-attention-transformer's reversible layers: `y1.requires_grad = True` there breaks); no
    fix is offered in it (it runs when gradients are computed)."""
    from fullgraph.fixes import fix_all

    source = ("import torch\nfrom torch import nn\n\n\nclass Fn(torch.autograd.Function):\n    @staticmethod\n"
              "    def forward(ctx, x):\n        return x * 2\n\n    @staticmethod\n    def backward(ctx, dy):\n"
              "        print('backward')\n        return dy * 2\n\n\nclass M(nn.Module):\n    def forward(self, x):\n"
              "        return Fn.apply(x) + 1\n")
    (found,) = analyze(source, "m.py")
    assert (found.code, found.line) == ("FG301", 12) and "autograd Function's `backward`" in found.fix_blocked
    assert fix_all(source, "m.py", unsafe=True).source == source


def test_an_autograd_function_applied_outside_the_region_is_no_internal_error():
    """`Double.apply(x)` in a module-level helper no entry reaches first (e3nn-style): the call of
    its `backward`, which takes no arguments, was read as a call site and the file got FG001."""
    source = ("import torch\n\n\nclass Double(torch.autograd.Function):\n    @staticmethod\n"
              "    def forward(ctx, x):\n        return x * 2\n\n    @staticmethod\n    def backward(ctx, g):\n"
              "        return g * 2\n\n\ndef f0(x):\n    return Double.apply(x)\n\n\ndef f1(x):\n"
              "    return Double.apply(x)\n\n\nclass Loss(torch.nn.Module):\n"
              "    def forward(self, x):\n        return self.loss(x).item()\n\n\nclass L0(Loss):\n"
              "    def loss(self, x):\n        return f0(x)\n\n\nclass L1(Loss):\n    def loss(self, x):\n"
              "        return f1(x)\n")
    assert [(f.code, f.line) for f in analyze(source, "m.py")] == [("FG201", 24)]


def test_a_function_passed_as_an_argument_runs_where_the_callee_calls_it(tmp_path):
    """`apply_chunks(self.chunk, x)` runs `chunk` where `apply_chunks` calls its parameter, in this
    file or another (transformers' `apply_chunking_to_forward`; probed: Dynamo inlines it and breaks
    there; `apply_here` runs either function its two call sites pass); one passed to a function that
    only stores it runs nowhere."""
    from fullgraph.analysis.facts import Function
    from fullgraph.analysis.project import ProjectIndex

    helpers = tmp_path / "helpers.py"
    helpers.write_text("def apply_one(fn, x):\n    return fn(x)\n\n\nHOOKS = []\n\n\ndef register(fn):\n"
                       "    HOOKS.append(fn)\n    return fn\n")
    model = tmp_path / "model.py"
    model.write_text(
        "import torch\nfrom torch import nn\n\nfrom helpers import apply_one, register\n\n\n"
        "def scale(t):\n    print(t)\n    return t * 2\n\n\ndef shout(t):\n    print(t)\n    return t\n\n\n"
        "def apply_here(fn, x):\n    return fn(x)\n\n\nclass M(nn.Module):\n"
        "    def chunk(self, x):\n        if x.sum() > 0:\n            return x\n        return -x\n\n"
        "    def forward(self, x: torch.Tensor):\n        register(shout)\n"
        "        return apply_one(scale, apply_here(self.chunk, x)) + apply_here(self.loud, x)\n\n"
        "    def loud(self, x):\n        print(x)\n        return x\n")
    project = ProjectIndex([str(tmp_path)])
    for _ in range(2):  # the second analysis reuses what the first kept
        report = analyze_document(model.read_text(), str(model), project=project)
        assert {(f.code, f.line, f.confidence) for f in report.findings} == {
            ("FG301", 8, "certain"), ("FG101", 23, "certain"), ("FG301", 32, "certain")}  # both sites' functions

    def holds_function(value) -> bool:
        return isinstance(value, Function) or isinstance(value, tuple) and any(map(holds_function, value))
    # a walk of `apply_one` holding `scale` is not kept with helpers.py (it would keep model.py's tree alive)
    assert not [key for entry in project._files.values() for key in entry.derived if holds_function(key)]


@pytest.mark.parametrize("stored, flagged", [("((0, 1), (0, 2), (-1, 2))", False), ("{'a': [1, 2]}", False),
                                             ("[]", True), ("pairs", True)])
def test_a_literal_of_constants_init_stores_is_a_python_value_where_it_is_passed(stored, flagged):
    """A module's `forward` called from a loop over a ModuleList with `self.pairs`, a tuple of int
    pairs `__init__` stores, does not guess its parameter a tensor (vit-pytorch's `wwt.py`; probed: one
    graph); an empty literal (maybe a cache that gets tensors) or a constructor argument leaves the guess."""
    src = f"""
    import torch
    from torch import nn

    class Head(nn.Module):
        def forward(self, feats, pairs):
            return tuple(j for i, j in pairs if i == 0)

    class Model(nn.Module):
        def __init__(self, pairs):
            super().__init__()
            self.pairs = {stored}
            self.heads = nn.ModuleList([Head(), Head()])

        def forward(self, x):
            return [head(x, self.pairs) for head in self.heads]
    """
    assert bool([f for f in check(src) if f.code == "FG110"]) == flagged


def test_an_autograd_functions_backward_reaches_what_forward_stored_on_ctx():
    """`ctx.blocks = blocks` in an applied Function's `forward` gives `backward`'s `ctx.blocks` the
    facts of what `apply` passed (`self.blocks`, a ModuleList of `Block`): a slice of it is still the
    container, and `b.backward_pass(...)` on its elements runs `Block.backward_pass` (reversible
    layers, linear-attention-transformer and transformers' Reformer; probed: `requires_grad = True`
    there breaks the compiled module)."""
    src = """
    import torch
    from torch import nn

    class Block(nn.Module):
        def forward(self, x):
            return x * 2

        def backward_pass(self, y, dy):
            y.requires_grad = True
            return y, dy

    class Rev(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, blocks):
            ctx.blocks = blocks
            return x

        @staticmethod
        def backward(ctx, dy):
            y = dy
            for b in ctx.blocks[::-1]:
                y, dy = b.backward_pass(y, dy)
            return dy, None

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block(), Block()])

        def forward(self, x):
            return Rev.apply(x, self.blocks)
    """
    assert [(f.code, f.line) for f in check(src)] == [("FG406", 10)]


def test_parameter_facts_follow_the_call_sites_added_and_dropped():
    import ast

    from fullgraph.analysis.callers import CallSite, CallSites
    from fullgraph.analysis.facts import TENSOR, VALUE
    callee, call = ast.parse("def f(x): pass").body[0], ast.parse("f(1)").body[0].value
    sites = CallSites()
    assert sites.facts(callee) is None
    sites.add(callee, CallSite("a", call, {"x": (VALUE, ())}))
    assert sites.facts(callee) == {"x": (VALUE, ())}
    sites.add(callee, CallSite("b", call, {"x": (TENSOR, ())}))
    assert sites.facts(callee) == {"x": (TENSOR, ())}  # any known tensor makes it one
    sites.drop("b")
    assert sites.facts(callee) == {"x": (VALUE, ())}


CLOSURES = '''import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

try:
    from missing_package import Search
except ImportError:
    Search = None


def by_closure(x):
    if x.sum() > 0:
        return x
    return -x


def by_lambda(x):
    return x.nonzero()


def by_checkpoint(x):
    return x[x > 0]


def search(data):
    return torch.unique(data)


def later(call):
    QUEUE.append(call)
    call()


QUEUE = []


class M(nn.Module):
    def __init__(self, fast=False):
        super().__init__()
        if fast and Search is not None:
            self.search_fn = Search()
        else:
            self.search_fn = search

    def forward(self, x: torch.Tensor):
        def inner(t):
            return by_closure(t * 2)
        y = self.run(inner, x) + self.run(lambda t: by_lambda(t + 1), x)
        y = y + checkpoint(lambda h: by_checkpoint(h), x, use_reentrant=False)
        later(lambda: print("done"))
        scale = lambda t: t.sum().item()
        return self.search_fn(y) * self.run(scale, x)

    def run(self, fn, x):
        return fn(x) + 1
'''


def test_closures_lambdas_and_stored_functions_run_where_they_are_called():
    """A def nested in the caller or a lambda passed on (`run(inner, x)`, `run(lambda t: f(t), x)`,
    `checkpoint(lambda h: f(h), x)`) runs where the callee calls its parameter, and a function
    `__init__` stores by name (`self.search_fn = search`, in one branch of two, the other an object
    of a class that did not import: neuraloperator's `NeighborSearch`) where `self.search_fn(...)`
    calls it. A lambda taking no argument is a callback the callee may queue (`queue.append(call)`):
    not followed. A finding inside a lambda gets no rewrite."""
    report = analyze_document(CLOSURES, "model.py")
    found = {(f.code, f.line) for f in report.findings}
    assert found == {("FG101", 12), ("FG451", 18), ("FG453", 22), ("FG452", 26), ("FG201", 51)}
    in_lambda = next(f for f in report.findings if f.code == "FG201")
    assert "lambda" in (in_lambda.fix_blocked or "")


def test_a_keyword_only_parameter_keeps_its_default_past_a_spread_of_positionals():
    """`*dims` can fill positional parameters only: `verbose` after it keeps its literal default, so
    the compiled call decides `if verbose:`; a spread `**opts` may set it, so there it stays."""
    src = """
    import torch
    from torch import nn

    def show(x, *dims, verbose=False):
        if verbose:
            print(x)
        return x * 2

    class M(nn.Module):
        def forward(self, x, dims):
            return show(x, *dims)
    """
    assert check(src) == []
    spread = src.replace("forward(self, x, dims)", "forward(self, x, dims, opts)").replace("*dims)", "*dims, **opts)")
    assert [f.code for f in check(spread)] == ["FG301"]
