"""Tensor facts: annotations, parameters, assignments in order, metadata that is not a tensor."""

import textwrap

import pytest
from fullgraph.analysis.facts import Instance, Module, combine_returns
from fullgraph.engine import analyze


def flagged(src: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in analyze(textwrap.dedent(src))]


def forward(signature: str, body: str) -> str:
    return ("import torch\nfrom torch import nn, Tensor\nfrom typing import Optional\n"
            f"class M(nn.Module):\n    def forward(self, {signature}):\n"
            + textwrap.indent(textwrap.dedent(body), " " * 8))


@pytest.mark.parametrize("signature, expected", [
    ("x", True),  # forward parameter without default: a tensor
    ("x: torch.Tensor", True),
    ("x: Optional[torch.Tensor] = None", True),
    ("x: 'torch.Tensor'", True),
    ("x: Tensor | None = None", True),
    ("x=None", False),  # Hugging Face flags such as use_cache=None
    ("x=1.0", False),
    ("x: bool", False),
    ("x: int", False),
    ("x: torch.Tensor | None = False", False),  # wrong annotation, literal default
    ("x: typing.Union[torch.Tensor, None] = None", True),  # declared, as `Optional[Tensor]` is
    ("x: typing.Union[torch.Tensor, int]", True),  # not declared, still guessed (the annotation names a tensor)
    ("x: typing.Union[float, typing.Literal['warn']]", False),
    ("output_attentions", False),  # flag-like names
    ("layer_idx", False),
])
def test_parameter_facts(signature, expected):
    assert bool(flagged(forward(signature, "if x:\n    pass\n"))) is expected


def test_assignments_are_followed_in_order():
    src = forward("x", """
        n = x.shape[0]
        if n:
            pass
        n = x.sum()
        if n:
            pass
        n = 3
        if n:
            pass
    """)
    assert flagged(src) == [("FG101", 11)]  # only the `if n:` after `n = x.sum()`


@pytest.mark.parametrize("expr, is_tensor", [
    ("x + 1", True), ("x.sum(dim=0)", True), ("x[0]", True), ("-x", True), ("torch.relu(x)", True),
    ("x.T", True), ("self.w", True), ("self.buf", True), ("self.lin(x)", True), ("x.float()", True),
    ("x.shape[0]", False), ("x.size(0)", False), ("x.dim()", False), ("len(x)", False),
    ("x.numel()", False), ("self.training", False), ("self.config.eps", False), ("x is None", False),
    ("isinstance(x, int)", False), ("torch.is_tensor(x)", False), ("self.n", False), ("y", False),
])
def test_expression_facts(expr, is_tensor):
    src = forward("x, y=None", f"""
        if {expr}:
            pass
    """).replace("class M(nn.Module):\n", """class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1))
        self.register_buffer("buf", torch.zeros(1))
        self.lin = nn.Linear(1, 1)
        self.n = 3
""")
    assert bool(flagged(src)) is is_tensor


def test_tuple_unpacking_and_loops():
    src = forward("x", """
        a, b = x.chunk(2)
        if a:
            pass
        h, w = x.shape[-2:]
        if h:
            pass
        for row in x:
            if row.sum():
                pass
        for i in range(4):
            if i:
                pass
    """)
    assert flagged(src) == [("FG101", 8), ("FG101", 14)]


def test_zip_and_enumerate_give_each_loop_variable_its_fact():
    src = forward("x, y", """
        for i, (p, r) in enumerate(zip(x, y)):
            if i:
                pass
            if r > 0:
                pass
        for name, row in zip(["a", "b"], x):
            if name:
                pass
            if row.any():
                pass
    """)
    assert flagged(src) == [("FG101", 10), ("FG101", 15)]


def test_helper_params_take_the_facts_of_the_call_site():
    src = """
    import torch
    def scale(v, k):
        if v.max() > 0:
            pass
        if k > 0:
            pass
        return v
    @torch.compile
    def f(x: torch.Tensor, n):
        return scale(x * 2, 3)
    """
    assert flagged(src) == [("FG101", 4)]


def test_tensor_only_methods_on_unknown_values_are_likely():
    src = forward("x, mask=None", """
        if mask is not None and (mask == 0).all():
            pass
        if mask is not None and mask.any:
            pass
        if mask:
            pass
    """)
    [f] = analyze(textwrap.dedent(src))
    assert (f.code, f.line, f.confidence) == ("FG101", 7, "likely")


def test_mask_variables_make_boolean_index():
    src = forward("scores, boxes", """
        keep = scores > 0.5
        kept = boxes[keep]
        keep = scores.argmax(-1)
        picked = boxes[keep]
    """)
    assert flagged(src) == [("FG453", 8)]


@pytest.mark.parametrize("body", [
    "keep = scores < 0.5 if self.inverted else scores > 0.5\nkept = boxes[keep]\n",  # either side a mask
    "kept = boxes[(~(scores > 0)) * (boxes < 0.3)]\n",  # the product of two masks: a logical and
    "keep = scores > 0.5\nkeep &= boxes < 0.3\nkept = boxes[keep]\n",  # narrowed in place, still a mask
    "hit = torch.any(scores.unsqueeze(1) == boxes, dim=1)\nkept = boxes[hit]\n",  # any/all give booleans
    "a, b = torch.where(scores > 0)\nkept = a[a > 2]\n",  # one-argument `where`: a tuple of index tensors
    "a, b = scores.nonzero(as_tuple=True)\nkept = a[a > 2]\n",
    "a, b = self.pairs(scores)\nkept = a[a > 2]\n",  # one return is `torch.where(m)`, the other a tuple of tensors
])
def test_boolean_masks_by_construction(body):
    src = forward("scores, boxes", body) + (
        "    def pairs(self, s):\n        if s.dim() > 1:\n            return torch.where(s > 0)\n"
        "        return s.new_zeros(1), s.new_zeros(1)\n")
    kept = next(i for i, line in enumerate(src.splitlines(), 1) if "kept =" in line)
    assert ("FG453", kept) in flagged(src)


def test_a_product_that_is_not_of_masks_is_no_mask():
    assert flagged(forward("scores, boxes", "kept = boxes[(scores > 0) * 2]\n")) == []


@pytest.mark.parametrize("rebind", ["for keep in range(3):\n    pass", "with self.ctx() as keep:\n    pass",
                                    "if (keep := 1):\n    pass", "keep: int = 1", "keep, other = divmod(3, 2)"])
def test_a_rebound_name_is_no_longer_a_mask_or_dict(rebind):
    src = forward("scores, boxes", "keep = scores > 0.5\ncfg = {'a': scores}\n" + rebind + "\n"
                  "cfg = self.cfg\nkept = boxes[keep]\nif cfg['a']:\n    pass\n")
    assert flagged(src) == []


@pytest.mark.parametrize("guard", ["x is not None", "self.training", "x.dim() == 3", "isinstance(x, tuple)"])
def test_metadata_guards_do_not_make_tensor_facts(guard):
    assert flagged(forward("x", f"y = {guard}\nif y:\n    pass\nz = not y\n")) == []


def test_helper_return_values_and_dict_entries():
    src = """
    import torch
    def normalize(v):
        return v / (v.norm() + 1e-6)
    def size_of(v):
        return v.shape[0]
    def recurse(v):
        return recurse(v)
    @torch.compile
    def f(x: torch.Tensor):
        if normalize(x)[0] < 0:
            pass
        if size_of(x) > 2:
            pass
        if recurse(x):
            pass
        out = {"logits": x * 2, "n": 3}
        if out["n"]:
            pass
        if out["logits"].max() > 5:
            pass
        out["n"] = x.sum()
        if out["n"]:
            pass
        return out
    """
    assert flagged(src) == [("FG101", 11), ("FG101", 20), ("FG101", 23)]


@pytest.mark.parametrize("signature, body, expected", [
    # an element of a container the annotation types is a known tensor (no guess), the container is not
    ("p: dict[str, torch.Tensor]", "if p['scale'] > 0:\n    pass\n", [("FG101", 6)]),
    ("p: 'Dict[str, Tensor]'", "if p['scale'] > 0:\n    pass\n", [("FG101", 6)]),
    ("p: 'Dict[str, Tensor]'", "if p:\n    pass\n", []),  # not a tensor itself, as its text once said
    ("p: Optional[Dict[str, Tensor]] = None", "if p['scale'] > 0:\n    pass\n", [("FG101", 6)]),
    ("p: dict[str, torch.Tensor]", "if p:\n    pass\n", []),
    ("p: dict[str, torch.Tensor]", "for k in p:\n    if k == 'a':\n        pass\n", []),
    ("xs: list[torch.Tensor]", "for x in xs:\n    if x.sum() > 0:\n        pass\n", [("FG101", 7)]),
    ("xs: tuple[Tensor, ...]", "if xs[0].any():\n    pass\n", [("FG101", 6)]),
    ("xs: tuple[Tensor, int]", "if xs[1]:\n    pass\n", []),
    ("xs: tuple[Tensor, int]", "if xs[0]:\n    pass\n", [("FG101", 6)]),
    ("xs: list[int]", "if xs[0] > 0:\n    pass\n", []),
])
def test_containers_typed_by_their_annotation(signature, body, expected):
    found = [f for f in analyze(forward(signature, body)) if f.code == "FG101"]
    assert [(f.code, f.line) for f in found] == expected
    assert not any(f.data.get("guess") for f in found)


@pytest.mark.parametrize("signature, body, codes", [
    # a parameter nobody describes, used as a slice bound or matched against a shape, is a size
    ("i, j", "if self.bias.shape[-1] >= j and self.bias.shape[-2] >= i:\n    return self.bias[..., -i:, -j:]\n", []),
    ("x, n", "return x[:, : n - 1]\n", []),
    ("x, steps", "for _ in range(steps):\n    x = x * 2\nreturn x\n", []),
    ("x, n", "if n > 0:\n    return x\nreturn -x\n", ["FG101"]),  # no size use: still guessed a tensor
    ("x, n: torch.Tensor", "if n > x.shape[0]:\n    return x\nreturn -x\n", ["FG101"]),  # the annotation wins
])
def test_parameters_used_as_sizes_are_not_guessed_tensors(signature, body, codes):
    assert [f.code for f in analyze(forward(signature, body))] == codes


@pytest.mark.parametrize("signature, body, expected", [
    # rebound to a value of unknown kind, an annotated name keeps its declared type
    ("m: Optional[Tensor] = None", "if self.other:\n    m = self.store.value()\nif m:\n    pass\n",
     [("FG101", 8)]),
    ("x", "m: Tensor = x.new_ones(1)\nm = self.store.value()\nif m:\n    pass\n", [("FG101", 8)]),
    # rebound to a known value, it is that value: the code wins over the annotation
    ("m: Optional[Tensor] = None", "m = len(self.items)\nif m:\n    pass\n", []),
    # no annotation, nothing declared: an unknown value stays unknown
    ("x", "m = self.store.value()\nif m:\n    pass\n", []),
])
def test_a_rebound_annotated_name_keeps_its_declared_type(signature, body, expected):
    assert flagged(forward(signature, body)) == expected


@pytest.mark.parametrize("call, flagged_", [
    # torch's naming: predicates, flags and getters of global state return Python values
    ("torch.are_deterministic_algorithms_enabled()", False),
    ("torch.is_autocast_cache_enabled()", False),
    ("torch.get_default_device() == 'cpu'", False),
    ("torch.get_rng_state().sum() > 0", True),  # the one getter that returns a tensor
    ("torch.isfinite(x).all()", True),
])
def test_torch_functions_named_as_predicates_return_python_values(call, flagged_):
    codes = [code for code, _ in flagged(forward("x", f"if {call}:\n    pass\n"))]
    assert ("FG101" in codes) is flagged_  # (FG418 flags the getters Dynamo does not fold)


def test_a_parameter_called_as_a_function_runs_the_function_it_defaults_to():
    src = textwrap.dedent("""
        import torch
        from torch import nn

        def _pick(values: torch.Tensor, floor: float) -> torch.Tensor:
            if values.max() == 0:
                return values
            return values * floor

        def _reduce(values, floor, reduce_fn=_pick, other=None):
            if other is not None:
                other = 1
            return reduce_fn(values, floor)

        class M(nn.Module):
            def forward(self, x):
                return _reduce(x * 2, 0.5)
        """)
    assert flagged(src) == [("FG101", 6)]
    rebound = src.replace("    if other is not None:\n        other = 1\n", "    reduce_fn = print\n")
    assert rebound != src
    assert flagged(rebound) == []  # rebound in the body: the default is not what runs


def test_a_numpy_value_read_into_python_is_named_as_numpy():
    """Dynamo traces NumPy code as tensor code, and `.item()` of a traced array breaks (probed)."""
    src = forward("x", """
        a = np.arange(4) * 2
        return x + a.sum().item()
    """).replace("import torch\n", "import numpy as np\nimport torch\n", 1)
    [finding] = analyze(src)
    assert (finding.code, finding.line) == ("FG201", 9)
    assert "converts a NumPy value (traced as a tensor) to a Python number" in finding.message


@pytest.mark.parametrize("cost, expected", [
    ("sum(map(np.prod, (x.shape, y.shape)))", [("FG101", 9)]),  # pykeen's estimate_cost_of_sequence
    ("max(np.prod(s) for s in (x.shape, y.shape))", [("FG101", 9)]),
    ("sum(len(s) for s in (x.shape, y.shape))", []),  # Python numbers
    ("sum(map(len, (x.shape, y.shape)))", []),
])
def test_a_reduction_over_elements_takes_the_elements_fact(cost, expected):
    """`sum`/`max`/`min` of one iterable (a `map` of a NumPy or torch function, a generator) is what
    its elements are: NumPy products of shapes are traced as tensors, and a branch on their sum breaks."""
    src = forward("x, y", f"""
        cost = {cost}
        if cost > 8:
            return x
        return y
    """).replace("import torch\n", "import numpy as np\nimport torch\n", 1)
    assert flagged(src) == expected


def test_a_tensor_rebound_to_a_value_in_a_branch_on_a_tensor_stays_likely_a_tensor():
    """Where the branch is not taken the name still holds the tensor (an adaptive step's
    `accept = err <= 1` overridden under `if dt > max_step:`); a branch decided while tracing
    rebinds it for good."""
    src = forward("err: torch.Tensor, dt: torch.Tensor, x: torch.Tensor", """
        accept = err <= 1
        if dt > 0.5:
            accept = False
        if accept:
            x = x * 2
        done = err <= 1
        if self.training:
            done = False
        if done:
            x = x + 1
    """)
    assert [(f.code, f.line, f.confidence) for f in analyze(src)] == [
        ("FG101", 8, "certain"), ("FG101", 10, "likely")]


def test_a_local_lambda_gives_what_its_body_computes():
    """`act = lambda h: F.gelu(h)` then `act(x)`: the body's fact with `h` holding the argument's;
    a lambda that calls itself by name, or is called with the wrong arity, gives nothing."""
    src = ("import torch\nimport torch.nn.functional as F\n\n\n@torch.compile\ndef f(x, n: int):\n"
           "    act = lambda h: F.gelu(h) * 2\n    y = act(x)\n    if y.sum() > 0:\n        y = y + 1\n"
           "    size = lambda k: k + 1\n    if size(n) > 2:\n        y = y - 1\n"
           "    fact = lambda k: 1 if k == 0 else k * fact(k - 1)\n    if fact(n) > 3:\n        y = y * 3\n"
           "    return act(x, n), y\n")
    assert [(f.code, f.line) for f in analyze(src)] == [("FG101", 9)]


def test_a_local_name_holding_functions_returns_what_they_return():
    """`spline_fn = bounded` in one branch, `unbounded` in the other: `spline_fn(x)` is a tensor
    when both return one."""
    src = ("import torch\n\n\ndef bounded(x):\n    return x.clamp(-1, 1)\n\n\ndef unbounded(x):\n    return x * 2\n\n\n"
           "@torch.compile\ndef f(x: torch.Tensor, tails=None):\n    if tails is None:\n        spline_fn = bounded\n"
           "    else:\n        spline_fn = unbounded\n    out = spline_fn(x)\n    if out.sum() > 0:\n        out = out + 1\n"
           "    return out\n")
    assert [(f.code, f.line, f.confidence) for f in analyze(src)] == [("FG101", 19, "certain")]


def test_a_parameter_rebound_to_a_function_may_still_hold_the_callers():
    src = ("import torch\n\n\ndef clamped(x):\n    return x.clamp(-1, 1)\n\n\n"
           "@torch.compile\ndef f(x: torch.Tensor, fn=None, act=None):\n    if fn is None:\n        fn = clamped\n"
           "    if act is None:\n        act = lambda h: h * 2\n    if fn(x).sum() > act(x).sum():\n        x = x + 1\n"
           "    return x\n")
    assert analyze(src) == []  # `fn` and `act` may be what the caller passed


def test_a_function_returning_one_class_of_object_or_module_returns_it():
    """Every `return` making the same class gives an object (or module) of it; two classes, or a
    return of unknown kind, give nothing known."""
    flow = Instance("zuko/distributions.py", "NormalizingFlow")
    assert combine_returns([flow, flow]) == flow
    assert combine_returns([Module("Gate"), Module("Gate")]) == Module("Gate")
    assert combine_returns([flow, Instance("zuko/distributions.py", "Joint")]) is None
    assert combine_returns([flow, None]) is None
    assert combine_returns([Module("Gate"), flow]) is None
