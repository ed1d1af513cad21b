"""Every rule: snippets that must be flagged (with the expected confidence) and look-alikes that must not."""

import pytest
from rule_snippets import module_source

POSITIVE = [
    ("FG101", "if x.sum() > 0:\n    x = x * 2\nreturn x", "certain"),
    ("FG101", "if x.mean() > 0:\n    pass\nelif (x < 0).any():\n    x = -x\nreturn x", "certain"),
    ("FG101", "if not torch.isfinite(x).all():\n    x = x.nan_to_num()\nreturn x", "certain"),
    ("FG101", "y = self.lin(x)\nif y.max() > 1 and self.training:\n    y = y / 2\nreturn y", "certain"),
    ("FG102", "while x.norm() > 1:\n    x = x / 2\nreturn x", "certain"),
    ("FG103", "return x * 2 if x.mean() > 0 else x", "certain"),
    ("FG104", 'assert (x > 0).all(), f"bad {x.min()}"\nreturn x', "certain"),
    ("FG104", 'assert not torch.any(x < 0), "negative"\nreturn x', "certain"),
    ("FG104", 'assert (x > 0).all() and (x < 9).all()\nreturn x', "certain"),
    ("FG105", "ok = (x > 0) and (x < 1)\nreturn ok", "certain"),
    ("FG105", "flag = not x.any()\nreturn x, flag", "certain"),
    ("FG105", "return x * bool(x.sum())", "certain"),
    ("FG105", "inside = 0 < x.sum() < 1\nreturn x, inside", "certain"),
    ("FG106", "for i in range(x.sum()):\n    pass\nreturn x", "certain"),
    ("FG107", 'if torch.isnan(x).any():\n    raise ValueError("nan")\nreturn x', "certain"),
    ("FG108", "assert (x > 0).all(), (x.shape, 1)\nreturn x", "certain"),
    ("FG108", "assert x.sum() > -100, x.shape\nreturn x", "certain"),
    ("FG111", 'assert self.lin, "no layer"\nreturn x', "certain"),
    ("FG111", "parts = [x, x * 2]\nassert x.dim() == 1 and parts\nreturn x", "certain"),
    ("FG201", "return x * x.sum().item()", "certain"),
    ("FG201", "return x * mask.item()", "likely"),
    ("FG202", "return torch.tensor(x.tolist())", "certain"),
    ("FG203", "return x * x.numpy().sum().item()", "certain"),
    ("FG203", "return x * float(x.numpy()[0])", "certain"),
    ("FG204", "return x * int(x.sum())", "certain"),
    ("FG204", "return x * float(x.max())", "certain"),
    ("FG205", 'n = len(f"value {x}")\nreturn x * n', "certain"),
    ("FG206", "return torch.arange((x > 0).sum())", "certain"),
    ("FG206", "k = x.argmax()\nreturn x[:k]", "certain"),
    ("FG206", "bounds = torch.cumsum(x, 0)\nreturn x[slice(bounds[0], bounds[1])]", "certain"),
    ("FG207", "same = torch.equal(x, x.flip(0))\nreturn x, same", "certain"),
    ("FG207", "if not (x * 2).equal(x):\n    x = x + 1\nreturn x", "certain"),
    ("FG205", "s = str(x.sum())\nreturn x", "certain"),
    ("FG205", 's = "%s" % x\nreturn x', "certain"),
    ("FG205", 's = "{}".format(x).upper()\nreturn x, s', "certain"),
    ("FG209", "return x / math.sqrt(x.pow(2).mean())", "certain"),
    ("FG209", "k = math.floor(x.max())\nreturn x[:k]", "certain"),
    ("FG301", 'print("shape", x.shape)\nreturn x', "certain"),
    ("FG302", 'logger.info("x")\nreturn x', "certain"),
    ("FG302", 'logging.warning("x")\nreturn x', "certain"),
    ("FG302", "if logger.isEnabledFor(logging.DEBUG):\n    pass\nreturn x", "certain"),
    ("FG302", 'self.logger.warning_once("x")\nreturn x', "likely"),
    ("FG303", 'warnings.warn("careful")\nreturn x', "certain"),
    ("FG304", 'sys.stdout.write("a")\nreturn x', "certain"),
    ("FG304", 'open("f.txt").close()\nreturn x', "certain"),
    ("FG305", "t0 = time.perf_counter()\nreturn x", "certain"),
    ("FG306", "return x * random.random()", "certain"),
    ("FG306", "return x * np.random.rand()", "certain"),
    ("FG306", "k = random.randrange(3)\nis_last = k == 2\nif is_last:\n    x = x * 2\nreturn x", "certain"),
    ("FG306", "k = random.Random(0).randint(0, 3)\nk = round(k * 2)\nreturn x", "certain"),
    ("FG306", "rng = random.Random(0)\nk = max(rng.randrange(3), 1)\nfor _ in range(k):\n    pass\nreturn x", "certain"),
    ("FG307", "torch.manual_seed(0)\nreturn x", "certain"),
    ("FG308", "g = torch.Generator()\nreturn x", "certain"),
    ("FG308", "g = torch.Generator().manual_seed(1)\nif x.dim() > 1:\n    g = torch.Generator()\nreturn x.normal_(generator=g)",
     "certain"),
    ("FG401", "return copy.deepcopy(x)", "certain"),
    ("FG403", "class Out:\n    pass\nreturn x", "certain"),
    ("FG404", "torch._dynamo.graph_break()\nreturn x", "certain"),
    ("FG405", "same = x.data_ptr() == mask.data_ptr()\nreturn x", "certain"),
    ("FG406", "x.requires_grad = True\nreturn x", "certain"),
    ("FG407", "w = nn.Parameter(torch.ones(4))\nreturn x * w", "certain"),
    ("FG414", "adj = torch.sparse_coo_tensor(x.nonzero().T, x[x != 0], x.shape)\nreturn adj", "certain"),
    ("FG414", "return (x @ x).to_sparse_csr()", "certain"),
    ("FG420", "adj = torch.eye(4).to_sparse().coalesce()\nreturn torch.sparse.mm(adj, x)", "certain"),
    ("FG421", "handle = self.lin.register_forward_hook(lambda m, a, o: None)\nreturn self.lin(x)", "certain"),
    ("FG421", "h = self.lin.register_forward_pre_hook(lambda m, a: None)\nh.remove()\nreturn x", "certain"),
    ("FG408", "out, _ = self.rnn(x)\nreturn out", "certain"),
    ("FG409", "debug_dump(x)\nreturn x", "certain"),
    ("FG410", "return x * float(np.array(x).std())", "certain"),
    ("FG411", 'return x + zlib.crc32(b"a")', "certain"),
    ("FG411", "return x * len(sys._getframe(0).f_code.co_name)", "certain"),
    ("FG412", "x.sum().backward()\nreturn x", "certain"),
    ("FG412", "g, = torch.autograd.grad(x.sum(), [x])\nreturn g", "certain"),
    ("FG451", "return x.nonzero()", "certain"),
    ("FG451", "return torch.where(x > 0)", "certain"),
    ("FG452", "return torch.unique(x)", "certain"),
    ("FG452", "return torch.bincount(x.long(), minlength=4)", "certain"),
    ("FG453", "return x[x > 0]", "certain"),
    ("FG453", "return x[~torch.isnan(x)]", "certain"),
    ("FG454", "return F.one_hot(x.long())", "certain"),
    ("FG208", "torch._check_tensor_all(x > 0)\nreturn x", "certain"),
    ("FG455", "return x.repeat_interleave(x.long(), dim=0)", "certain"),
    ("FG416", "f = functools.partial(F.relu, inplace=False)\nf.tag = 1\nreturn f(x)", "certain"),
    ("FG416", "setattr(debug_dump, 'calls', 1)\nreturn x", "certain"),
    ("FG109", "y = x * 2\ny = y if y.is_floating_point else y.float()\nreturn y", "certain"),
    ("FG110", "kept = [v for v in x if v > 0]\nreturn x", "certain"),
    ("FG418", "return x + torch.get_num_threads()", "certain"),
    ("FG417", 'if "indexing" in torch.meshgrid.__kwdefaults__:\n    x = x + 1\nreturn x', "certain"),
    ("FG422", "k = min((d, i) for i, d in enumerate(x.shape))\nreturn x * k[1]", "certain"),
    ("FG422", "k = max((i for i in range(x.dim())), key=lambda i: x.shape[i])\nreturn x * k", "certain"),
]

NEGATIVE = [
    "k = min([(d, i) for i, d in enumerate(x.shape)])\nj = max(d for d in x.shape)\nreturn x * k[1] * j",
    "min = sorted\nk = min((d, i) for i, d in enumerate(x.shape))\nreturn x * k[1]",  # not the builtin
    "handle = x.register_hook(lambda g: g * 2)\nreturn x",  # a tensor hook, not a module's
    "items = [1]\nitems.remove(1)\nreturn x",  # `remove()` of something no hook registration returned
    "return x[slice(1, x.shape[0] - 1)]",  # `slice()` of sizes: Python ints
    'assert torch.all(x > 0), "negative"\nreturn x',  # a tensor test with a literal message: Dynamo lowers it
    'assert x.dim() == 2 and (x > 0).all()\nreturn x',  # the tensor is the last operand: the assert's test
    'assert self.lin is not None and len([x, x]) == 2 and [1, 2] and {"a": 1}\nreturn x',  # folded by Dynamo
    "if self.lin and [x]:\n    x = self.lin(x)\nreturn x",  # not an assert: a module's and a list's truth is fine
    "g = None\nreturn torch.randn(x.shape, generator=g)",  # no generator
    "g = torch.Generator if x.dim() else None\nreturn x",  # the class, not a generator
    "n = x.size(0)\nok = 0 < n < 10\nreturn x, ok",  # a chained comparison of Python ints
    "if x.is_floating_point() and not x.is_cuda and x.requires_grad:\n    x = x + 1\nreturn x",
    "if torch.meshgrid.__kwdefaults__ is None:\n    x = x + 1\nreturn x * len(torch.Tensor.__qualname__)",
    "return x.to_dense() + 1",  # a dense result: no sparse tensor is made
    "return x / math.sqrt(x.shape[-1]) * math.pi",  # `math` of Python numbers
    "adj = x.to_dense()\nadj = adj + 1\nreturn adj @ x",  # rebound to dense tensors
    "same = self.config.equal(self.other)\nreturn x, same",  # `.equal` of values not known to be tensors
    "return torch.arange(x.shape[0]) + x.new_zeros(x.size(0))",
    'msg = f"value {x}"\nnote = "{}".format(x)\nreturn x * 2, msg',  # built lazily by Dynamo: no break
    "if x.shape[0] > 2:\n    x = x[:2]\nreturn x",
    "if x.size(0) == 1 and x.dim() == 3 and x.ndim == 3:\n    x = x.squeeze(0)\nreturn x",
    "if x.dtype == torch.float16 or x.device.type == 'cpu':\n    x = x.float()\nreturn x",
    "if self.training:\n    x = x * 2\nreturn x",
    "if mask is None:\n    mask = torch.ones_like(x)\nreturn x * mask",
    "if mask is not None:\n    x = x * mask\nreturn x",
    "if isinstance(mask, torch.Tensor):\n    x = x * mask\nreturn x",
    "if use_cache:\n    x = x + 1\nreturn x",
    "if self.hidden > 2:\n    x = x * 2\nreturn x",
    "if len(x) > 2:\n    x = x[:2]\nreturn x",
    "for i in range(x.size(0)):\n    x = x + i\nreturn x",
    "for i in range(self.hidden):\n    x = x + i\nreturn x",
    "if not torch.compiler.is_compiling():\n    print(x.sum().item())\nreturn x",
    "if torch.compiler.is_compiling():\n    pass\nelse:\n    logger.info(x.item())\nreturn x",
    "y = x if torch._dynamo.is_compiling() else x.numpy()\nreturn y",
    'assert (x > 0).all(), "must be positive"\nreturn x',
    "assert x.shape[0] == 4, x.shape\nreturn x",
    "n = x.shape[0]\nif n > 2:\n    x = x * 2\nreturn x",
    "b, t = x.shape[:2]\nif t > 1:\n    x = x[:, :1]\nreturn x",
    'print = lambda *a: None\nprint(x)\nreturn x',
    "x[x > 0] = 0\nreturn x",
    "return F.one_hot(x.long(), num_classes=4)",
    "return torch.where(x > 0, x, 0)",
    'name = f"shape {x.shape}"\nreturn x',
    "return x * int(x.shape[0])",
    "return torch.from_numpy(x.numpy() * 2), np.sum(x)",
    "return x * random.randint(1, 3) * random.uniform(0.5, 1.5)",
    "rng = random.Random(0)\nscale = rng.uniform(0.5, 1.5)\nreturn x * scale",
    "k = random.randint(0, 3)\nk = len(self.layers)\nif k > 1:\n    x = x * 2\nreturn x",
    "return x / float(np.sqrt(x.shape[-1])) * np.pi",
    "ok = mask is None or use_cache\nreturn x",
    'return x, f"result {x}"',
    "def inner(y):\n    return y\ninner.tag = 1\nself.lin.tag = 1\nreturn inner(x)",  # Dynamo tracks these objects
    "f = make(x)\nf.tag = 1\nreturn x",  # not known to be a partial
    "f = functools.partial(F.relu)\nfor f in self.hooks:\n    f.tag = 1\nreturn x",  # rebound by the loop
    "torch._check(x.shape[0] > 0)\nreturn x",  # a shape check: traced
    "return x.repeat_interleave(2, dim=0), torch.repeat_interleave(x, x.long(), output_size=8)",
]


@pytest.mark.parametrize("code, body, confidence", POSITIVE, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(POSITIVE)])
def test_rule_flags_its_example(findings, code, body, confidence):
    hits = [f for f in findings(body) if f.code == code]
    assert hits, f"{code} not reported for:\n{body}"
    assert hits[0].confidence == confidence
    assert hits[0].data["function"] == "M.forward" and hits[0].data["entry"] == "M.forward"


@pytest.mark.parametrize("body", NEGATIVE, ids=[str(i) for i in range(len(NEGATIVE))])
def test_counter_example_stays_clean(findings, body):
    assert findings(body) == []


def test_every_detectable_rule_has_a_positive_example():
    from fullgraph.rules.catalog import RULES

    tested = {code for code, _, _ in POSITIVE}
    confirm_only = {code for code in RULES if code.startswith("FG9")}  # reported by Dynamo runs, not rules
    # FG402 needs a decorated generator entry, FG413 a context-manager class, FG415 a TypedDict
    # class, FG419 an autograd Function class (the corpus has them with Dynamo's verdict)
    untested = set(RULES) - tested - confirm_only - {"FG000", "FG001", "FG402", "FG413", "FG415", "FG419"}
    assert not untested


def test_generator_entry(findings):
    from fullgraph.engine import analyze

    src = "import torch\n@torch.compile\ndef gen(x):\n    yield x\n    yield x * 2\n"
    assert [f.code for f in analyze(src)] == ["FG402"]
    helper = "import torch\ndef gen(x):\n    yield x\n@torch.compile\ndef f(x):\n    return list(gen(x))\n"
    assert analyze(helper) == []


def test_graph_break_in_loop_carries_gb7000(findings):
    [f] = findings("for i in range(3):\n    print(i)\nreturn x")
    assert f.code == "FG301" and f.gb_ids[-1] == "GB7000" and f.data["in_loop"] is True
    assert "skips the whole function" in f.message
    [g] = findings('print("once")\nreturn x')
    assert "GB7000" not in g.gb_ids and g.data["in_loop"] is False


def test_fix_kind_and_gb_urls(findings):
    from fullgraph.findings import gb_doc_url

    [f] = findings("if x.sum() > 0:\n    x = x * 2\nreturn x")
    assert f.fix == "predicate" and f.gb_ids == ("GB0170",)
    assert gb_doc_url(f.gb_ids[0]).endswith("/gb0170.html")
    from rule_snippets import PRELUDE

    line = PRELUDE.count("\n") + 1
    # the `if <test>` header, not the whole block
    assert (f.line, f.col, f.end_line, f.end_col) == (line, 8, line, 8 + len("if x.sum() > 0"))


def test_outside_context_manager():
    from fullgraph.engine import analyze

    src = """
import torch
class Scope:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        pass
SHARED = Scope()
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scope = Scope()
        self.lock = object()
    def forward(self, x):
        with self.scope:
            x = x + 1
        with SHARED, Scope():
            x = x * 2
        return x
"""
    assert [(f.line, f.code) for f in analyze(src)] == [(15, "FG413"), (17, "FG413")]


@pytest.mark.parametrize("body, code", [
    ("return [r for r in x if not r]", "FG110"),  # the filter reports, not the `not` in it too
    ("return bool(not x.all())", "FG105"),  # `bool()` reports, not the `not` in it too
    ("if not x.all():\n    x = x * 2\nreturn x", "FG101"),
])
def test_one_truth_test_is_one_finding(findings, body, code):
    assert [f.code for f in findings(body)] == [code]


def test_an_and_inside_bool_is_two_truth_tests(findings):
    """`bool(a and b)` takes `a`'s truth value, then `bool()` takes `b`'s: two breaks (kornia's rain)."""
    assert [f.code for f in findings("return bool(x.all() and x.any())")] == ["FG105", "FG105"]


@pytest.mark.parametrize("body, expected", [
    ("adj = x\nif use_cache:\n    adj = x.to_sparse()\nreturn adj @ x", []),  # sparse on one path only
    ("if use_cache:\n    adj = x.to_sparse()\nelse:\n    adj = x * 2\nreturn adj @ x", []),
    ("if use_cache:\n    adj = x.to_sparse()\nelse:\n    adj = x.to_sparse_coo()\nreturn adj @ x", [5]),
    ("adj = x.to_sparse()\nh = adj @ x\nreturn torch.sparse.mm(adj, h)", [2]),  # once: the rest runs eagerly
])
def test_a_sparse_tensor_is_flagged_where_every_path_makes_it_sparse(findings, body, expected):
    lines = module_source(body).splitlines()
    first = next(i for i, line in enumerate(lines, 1) if line.strip() == body.splitlines()[0])
    assert [f.line - first + 1 for f in findings(body) if f.code == "FG420"] == expected
