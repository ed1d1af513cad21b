"""Tensor facts: which expressions hold tensors, evaluated in statement order.

A fact is ``TENSOR``, ``LIKELY`` (a tensor-only method was called on an unknown value),
``VALUE`` (known not to be a tensor), ``SPARSE`` (a tensor a sparse constructor or conversion made),
``None`` (unknown) or a :class:`Module` (an ``nn.Module`` instance, whose calls return tensors). Names bound to boolean masks
(``keep = scores > t``) are tracked too, for boolean-mask indexing, and names bound to Python
random draws Dynamo traces as graph values (``k = rng.randrange(n)``).
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from dataclasses import dataclass

from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import walk
from fullgraph.analysis.parsing import parse_tree
from fullgraph.analysis.tensor_methods import TENSOR_METHODS

COMBINATORICS = frozenset(f"itertools.{f}" for f in ("permutations", "combinations", "combinations_with_replacement",
                                                     "product"))
TENSOR = "tensor"
LIKELY = "likely tensor"
VALUE = "value"
TENSORISH = (TENSOR, LIKELY)
# A NumPy array or scalar: Dynamo traces NumPy code as tensor code, so Python reading its value
# (a branch, `bool()`) breaks like a tensor's, but no tensor rewrite applies to it.
NUMPY = "numpy array"
# A sparse tensor: Dynamo cannot take one into a graph, so any use of it in compiled code breaks
# there; no tensor rewrite applies to it.
SPARSE = "sparse tensor"
SPARSE_CONSTRUCTORS = frozenset(f"torch.sparse_{kind}_tensor" for kind in ("coo", "csr", "csc", "bsr", "bsc", "compressed"))
SPARSE_CONVERSIONS = frozenset(("to_sparse", "to_sparse_coo", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr",
                                "to_sparse_bsc"))
# Methods of a sparse tensor whose result is sparse too (a copy, a move, a cast, a transpose).
SPARSE_KEEPING = frozenset(("coalesce", "to", "cpu", "cuda", "float", "double", "half", "bfloat16", "detach", "clone",
                            "t", "transpose", "requires_grad_", "type_as"))


@dataclass(frozen=True)
class Module:
    """An nn.Module value: `cls` is an in-file class name or a qualified name such as
    ``torch.nn.LSTM``; `element` is the module class held by a ModuleList/Sequential; `path`: the
    file of a class imported from the project or a library (`cls` is then its qualified name there)."""

    cls: str
    element: Module | None = None
    path: str | None = None

    def local_to(self, classes) -> bool:
        """Whether `cls` names one of a file's own `classes` (not a class of another file)."""
        return self.path is None and self.cls in classes


@dataclass(frozen=True)
class Instance:
    """An object of a plain class (not an nn.Module) of the project or a library: `path` and
    `cls` (its qualified name there) say where the class is defined; calling its methods runs them."""

    path: str | None
    cls: str


@dataclass(frozen=True)
class Constructed(Instance):
    """An object whose construction the analysed file shows (`Block(act_layer=Mine)`): each
    parameter of its `__init__` the construction gives a value, with (an object of) the class it
    names, or None when it names none. `opaque`: a `*`/`**` argument may give any parameter."""

    given: tuple[tuple[str, Instance | None], ...] = ()
    opaque: bool = False

    def passed(self, param: str) -> tuple[bool, Instance | None]:
        """Whether the construction gives `param` a value, and the class it names, if one."""
        return next(((True, cls) for name, cls in self.given if name == param), (self.opaque, None))


@dataclass(frozen=True)
class Choice:
    """An object of one of several plain classes, which only the run decides: a registry's
    `SOLVERS[method](...)`. Calling a method runs the one of whichever class the object is of."""

    options: tuple[Instance, ...]


@dataclass(frozen=True, eq=False)
class Function:
    """Functions or bound methods passed as a value (`apply_chunks(self.chunk, x)`): calling the
    parameter that holds them runs one of `infos` (FunctionInfos), which Dynamo inlines."""

    infos: tuple

    def __eq__(self, other) -> bool:
        return isinstance(other, Function) and {id(i) for i in other.infos} == {id(i) for i in self.infos}

    def __hash__(self) -> int:
        return hash(frozenset(id(i) for i in self.infos))


@dataclass(frozen=True)
class Context:
    """An autograd Function's `ctx` in `backward`: the facts of what `forward` stored on it from
    its parameters (`ctx.blocks = blocks`), by attribute."""

    attrs: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Items:
    """A tuple of known length: the fact of each element, and which elements are boolean masks
    (`return out, mask` of a helper, unpacked by `x, mask = helper(...)`)."""

    facts: tuple
    masks: tuple[bool, ...]


@dataclass(frozen=True)
class Elements:
    """A container its annotation types: `dict[str, Tensor]`, `list[Tensor]`, `tuple[Tensor, ...]`.
    Indexing it gives `element`; so does iterating, unless it is `keyed` (a mapping yields keys)."""

    element: object
    keyed: bool = False


MAPPINGS = frozenset(("dict", "Dict", "Mapping", "MutableMapping", "OrderedDict"))
SEQUENCES = frozenset(("list", "List", "Sequence", "MutableSequence"))


# Attributes of anything that are metadata, never tensors.
VALUE_ATTRS = frozenset(
    ["shape", "dtype", "device", "ndim", "is_cuda", "is_sparse", "is_quantized", "is_meta", "is_leaf", "requires_grad", "layout", "names", "training", "itemsize", "nbytes", "is_nested", "is_cpu", "is_mps"]
)
TENSOR_ATTRS = frozenset(["T", "mT", "H", "mH", "data", "grad", "real", "imag", "values", "indices"])
# Tensor methods whose result is not a tensor.
VALUE_METHODS = frozenset(
    ["size", "dim", "ndimension", "numel", "nelement", "element_size", "item", "tolist", "numpy", "data_ptr", "is_contiguous", "is_floating_point", "is_complex", "get_device", "stride", "storage_offset", "__len__", "is_inference", "untyped_storage", "storage", "is_pinned", "is_shared", "dim_order", "is_set_to", "equal", "allclose", "is_nonzero", "is_signed", "is_neg", "is_conj", "is_same_size", "is_coalesced", "is_distributed", "dense_dim", "sparse_dim"]
)
# Methods only tensors have: a call of one on an unknown receiver yields a tensor.
TENSOR_ONLY_METHODS = frozenset(
    ["unsqueeze", "masked_fill", "masked_fill_", "softmax", "log_softmax", "contiguous", "permute", "type_as", "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor", "clamp", "clamp_", "expand", "expand_as", "repeat_interleave", "unflatten", "narrow", "detach", "matmul", "bmm", "masked_select", "index_select", "gather", "scatter", "scatter_add", "isnan", "isinf", "isfinite", "sigmoid", "relu", "float", "half", "bfloat16", "long", "bool", "int", "triu", "tril", "transpose_", "view_as", "reshape_as", "flip", "roll", "addmm", "baddbmm", "logsumexp", "topk", "argmax", "argmin", "all", "any"]
)
# `torch.*` callables that do not return tensors.
VALUE_PREFIXES = ("_", "is_", "are_", "set_")  # torch.is_tensor, torch.are_deterministic_algorithms_enabled
TORCH_VALUE_FUNCS = frozenset(  # those torch's naming does not tell (see `is_tensor_qualname`)
    ["numel", "device", "dtype", "Size", "finfo", "iinfo", "no_grad", "enable_grad", "inference_mode", "autocast", "manual_seed", "compile", "typename", "equal", "result_type", "promote_types", "can_cast", "initial_seed", "seed", "use_deterministic_algorithms", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "Generator", "broadcast_shapes", "allclose"]
)
INDEX_TUPLES = frozenset(("torch.where",))  # with one argument: a tuple of index tensors, one per dimension
MASK_FUNCS = frozenset(("isnan", "isinf", "isfinite", "logical_and", "logical_or", "logical_not", "logical_xor",
                        "isclose", "isin", "bool", "any", "all", "eq", "ne", "lt", "le", "gt", "ge", "signbit"))
# Tensor methods whose result has the receiver's dtype (a mask stays a mask).
SAME_DTYPE_METHODS = frozenset(("unsqueeze", "squeeze", "view", "reshape", "expand", "expand_as", "flatten",
                                "contiguous", "clone", "detach", "transpose", "permute", "t", "repeat", "flip",
                                "cpu", "cuda", "view_as", "reshape_as", "unflatten", "narrow", "roll"))
TENSOR_NAMESPACES = ("torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.")
VALUE_BUILTINS = frozenset(
    ["len", "isinstance", "issubclass", "int", "float", "bool", "str", "repr", "range", "hasattr", "callable", "id", "hash", "type", "format", "round", "divmod", "ord", "chr", "tuple", "list", "dict", "set", "frozenset", "enumerate", "zip"]
)
CONFIG_NAMES = frozenset(("config", "cfg", "args", "opt", "hparams", "settings"))
SCALAR_ANNOTATIONS = frozenset(("bool", "int", "float", "str", "bytes", "complex"))
# Unannotated parameters of forward or of a compiled function with these names are flags or sizes, not tensors.
FLAG_PREFIXES = ("output_", "use_", "return_", "is_", "has_", "do_", "num_", "n_", "max_", "min_", "enable_")
FLAG_SUFFIXES = ("_type", "_size", "_dim", "_len", "_length", "_idx", "_index", "_name", "_mode", "_first",
                 "_only", "_flag", "_resolution", "_dimensions", "_shape", "_height", "_width")
FLAG_NAMES = frozenset(["height", "width", "dim", "training", "mode", "step", "kwargs", "config", "deterministic", "causal", "inplace", "train", "verbose", "debug", "layer", "stage", "shape", "size", "axis", "eps", "p", "seed", "epoch"])
ENUM_BASES = frozenset(("enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"))


def tensor_parameter(name: str) -> bool:
    """An unannotated parameter (of forward or a compiled function) without a default and with no
    known call site is guessed a tensor, unless its name says it is a flag or a size."""
    return name not in FLAG_NAMES and not name.startswith(FLAG_PREFIXES) and not name.endswith(FLAG_SUFFIXES)


def scalar_operand(node: ast.AST) -> ast.AST:
    """What a lowered condition keeps of an operand: `t` for `t.item()`, `float(t)`, `int(t)`, `bool(t)`."""
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute) and node.func.attr == "item":
        return node.func.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("float", "int", "bool") \
            and len(node.args) == 1:
        return node.args[0]
    return node


def boolean_leaves(node: ast.AST):
    """The operands a condition is lowered to tensor code from (through `and`/`or`/`not`/`bool()`,
    both sides of comparisons), each also with its scalar conversion stripped."""
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from boolean_leaves(value)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from boolean_leaves(node.operand)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and len(node.args) == 1:
        yield from boolean_leaves(node.args[0])
    else:
        for operand in [node.left, *node.comparators] if isinstance(node, ast.Compare) else [node]:
            yield operand
            yield scalar_operand(operand)


def bool_annotation(annotation: ast.expr | None) -> bool:
    """An annotation naming a boolean tensor type (`torch.BoolTensor`, `Optional[BoolTensor]`)."""
    return annotation is not None and "BoolTensor" in _annotation_text(annotation)


def _bool_dtype(call: ast.Call) -> bool:
    """A call given `dtype=torch.bool` (`torch.zeros(n, dtype=torch.bool)`, `x.to(dtype=torch.bool)`)."""
    return any(k.arg == "dtype" and isinstance(k.value, ast.Attribute) and k.value.attr == "bool"
               for k in call.keywords) or \
        isinstance(call.func, ast.Attribute) and call.func.attr == "to" and len(call.args) == 1 \
        and isinstance(call.args[0], ast.Attribute) and call.args[0].attr == "bool"


def _device_move(call: ast.Call) -> bool:
    """`.to(x.device)` / `.to(device=...)`: a move that keeps the dtype."""
    if call.keywords and all(k.arg in ("device", "non_blocking", "copy") for k in call.keywords) and not call.args:
        return True
    return len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Attribute) \
        and call.args[0].attr == "device"


def may_be_tensor(annotation: ast.expr | None) -> bool:
    """Whether a parameter with this annotation may be guessed a tensor: no annotation, `Any`, or
    one that names a tensor type somewhere (`Union[Tensor, float]`); never `Message`, `np.ndarray`."""
    if annotation is None:
        return True
    text = _annotation_text(annotation)
    return "Tensor" in text or text.rpartition(".")[2] in ("Any", "object")


def _annotation_text(annotation: ast.expr) -> str:
    """An annotation as written (a string annotation's contents)."""
    return annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) \
        else ast.unparse(annotation)


# Python random draws Dynamo 2.13 traces, as graph values (an unspecialized int/float): arithmetic
# or branching on them breaks; other `random` functions are skipped calls (FG306).
TRACED_DRAWS = frozenset(("random.randint", "random.uniform", "random.randrange"))
RNG_CLASSES = frozenset(("random.Random",))
# The `numpy.random` functions torch 2.13 reimplements on torch's generator (`torch._numpy.random`),
# by the position of their `size` argument (None: every positional argument is a dimension): Dynamo
# traces an array draw (a NumPy value traced as a tensor) and `seed`, while a scalar draw (no size)
# reads its value (`.item()`) and breaks.
NUMPY_DRAW_SIZES = {"numpy.random.rand": None, "numpy.random.randn": None, "numpy.random.random": 0,
                    "numpy.random.random_sample": 0, "numpy.random.sample": 0, "numpy.random.uniform": 2,
                    "numpy.random.normal": 2, "numpy.random.randint": 2}
RNG_METHODS = frozenset(("randint", "uniform", "randrange", "random"))
# `nn.Parameter(t)` and `nn.Buffer(t)` (classes, but what they make is a tensor)
TENSOR_WRAPPERS = frozenset(("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                             "torch.nn.parameter.Buffer"))


# NumPy functions whose result is no array (predicates, shapes, dtypes, context managers): not a traced value
# (some of them break on a traced array themselves, e.g. `np.ndim(arr)`; no rule says so yet).
NUMPY_VALUE_FUNCS = frozenset(("isscalar", "ndim", "shape", "size",
                               "issubdtype", "dtype", "finfo", "iinfo", "result_type", "can_cast", "promote_types",
                               "errstate", "printoptions", "set_printoptions", "get_printoptions", "iscomplexobj",
                               "isrealobj", "ndarray", "broadcast_shapes"))
# ndarray methods whose result is again an array.
NUMPY_METHODS = frozenset(("any", "all", "sum", "max", "min", "mean", "prod", "std", "var", "argmax", "argmin",
                           "cumsum", "astype", "reshape", "flatten", "ravel", "copy", "round", "clip", "squeeze"))


# numpy.random functions: how many distribution parameters come before `size`; a draw with a size
# (or `rand(2, 3)`) is an array, which Dynamo traces as a tensor once the draw's own break is past.
NUMPY_DRAW_PARAMS = {
    **dict.fromkeys(("rand", "randn", "random", "random_sample", "ranf", "sample", "standard_normal",
                     "standard_exponential", "standard_cauchy"), 0),
    **dict.fromkeys(("choice", "geometric", "poisson", "exponential", "standard_gamma", "chisquare", "rayleigh",
                     "pareto", "weibull", "zipf", "power", "standard_t", "logseries"), 1),
    **dict.fromkeys(("randint", "normal", "uniform", "binomial", "beta", "gamma", "lognormal", "laplace", "logistic",
                     "gumbel", "negative_binomial", "f", "vonmises", "wald", "triangular"), 2),
}


def is_numpy_draw_array(q: str, node: ast.Call) -> bool:
    """`numpy.random.<f>(...)` drawing an array: a `size`, or more positional arguments than `f`'s
    parameters (`rand(1)`, `geometric(p, n)`), or a permutation."""
    name = q.rpartition(".")[2]
    if not q.startswith("numpy.random.") or name not in NUMPY_DRAW_PARAMS and name != "permutation":
        return False
    sized = any(k.arg == "size" and not (isinstance(k.value, ast.Constant) and k.value.value is None)
                for k in node.keywords)
    return name == "permutation" or sized or len(node.args) > NUMPY_DRAW_PARAMS[name]


def is_numpy_array_qualname(q: str) -> bool:
    """True for `numpy.*` names whose call returns an array or NumPy scalar (which Dynamo traces as
    a tensor); not NumPy's random generators, whose draws other rules flag."""
    return q.startswith("numpy.") and not q.startswith("numpy.random.") and q.rsplit(".", 1)[-1] not in NUMPY_VALUE_FUNCS


# torch base classes whose `__call__` runs a method subclasses override: a `TransformModule` (a
# `Transform` and an `nn.Module`) called as a module runs `Transform.__call__`, so its `_call`.
CALL_DISPATCH = {"torch.distributions.Transform": "_call", "torch.distributions.transforms.Transform": "_call"}


def external_call(qualname: str) -> str | None | bool:
    """What calling an instance of a class with this torch base runs: a method name, None for an
    `nn.Module` base (its `forward`), False for any other."""
    if qualname in CALL_DISPATCH:
        return CALL_DISPATCH[qualname]
    return None if torch_module_class(qualname) else False


def torch_module_class(qualname: str) -> bool:
    """A `torch.nn` module class (`torch.nn.Linear`), not `Parameter`/`Buffer`."""
    head, _, last = qualname.rpartition(".")
    return head.startswith("torch.nn") and last[:1].isupper() and last not in ("Parameter", "Buffer")


def is_tensor_qualname(q: str) -> bool:
    """True for `torch.*` names whose call returns a tensor."""
    if q.startswith(TENSOR_NAMESPACES):
        return True
    parts = q.split(".")
    if len(parts) != 2 or parts[0] != "torch":
        return q in TENSOR_WRAPPERS
    name = parts[1]
    if name in TORCH_VALUE_FUNCS or name.startswith(VALUE_PREFIXES) or name.endswith("_enabled") \
            or name.startswith("get_") and name != "get_rng_state":
        return False  # by torch's naming: predicates, flags, getters and setters of global state
    return name.islower() or name.endswith("Tensor")


def declared_fact(arg: ast.arg, default: ast.expr | None, resolve):
    """The fact a parameter's annotation declares, which the walk takes whatever a call passes."""
    fact = annotation_fact(arg.annotation, resolve)
    if fact == TENSOR and isinstance(default, ast.Constant) and default.value is not None:
        return None  # `flag: Tensor | None = False`: the annotation is wrong, the default is not
    return fact


def annotation_fact(node: ast.expr | None, resolve):
    """The fact an annotation gives: Tensor / Optional[Tensor] / Tensor | None, scalars, or a
    container of tensors (`Elements`, `Items`)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        parsed = unquoted(node)
        return None if parsed is None or isinstance(parsed, ast.Constant) else annotation_fact(parsed, resolve)
    if isinstance(node, ast.Subscript):  # Optional[Tensor], dict[str, Tensor]
        head = resolve(node.value) or getattr(node.value, "id", "") or getattr(node.value, "attr", "")
        name = head.rpartition(".")[2]
        if name == "Optional":
            return annotation_fact(node.slice, resolve)
        if name == "Literal":  # `Literal["warn", "nan"]`
            return VALUE
        if name == "Union":  # `Union[float, Literal["warn"]]`: the fact all members share
            members = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            facts = [annotation_fact(m, resolve) for m in members if not (isinstance(m, ast.Constant) and m.value is None)]
            return facts[0] if facts and all(f == facts[0] for f in facts) else None
        return _container_fact(name, node.slice, resolve)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [annotation_fact(s, resolve) for s in (node.left, node.right)]
        if any(isinstance(s, ast.Constant) and s.value is None for s in (node.left, node.right)):
            return next((f for f in sides if f), None)
        return sides[0] if sides[0] == sides[1] else None
    if isinstance(node, ast.Name) and node.id in SCALAR_ANNOTATIONS:
        return VALUE
    q = resolve(node) or (node.id if isinstance(node, ast.Name) else "")
    return TENSOR if q.endswith("Tensor") else None


def unquoted(node: ast.expr | None) -> ast.expr | None:
    """The expression a string annotation (`"KVCache | None"`) holds; any other node as it is;
    None when the string is no expression."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return node
    try:
        return parse_tree(node.value.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None


def _container_fact(head: str, index: ast.expr, resolve) -> Elements | Items | None:
    """`Elements` for a mapping, sequence or `tuple[X, ...]` annotation whose elements are tensors;
    `Items` for a fixed-length tuple holding one."""
    items = index.elts if isinstance(index, ast.Tuple) else [index]
    if head in MAPPINGS and len(items) == 2:
        element, keyed = items[1], True
    elif head in SEQUENCES and len(items) == 1:
        element, keyed = items[0], False
    elif head in ("tuple", "Tuple") and len(items) == 2 and isinstance(items[1], ast.Constant) \
            and items[1].value is Ellipsis:
        element, keyed = items[0], False
    elif head in ("tuple", "Tuple"):  # `tuple[Tensor, int]`: each position its own fact
        facts = tuple(annotation_fact(i, resolve) for i in items)
        return Items(facts, (False,) * len(facts)) if TENSOR in facts else None
    else:
        return None
    return Elements(TENSOR, keyed) if annotation_fact(element, resolve) == TENSOR else None


def _bool_list(node: ast.AST) -> bool:
    """A list display of booleans (`[True, False]`, comparisons, `not ...`) or a list comprehension
    of them."""
    if isinstance(node, ast.ListComp):
        return _boolean(node.elt)
    return isinstance(node, ast.List) and bool(node.elts) and all(_boolean(e) for e in node.elts)


def _boolean(node: ast.AST) -> bool:
    return isinstance(node, ast.Compare) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) \
        or isinstance(node, ast.Constant) and isinstance(node.value, bool)


class Facts:
    """Per-function environment of name -> fact, and the expression evaluator."""

    def __init__(self, resolve, self_attr, call_result, is_enum=lambda name: False, random_imported=True,
                 self_attrs_like=lambda prefix, suffix: None, string_constant=lambda spelling: False,
                 instance_attr=lambda instance, name: None, global_fact=lambda name: None) -> None:
        self.env: dict[str, object] = {}
        self.call_result = call_result  # call -> fact of what an in-file callee returns
        self.masks: set[str] = set()  # names currently bound to boolean tensors
        self.bool_lists: set[str] = set()  # names bound to lists of booleans (an index that selects like a mask)
        self.draws: dict[str, str] = {}  # names bound to a traced Python random draw -> the call, spelled
        self.rngs: set[str] = set()  # names bound to a `random.Random(...)` generator
        self.random_imported = random_imported  # without `random` imported there is no draw to follow
        self.nones: dict[str, bool] = {}  # names a test showed to be None (True) or not None (False)
        self.resolve = resolve  # Name/Attribute chain -> qualified import name
        self.self_attr = self_attr  # attribute name -> fact of `self.<name>`
        self.self_attrs_like = self_attrs_like  # (prefix, suffix) -> fact the attributes so named share
        self.instance_attr = instance_attr  # (object of a plain class, name) -> fact of `<object>.<name>`
        self.global_fact = global_fact  # a name the function does not bind -> the fact of the module-level name
        self.is_enum = is_enum  # class name -> whether it is an Enum
        self.string_constant = string_constant  # `MODE` / `Cls.attr` spelling -> bound only to string literals
        self.dicts: dict[str, dict[str, object]] = {}  # name -> facts of a dict literal's string keys
        # Names whose tensor fact rests on a guess -> the guessed parameters it rests on.
        self.guessed: dict[str, tuple[str, ...]] = {}
        # Names that were plain values and became tensors under trace-time conditions -> those
        # conditions (`skip = False` then `if self.training: skip = torch.rand([]) < p`).
        self.bound_under: dict[str, tuple] = {}
        self.where = tuple  # the walker's current trace-time conditions
        self.in_data_branch = 0  # inside a branch of an `if` on a tensor value (the walker counts)
        # Names an annotation types (a parameter's, `x: T = ...`) -> its fact: a value the walk
        # cannot tell keeps the declared type (`edge_type: Optional[Tensor]` rebound to `s.value()`).
        self.declared: dict[str, object] = {}

    def kind(self, node: ast.AST):
        """The fact for an expression at the current point of the walk."""
        method = _KIND.get(type(node))
        return method(self, node) if method else None

    def bind(self, target: ast.AST, fact, guess: tuple[str, ...] = ()) -> None:
        """Record an assignment to `target` (names, tuples and starred names); a rebound name
        loses what was known of its old value (mask, dict entries, guess). `guess`: the guessed
        parameters the value's tensor fact rests on."""
        if isinstance(target, ast.Name):
            previous = self.env.get(target.id)
            if self.in_data_branch and previous in TENSORISH and fact not in TENSORISH:
                fact = LIKELY  # `ok = err <= 1` then `if dt > m: ok = False`: a tensor where the branch is not taken
            where = self.where() if fact in TENSORISH else ()
            if where and previous == VALUE:
                self.bound_under[target.id] = where
            elif not (where and previous in TENSORISH):  # a tensor under other conditions stays conditional
                self.bound_under.pop(target.id, None)
            self.env[target.id] = fact
            self.dicts.pop(target.id, None)
            self.masks.discard(target.id)
            self.bool_lists.discard(target.id)
            self.draws.pop(target.id, None)
            self.rngs.discard(target.id)
            self.nones.pop(target.id, None)
            if guess and fact in TENSORISH:
                self.guessed[target.id] = guess
            else:
                self.guessed.pop(target.id, None)
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(fact, Items) \
                and len(fact.facts) == len(target.elts) and not any(isinstance(t, ast.Starred) for t in target.elts):
            for t, element, mask in zip(target.elts, fact.facts, fact.masks):
                self.bind(t, element, guess)
                if mask and isinstance(t, ast.Name):
                    self.masks.add(t.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            element = fact.element if isinstance(fact, Elements) and not fact.keyed else \
                fact if fact in (TENSOR, LIKELY, VALUE) else None
            for t in target.elts:
                self.bind(t, element, guess)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, VALUE if fact == VALUE else None)

    def bind_assign(self, target: ast.AST, value: ast.AST) -> None:
        """Bind `target = value`, element-wise when both are tuples of the same length; a name an
        annotation typed keeps that type when the value's kind is unknown."""
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts):
                self.bind_assign(t, v)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                and target.value.id in self.dicts and string_literal(target.slice):
            self.dicts[target.value.id][target.slice.value] = self.kind(value)
        else:
            mask = isinstance(target, ast.Name) and self.is_mask(value)  # before `m = m.to(d)` rebinds `m`
            drawn = self.draw_in(value) if isinstance(target, ast.Name) else None
            fact = self.kind(value)
            if fact is None and isinstance(target, ast.Name):  # a value of unknown kind: the declared type
                fact = self.declared.get(target.id)
            self.bind(target, fact, self.guess(value))
            if drawn is not None:
                self.draws[target.id] = drawn
                if self.where():  # drawn under trace-time conditions (`if self.training:`): a break only there
                    self.bound_under[target.id] = self.where()
            if isinstance(target, ast.Name) and self.random_imported and self._makes_rng(value):
                self.rngs.add(target.id)
            if isinstance(target, ast.Name):
                if isinstance(value, ast.Dict) and all(string_literal(k) for k in value.keys):
                    self.dicts[target.id] = {k.value: self.kind(v) for k, v in zip(value.keys, value.values)}
                if mask:
                    self.masks.add(target.id)
                if _bool_list(value):
                    self.bool_lists.add(target.id)

    def is_mask(self, node: ast.AST) -> bool:
        """A boolean tensor by construction: a comparison of tensors, `~m`, `m & n`, `m * n`, `isnan(...)`,
        either side of a conditional expression that both are."""
        if isinstance(node, ast.Name):
            return node.id in self.masks
        if isinstance(node, ast.Compare):
            return not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops) \
                and self.is_tensor(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return self.is_mask(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self.is_mask(node.left) or self.is_mask(node.right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # `(~y) * (d < a)`: a logical and
            return self.is_mask(node.left) and self.is_mask(node.right)
        if isinstance(node, ast.IfExp):  # `d < m if inverted else d > m`
            return self.is_mask(node.body) and self.is_mask(node.orelse)
        if isinstance(node, ast.Subscript):  # `mask[:, 0]` is still boolean (a mask index is not a mask)
            return self.is_mask(node.value)
        if isinstance(node, ast.Call):  # the cheap tests of the spelling first: `is_tensor` may walk a helper
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in MASK_FUNCS or _bool_dtype(node):
                return self.is_tensor(node)
            return isinstance(func, ast.Attribute) and (name in SAME_DTYPE_METHODS or name == "to" and _device_move(node)) \
                and self.is_mask(func.value) and self.is_tensor(node)
        return False

    def draw(self, node: ast.AST) -> str | None:
        """The random draw ``node`` is (a traced `random.randint(...)`, a `random.Random` method call, a
        name bound to either), spelled; None otherwise."""
        if not self.random_imported:
            return None
        if isinstance(node, ast.Name):
            return self.draws.get(node.id)
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if self.resolve(func) in TRACED_DRAWS:
            return f"{ast.unparse(func)}(...)"
        if isinstance(func, ast.Attribute) and func.attr in RNG_METHODS and (
                isinstance(func.value, ast.Name) and func.value.id in self.rngs or self._makes_rng(func.value)):
            return f"{ast.unparse(func)}(...)"
        return None

    def _makes_rng(self, node: ast.AST) -> bool:
        """`random.Random(...)`: a generator whose draws Dynamo traces."""
        return isinstance(node, ast.Call) and self.resolve(node.func) in RNG_CLASSES

    def draw_in(self, node: ast.AST) -> str | None:
        """The random draw a Python value is computed from: the draw itself, or a comparison, `not`,
        `and`/`or`, arithmetic or a non-tensor call over one (`is_last = i == k`, `k = f(k + 1) - 1`; a
        call's kind is asked only when its arguments hold a draw)."""
        if not self.random_imported:
            return None
        if isinstance(node, ast.Call) and self.draw(node) is None:
            drawn = next((d for d in map(self.draw_in, [*node.args, *(k.value for k in node.keywords)]) if d), None)
            return drawn if drawn is not None and self.kind(node) not in TENSORISH else None
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.BoolOp):
            parts = node.values
        elif isinstance(node, ast.UnaryOp):
            parts = [node.operand]
        elif isinstance(node, ast.BinOp):
            parts = [node.left, node.right]
        else:
            return self.draw(node)
        return next((d for d in map(self.draw_in, parts) if d is not None), None)

    def masks_in(self, index: ast.AST) -> bool:
        """Whether a subscript's index selects with a boolean mask (`x[m]`, `x[:, m]`), a list of
        booleans included (`x[..., [t == "circular" for t in tails], 0]`: torch makes it a mask)."""
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        return any(self.is_mask(p) or _bool_list(p) or isinstance(p, ast.Name) and p.id in self.bool_lists
                   for p in parts)

    def binding_conditions(self, *nodes: ast.AST) -> tuple:
        """The trace-time conditions under which the names in `nodes` became tensors."""
        found: list = []
        for node in nodes:
            for sub in walk(node):
                if isinstance(sub, ast.Name):
                    found += [c for c in self.bound_under.get(sub.id, ()) if c not in found]
        return tuple(found)

    def bind_loop(self, target: ast.AST, iterated: ast.AST) -> None:
        """Bind the target of `for target in iterated` (a loop or a comprehension): an element of a
        value guessed a tensor is guessed one too."""
        self.bind(target, self.iter_element(iterated), self.guess(iterated))

    @contextmanager
    def comprehension_scope(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
        """Within this block, the targets of a comprehension's `for` clauses hold elements of what
        they iterate; after it, what they held before (a comprehension has a scope of its own)."""
        with self.binding(dict.fromkeys(comprehension_targets(node)), {}):
            for gen in node.generators:
                self.bind_loop(gen.target, gen.iter)
            yield

    def iter_element(self, node: ast.AST):
        """The fact for the loop variable of `for v in node`."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.env:
            name = node.func.id
            if name == "range":
                return VALUE
            if name == "zip" and node.args and not node.keywords:  # `for p, r in zip(precision, recall)`
                return Items(tuple(self.iter_element(a) for a in node.args), (False,) * len(node.args))
            if name == "enumerate" and len(node.args) == 1:
                return Items((VALUE, self.iter_element(node.args[0])), (False, False))
            if name in ("list", "tuple", "sorted", "reversed") and len(node.args) == 1:
                return self.iter_element(node.args[0])  # `for p in list(range(n))`: the same elements
            if name == "map" and len(node.args) >= 2 and (q := self.resolve(node.args[0])) is not None:
                return TENSOR if is_tensor_qualname(q) else NUMPY if is_numpy_array_qualname(q) else None
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            with self.comprehension_scope(node):
                fact = self.kind(node.elt)
            return fact if fact in (*TENSORISH, NUMPY, VALUE) else None
        if isinstance(node, ast.Call) and node.args and self.resolve(node.func) in COMBINATORICS \
                and all(self.iter_element(a) == VALUE for a in node.args if not isinstance(a, ast.Starred)):
            return VALUE  # `itertools.permutations(range(n))`: tuples of Python numbers
        fact = self.kind(node)
        if isinstance(fact, Module):
            return fact.element
        if isinstance(fact, Elements):
            return None if fact.keyed else fact.element
        if isinstance(fact, Items) and len(set(fact.facts)) == 1:  # `for t in args`, every one a tensor
            return fact.facts[0]
        return fact if fact in TENSORISH else None

    def is_tensor(self, node: ast.AST) -> bool:
        return self.kind(node) == TENSOR

    def guess(self, *nodes: ast.AST) -> tuple[str, ...]:
        """The guessed parameters that the tensor facts of `nodes` rest on: () when none of them
        reads a guessed name, or when one is a tensor (or likely one) without the guesses."""
        if not self.guessed:
            return ()
        read = {n.id for node in nodes for n in walk(node) if isinstance(n, ast.Name) and n.id in self.guessed}
        if not read:
            return ()
        with self.binding(dict.fromkeys(read)):
            if any(self.kind(node) in TENSORISH or self.data_dependent(node) for node in nodes):
                return ()
        return tuple(sorted({origin for name in read for origin in self.guessed[name]}))

    def names_state(self) -> tuple:
        """A copy of what is known of each name (its fact, mask, draw, generator, dict entries, guess
        and binding conditions; not None-ness, which the walker's branches keep themselves)."""
        return (dict(self.env), set(self.masks), dict(self.draws), set(self.rngs),
                {k: dict(v) for k, v in self.dicts.items()}, dict(self.guessed), dict(self.bound_under),
                set(self.bool_lists))

    def restore_names(self, state: tuple) -> None:
        """Back to a :meth:`names_state` (an `else` branch starts from what held before the `if`)."""
        env, masks, draws, rngs, dicts, guessed, bound_under, bool_lists = state
        self.env, self.masks, self.draws, self.rngs = dict(env), set(masks), dict(draws), set(rngs)
        self.bool_lists = set(bool_lists)
        self.dicts = {k: dict(v) for k, v in dicts.items()}
        self.guessed, self.bound_under = dict(guessed), dict(bound_under)

    def join_branches(self, before: tuple, branch: tuple, rebound_since: frozenset[str]) -> None:
        """After an `if`/`else` whose branches both fall through (the second one just walked): what
        the first branch changed of a name stays known unless the second rebound the name; a name
        the second made a tensor that the first left something else is only a likely tensor (a
        rewrite must not take it for one; the other way round it stays what the second made it)."""
        joined = {name for name in rebound_since
                  if self.env.get(name) in TENSORISH and branch[0].get(name) not in (*TENSORISH, SPARSE)}
        second = dict(self.env)
        mine = (self.env, self.masks, self.draws, self.rngs, self.dicts, self.guessed, self.bound_under,
                self.bool_lists)
        for old, new, current in zip(before, branch, mine):
            for name in (set(old) | set(new)) - rebound_since:
                if (name in old) == (name in new) and (not isinstance(new, dict) or old.get(name) == new.get(name)):
                    continue
                if isinstance(current, set):
                    current.add(name) if name in new else current.discard(name)
                elif name in new:
                    current[name] = new[name]
                else:
                    current.pop(name, None)
        self.env.update(dict.fromkeys(joined, LIKELY))
        for name in rebound_since & (set(branch[2]) - set(self.draws)):  # a draw on the first path only
            self.draws[name] = branch[2][name]
            self.bound_under[name] = branch[6].get(name, ())
        self.settle_sparse(rebound_since | {n for n in branch[0] if branch[0][n] != before[0].get(n)},
                           branch[0], second)

    def settle_sparse(self, names, *paths: dict) -> None:
        """A name of ``names`` (those a branch may rebind) sparse after the branch but not on every path
        that joins there (``paths``: the names' facts on each) is a tensor, not known to be sparse: a
        use of it breaks on one path only."""
        for name in [n for n in names if self.env.get(n) == SPARSE]:
            facts = {path.get(name) for path in paths}
            if facts != {SPARSE}:
                self.env[name] = TENSOR if facts <= {TENSOR, SPARSE} else LIKELY

    def callables(self, names) -> dict:
        """Those of `names` that hold modules or functions now."""
        return {name: fact for name in names if isinstance(fact := self.env.get(name), (Module, Function))}

    def keep_callables(self, held: dict) -> None:
        """After a branch that may not run: a name that held modules or functions before it (`held`)
        and is unknown now still may hold them (`blocks = layer_drop(blocks)` under `if
        self.training`): calls on it may run them."""
        for name, fact in held.items():
            if name in self.env and self.env[name] is None:
                self.env[name] = fact

    @contextmanager
    def binding(self, facts: dict, guesses: dict[str, tuple[str, ...]] | None = None):
        """Within this block, the names of `facts` have those facts (None: no fact) and, with
        `guesses`, rest on those guesses (none when not named there); after it, what they had before
        (a name unbound before is unbound again)."""
        saved = {name: self.env[name] for name in facts if name in self.env}
        saved_guesses = {name: self.guessed[name] for name in facts if name in self.guessed}
        self.env.update(facts)
        if guesses is not None:
            for name in facts:
                if guesses.get(name):
                    self.guessed[name] = guesses[name]
                else:
                    self.guessed.pop(name, None)
        try:
            yield
        finally:
            for name in facts:
                if name in saved:
                    self.env[name] = saved[name]
                else:
                    self.env.pop(name, None)
                if guesses is not None:
                    if name in saved_guesses:
                        self.guessed[name] = saved_guesses[name]
                    else:
                        self.guessed.pop(name, None)

    def known_tensor(self, node: ast.AST) -> bool:
        """A tensor whatever the guesses (not merely likely one without them): what a rewrite may
        turn into tensor code."""
        if self.kind(node) != TENSOR:
            return False
        read = {n.id for n in walk(node) if isinstance(n, ast.Name) and n.id in self.guessed}
        if not read:
            return True
        with self.binding(dict.fromkeys(read)):
            return self.kind(node) == TENSOR

    def data_dependent(self, node: ast.AST) -> str | None:
        """'certain' / 'likely' when evaluating `node` for truth needs a tensor's value, else None."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.data_dependent(node.operand)
        if isinstance(node, ast.BoolOp):
            found = [self.data_dependent(v) for v in node.values]
            return "certain" if "certain" in found else ("likely" if "likely" in found else None)
        fact = self.kind(node)
        return "certain" if fact in (TENSOR, NUMPY) else ("likely" if fact == LIKELY else None)

    # -- evaluators by node type -------------------------------------------------------

    def _name(self, node: ast.Name):
        found = self.env.get(node.id, _MISSING)
        return self.global_fact(node.id) if found is _MISSING else found

    def _constant(self, node):
        return VALUE

    def _attribute(self, node: ast.Attribute):
        if node.attr in VALUE_ATTRS or self.enum_member(node):
            return VALUE
        base = node.value
        if isinstance(base, ast.Name):
            if base.id == "self":
                return self.self_attr(node.attr)
            if base.id in CONFIG_NAMES:
                return VALUE
            if isinstance(self.env.get(base.id), Context):
                return dict(self.env[base.id].attrs).get(node.attr)
        elif isinstance(base, ast.Attribute) and base.attr in CONFIG_NAMES:
            return VALUE
        owner = self.kind(base) if isinstance(base, (ast.Name, ast.Attribute)) else None
        if isinstance(owner, Instance):  # `state.count`: what the class's `__init__` stores there
            return self.instance_attr(owner, node.attr)
        if node.attr in TENSOR_ATTRS:
            fact = self.kind(base)
            return fact if fact in TENSORISH else None
        return None

    def _call(self, node: ast.Call):
        fact = self._call_fact(node)
        return self.call_result(node) if fact is None else fact

    def _call_fact(self, node: ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            bound = self.env.get(func.id, _MISSING)
            if bound is not _MISSING:
                return self._module_call(node) if isinstance(bound, Module) else None
            if func.id in VALUE_BUILTINS:
                return VALUE
            if func.id == "getattr" and 2 <= len(node.args) <= 3 and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id == "self":
                return self._self_getattr(node.args[1], node.args[2] if len(node.args) == 3 else None)
            if func.id in ("max", "min", "sum") and len(node.args) == 1 \
                    and self.kind(node.args[0]) not in (*TENSORISH, NUMPY):
                return self.iter_element(node.args[0])  # `sum(map(np.prod, shapes))`: of its elements
            if func.id in ("max", "min", "abs", "sum") and node.args:
                return _combine([self.kind(a) for a in node.args])
        q = self.resolve(func)
        if q is not None:
            if q in INDEX_TUPLES and len(node.args) == 1 and not node.keywords or _as_tuple(node):
                return Elements(TENSOR)  # `torch.where(mask)`: one index tensor per dimension
            if q in SPARSE_CONSTRUCTORS:
                return SPARSE
            return TENSOR if is_tensor_qualname(q) else \
                NUMPY if is_numpy_array_qualname(q) or is_numpy_draw_array(q, node) else None
        if isinstance(func, ast.Attribute):
            if isinstance(self.kind(func), Module):
                return self._module_call(node)
            receiver = self.kind(func.value)
            name = func.attr
            if receiver == NUMPY:
                return NUMPY if name in NUMPY_METHODS else None
            if receiver == SPARSE or receiver in TENSORISH and name in SPARSE_CONVERSIONS:
                return sparse_method(name)
            if receiver in (TENSOR, LIKELY) and name not in TENSOR_METHODS:
                return None  # a tensor subclass's own method (or not a tensor at all): its result is unknown
            if receiver == TENSOR:
                if name in VALUE_METHODS or (name == "type" and not node.args and not node.keywords):
                    return VALUE
                return Elements(TENSOR) if _as_tuple(node) else TENSOR
            if isinstance(receiver, Module):
                return TENSOR if name in ("forward", "__call__") else None
            if receiver == LIKELY:
                return VALUE if name in VALUE_METHODS else LIKELY
            if receiver is None and name in TENSOR_ONLY_METHODS:
                return LIKELY
            return None
        fact = self.kind(func)
        return self._module_call(node) if isinstance(fact, Module) else None

    def _self_getattr(self, name: ast.expr, default: ast.expr | None):
        """`getattr(self, name[, default])`: the attribute a constant name names, or every attribute
        the class has whose name fits a computed one's constant part (`buffer + "_needs_init"`)."""
        if string_literal(name):
            return self.self_attr(name.value)
        pattern = name_pattern(name)
        fact = self.self_attrs_like(*pattern) if pattern else None
        return fact if fact is None or default is None else combine_returns([fact, self.kind(default)])

    def _module_call(self, node: ast.Call):
        """A module's call returns a tensor, or the tuple its `forward` returns when that is known
        (`embeddings, num_frames, width = self.patch_embeddings(x)`: one tensor, two ints)."""
        returned = self.call_result(node)
        return returned if isinstance(returned, Items) else TENSOR

    def _binop(self, node: ast.BinOp):
        return _combine([self.kind(node.left), self.kind(node.right)])

    def enum_member(self, node: ast.AST) -> bool:
        """`Kind.FAST`: a member of an Enum class of the file, or an upper-case constant of an
        imported class (an enum member or class constant, never a tensor)."""
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Name):
            return False
        owner = node.value.id
        if owner in self.env:
            return False
        if self.is_enum(owner):
            return True
        return self.resolve(node.value) is not None and owner[:1].isupper() and node.attr.isupper()

    def named_string(self, node: ast.AST) -> bool:
        """`MODE` or `METHODS.euler` (not a local name): a module constant or a class attribute bound
        only to string literals, in this file or the one it is imported from."""
        root = node.value if isinstance(node, ast.Attribute) else node
        return isinstance(root, ast.Name) and root.id not in self.env and self.string_constant(dotted(node) or "")

    def _compare(self, node: ast.Compare):
        if all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return self._membership(node)
        if any(string_literal(o) or self.enum_member(o) or self.named_string(o) for o in (node.left, *node.comparators)):
            return VALUE  # `kind == Kind.FAST`, `mode == "train"`, `method == METHODS.euler`: never a tensor test
        return _combine([self.kind(node.left), *(self.kind(c) for c in node.comparators)])

    def _membership(self, node: ast.Compare):
        """`v in t` on a tensor `t` reads its values (`Tensor.__contains__`: `(t == v).any()`), a
        data-dependent truth value; `is` tests and membership in anything else give a Python bool."""
        if string_literal(node.left):
            return VALUE
        containers = [c for op, c in zip(node.ops, node.comparators) if isinstance(op, (ast.In, ast.NotIn))]
        kinds = [self.kind(c) for c in containers if not (isinstance(c, ast.Name) and c.id in self.guessed)]
        return next((k for k in kinds if k in TENSORISH), VALUE)  # a guessed container is more often a dict or list

    def _unaryop(self, node: ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return VALUE if self.kind(node.operand) == VALUE else None
        return self.kind(node.operand)

    def _boolop(self, node: ast.BoolOp):
        return _combine([self.kind(v) for v in node.values])

    def _ifexp(self, node: ast.IfExp):
        body, orelse = self.kind(node.body), self.kind(node.orelse)
        return body if body == orelse else None

    def _subscript(self, node: ast.Subscript):
        if isinstance(node.value, ast.Name) and node.value.id in self.dicts and string_literal(node.slice):
            return self.dicts[node.value.id].get(node.slice.value)
        value = self.kind(node.value)
        if isinstance(value, Module):
            return value if isinstance(node.slice, ast.Slice) else value.element  # `self.layers[::-1]`: a container
        if isinstance(value, Elements):
            if isinstance(node.slice, ast.Slice):
                return None if value.keyed else value
            return value.element
        if isinstance(value, Items):
            index = node.slice
            position = index.value if isinstance(index, ast.Constant) and isinstance(index.value, int) else None
            if position is None and not isinstance(index, ast.Slice) and len(set(value.facts)) == 1:
                return value.facts[0]  # `shapes[i]`, every item alike
            return value.facts[position] if position is not None and -len(value.facts) <= position < len(value.facts) \
                else None
        return value if value in (TENSOR, LIKELY, VALUE, NUMPY) else None

    def _wrapped(self, node):
        return self.kind(node.value)

    def _tuple(self, node: ast.Tuple):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return None
        return Items(tuple(self.kind(e) for e in node.elts), tuple(self.is_mask(e) for e in node.elts))

    def _display(self, node: ast.List | ast.Dict):
        """A list (or dict) display whose elements (values) are all tensors, or all the same module."""
        elements = node.values if isinstance(node, ast.Dict) else node.elts
        if not elements or None in getattr(node, "keys", ()) or any(isinstance(e, ast.Starred) for e in elements):
            return None
        facts = {self.kind(e) for e in elements}
        fact = facts.pop() if len(facts) == 1 else None
        return Elements(fact, isinstance(node, ast.Dict)) if fact == TENSOR or isinstance(fact, Module) else None


def name_pattern(node: ast.expr) -> tuple[str, str] | None:
    """(prefix, suffix) a computed attribute name is known to have: `prefix + x`, `x + suffix`,
    f"{x}_suffix", "{}_suffix".format(x); None when it has no constant part."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if string_literal(node.right) and node.right.value:
            return "", node.right.value
        if string_literal(node.left) and node.left.value:
            return node.left.value, ""
    if isinstance(node, ast.JoinedStr) and len(node.values) > 1:
        first, last = node.values[0], node.values[-1]
        prefix = first.value if string_literal(first) else ""
        suffix = last.value if string_literal(last) else ""
        return (prefix, suffix) if prefix or suffix else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and string_literal(node.func.value) and "{" in node.func.value.value:
        text = node.func.value.value
        prefix, suffix = text[:text.index("{")], text[text.rindex("}") + 1:]
        return (prefix, suffix) if prefix or suffix else None
    return None


def names_like(names, pattern: tuple[str, str]) -> list[str]:
    """The `names` a computed name of `pattern` (prefix, suffix) may be, sorted."""
    prefix, suffix = pattern
    return sorted(n for n in names if n.startswith(prefix) and n.endswith(suffix) and len(n) > len(prefix) + len(suffix))


def string_literal(node: ast.AST | None) -> bool:
    """A plain string constant (a dict key, a message)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def combine_returns(facts: list):
    """The fact of a function's result from the facts of its `return` values (tuples of one length
    element by element)."""
    if facts and all(isinstance(f, Items) and len(f.facts) == len(facts[0].facts) for f in facts):
        return Items(tuple(combine_returns([f.facts[i] for f in facts]) for i in range(len(facts[0].facts))),
                     tuple(all(f.masks[i] for f in facts) for i in range(len(facts[0].facts))))
    if facts and all(f == SPARSE for f in facts):
        return SPARSE
    if facts and all(f in (TENSOR, SPARSE) for f in facts):
        return TENSOR  # sparse on some paths only: a tensor, not known to be sparse
    if facts and all(f == NUMPY for f in facts):
        return NUMPY
    if facts and all(f == Elements(TENSOR) or isinstance(f, Items) and all(e == TENSOR for e in f.facts) for f in facts) \
            and Elements(TENSOR) in facts:
        return Elements(TENSOR)  # `return torch.where(m)` on one path, a tuple of tensors on another
    if any(f in TENSORISH for f in facts):
        return LIKELY
    if facts and isinstance(facts[0], (Instance, Choice, Module)) and all(f == facts[0] for f in facts):
        return facts[0]  # `return NormalizingFlow(transform, base)`, `return self.embed`: one class
    return VALUE if facts and all(f == VALUE for f in facts) else None


def _as_tuple(call: ast.Call) -> bool:
    """`x.nonzero(as_tuple=True)` / `torch.nonzero(x, as_tuple=True)`: a tuple of index tensors."""
    return any(k.arg == "as_tuple" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)


def sparse_method(name: str):
    """The fact of a sparse tensor's method's result (a conversion's of a tensor's)."""
    return SPARSE if name in SPARSE_KEEPING or name in SPARSE_CONVERSIONS else VALUE if name in VALUE_METHODS else TENSOR


def _combine(facts: list):
    """The fact of an operation on operands: tensor if any is (a sparse one too: the result is taken
    for a dense tensor, which can only miss a use of it), value if all are."""
    if TENSOR in facts or SPARSE in facts:
        return TENSOR
    if LIKELY in facts:
        return LIKELY
    if NUMPY in facts:
        return NUMPY
    return VALUE if all(f == VALUE for f in facts) else None


_MISSING = object()
_KIND = {
    ast.Name: Facts._name,
    ast.Constant: Facts._constant,
    ast.JoinedStr: Facts._constant,
    ast.Attribute: Facts._attribute,
    ast.Call: Facts._call,
    ast.BinOp: Facts._binop,
    ast.Compare: Facts._compare,
    ast.UnaryOp: Facts._unaryop,
    ast.BoolOp: Facts._boolop,
    ast.IfExp: Facts._ifexp,
    ast.Subscript: Facts._subscript,
    ast.NamedExpr: Facts._wrapped,
    ast.Starred: Facts._wrapped,
    ast.Tuple: Facts._tuple,
    ast.List: Facts._display,
    ast.Dict: Facts._display,
}


def comprehension_targets(node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> list[str]:
    """The names a comprehension's `for` clauses bind (local to it)."""
    return [n.id for gen in node.generators for n in walk(gen.target) if isinstance(n, ast.Name)]
