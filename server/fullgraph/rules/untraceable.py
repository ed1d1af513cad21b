"""FG4xx: Python constructs and library calls Dynamo cannot trace."""

from __future__ import annotations

import ast

from fullgraph.analysis.facts import SPARSE, SPARSE_CONSTRUCTORS, SPARSE_CONVERSIONS, TENSORISH, VALUE, Module, is_tensor_qualname
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.nodes import same_code
from fullgraph.analysis.bindings import local_bindings, parameter_names
from fullgraph.rules.common import confidence, last_binding, method_call, snippet
from fullgraph.rules.rule import Rule
from fullgraph.rules.state_getters import UNFOLDED_GETTERS

RULES = [
    Rule(
        "FG401", "deepcopy", "`copy.deepcopy()` in compiled code", ("GB0179", "GB4198"),
        what="Flags `copy.deepcopy` of a tensor, a module, or a literal container holding one.",
        why="Dynamo does not deep-copy tensors (GB4198); a copy of plain Python values (a config's "
            "`__dict__`) traces without a break, so values not known to hold tensors are not flagged.",
        example="saved = copy.deepcopy(x)",
        fixed_example="saved = x.clone()",
        fix_text="Use `tensor.clone()` (or `.detach().clone()`), or copy modules outside the region.",
    ),
    Rule(
        "FG402", "generator-entry", "compiled function is a generator", ("GB0003",),
        what="Flags `yield` in a compiled entry point (a decorated or `torch.compile`d function, a module's "
             "`forward`); not in functions that are entries only by `assume_compiled = \"all\"`: called from "
             "compiled code, a generator is inlined.",
        why="Generators cannot be compiled directly with `torch.compile` (GB0003).",
        example="@torch.compile\ndef chunks(x):\n    for c in x.split(4):\n        yield c * 2",
        fixed_example="@torch.compile\ndef chunks(x):\n    return [c * 2 for c in x.split(4)]",
        fix_text="Return a list/tuple, or compile a non-generator function that calls the generator.",
    ),
    Rule(
        "FG403", "class-in-region", "`class` statement inside compiled code", ("GB8977",),
        what="Flags class definitions inside compiled functions.",
        why="Dynamo cannot trace building a class at run time (GB8977 'Invalid call to __build_class__').",
        example="def forward(self, x):\n    class Out(NamedTuple):\n        y: torch.Tensor\n    return Out(x)",
        fixed_example="class Out(NamedTuple):\n    y: torch.Tensor\n\ndef forward(self, x):\n    return Out(x)",
        fix_text="Define the class at module level.",
    ),
    Rule(
        "FG404", "explicit-graph-break", "`torch._dynamo.graph_break()` call", ("GB0025",),
        what="Flags explicit `torch._dynamo.graph_break()` calls.",
        why="It is a user-inserted graph break (GB0025).",
        example="y = self.a(x)\ntorch._dynamo.graph_break()\nreturn self.b(y)",
        fixed_example="y = self.a(x)\nreturn self.b(y)",
        fix_text="Remove the call (it is usually left over from debugging).",
    ),
    Rule(
        "FG405", "data-ptr-comparison", "comparison of `data_ptr()` values", ("GB5976",),
        what="Flags comparisons whose operands call `.data_ptr()`.",
        why="Dynamo can only trace a data pointer comparison when it can prove both operands share "
            "storage (GB5976).",
        example="if a.data_ptr() == b.data_ptr():\n    b = b.clone()",
        fixed_example="b = b.clone()  # or decide aliasing outside the compiled region",
        fix_text="Decide aliasing outside the compiled region, or clone unconditionally.",
    ),
    Rule(
        "FG406", "requires-grad-mutation", "`requires_grad` changed in compiled code",
        ("GB0206", "GB0125", "GB8985", "GB0225"),
        what="Flags `t.requires_grad = ...` assignments, `t.requires_grad_(...)` calls on tensors (not on "
             "modules, nor `requires_grad_(False)` on a tensor the function made, an element of one (`abc[0]`) "
             "or `x.detach()`, which Dynamo "
             "traces; with a parameter for the value, only where a compiled call may pass a true one, and the "
             "message says so; where the call turns it on, the message adds that it breaks only when the tensor "
             "does not already require grad, and a tensor its factory made with `requires_grad=flag`, turned on "
             "under `if flag:`, is left to the factory's finding), and "
             "tensors created with `requires_grad=` other than `False` (`torch.zeros_like(q, "
             "requires_grad=self.training)`).",
        why="Dynamo does not support setattr() on Tensor.requires_grad (GB0206), nor `requires_grad_()` on a graph "
            "input (GB0125); on a tensor made inside the region it breaks when that tensor (or one derived from "
            "it) is returned (GB8985); a factory call with `requires_grad=True` breaks (GB0225).",
        example="x.requires_grad = True",
        fixed_example="x = x.requires_grad_(True)  # or set it before calling the compiled code",
        fix_text="Set `requires_grad` before the compiled call.",
    ),
    Rule(
        "FG407", "parameter-in-region", "`nn.Parameter(...)` built in compiled code", ("GB0264",),
        what="Flags `torch.nn.Parameter(...)` constructed inside a compiled region.",
        why="With the default `graph_break_on_nn_param_ctor=True`, Dynamo breaks on the constructor (GB0264).",
        example="def forward(self, x):\n    w = nn.Parameter(torch.ones(4))\n    return x * w",
        fixed_example="def __init__(self):\n    super().__init__()\n    self.w = nn.Parameter(torch.ones(4))",
        fix_text="Create parameters in `__init__`.",
    ),
    Rule(
        "FG408", "rnn-module", "call of an `nn.RNN`/`nn.LSTM`/`nn.GRU` submodule", ("GB0014",),
        what="Flags calls of submodules assigned `nn.RNN`, `nn.LSTM` or `nn.GRU` in `__init__`.",
        why="With the default `allow_rnn=False`, Dynamo does not trace RNN modules (GB0014).",
        example="self.rnn = nn.LSTM(16, 32)\n...\nout, _ = self.rnn(x)",
        fixed_example="torch._dynamo.config.allow_rnn = True  # experimental\nout, _ = self.rnn(x)",
        fix_text="Set `torch._dynamo.config.allow_rnn = True` (the quick fix adds that line), or keep the RNN "
                 "outside the compiled region. The setting is experimental and holds for the whole process: "
                 "the recurrence is unrolled into the graph (one copy per time step, long compiles for long "
                 "sequences) instead of the fused RNN kernel.",
        knob="allow_rnn",
    ),
    Rule(
        "FG409", "disabled-function-call", "call of a `torch.compiler.disable`d function", ("GB0098", "GB0099"),
        what="Flags calls of functions in this file decorated with `torch.compiler.disable` "
             "(or `torch._dynamo.disable`).",
        why="Dynamo skips such functions and breaks the graph around the call (GB0098 for a call, "
            "GB0099 when it would inline a disabled method).",
        example="@torch.compiler.disable\ndef debug(x): ...\n\ndef forward(self, x):\n    debug(x)\n    return x",
        fixed_example="def forward(self, x):\n    return x  # call debug() outside the compiled region",
        fix_text="Move the call out of the compiled region, or make the function traceable.",
    ),
    Rule(
        "FG410", "numpy-on-tensor", "NumPy result on a tensor read back into Python", ("GB0033",),
        what="Flags `numpy.*(tensor)` whose result is turned into a Python scalar or list (`float()`, "
             "`int()`, `bool()`, `.item()`, `.tolist()`).",
        why="Dynamo traces NumPy calls on tensors through its `torch._numpy` shim, but reading a value "
            "out of the result is a data-dependent operator it cannot put in the graph (GB0033).",
        example="return x * float(np.array(x).std())",
        fixed_example="return x * x.std(unbiased=False)",
        fix_text="Use the torch function of the same name and keep the result as a tensor.",
    ),
    Rule(
        "FG412", "autograd-call", "`.backward()` / `torch.autograd.grad` in compiled code", ("GB0123", "GB9186"),
        what="Flags `.backward()` calls and `torch.autograd.grad` / `torch.autograd.backward` in compiled code.",
        why="With the default `trace_autograd_ops=False`, Dynamo does not trace autograd calls: "
            "`Tensor.backward()` (GB0123) and `torch.autograd.grad` (GB9186) break the graph.",
        example="@torch.compile\ndef train_step(model, x, y):\n    loss = F.mse_loss(model(x), y)\n"
                "    loss.backward()\n    return loss",
        fixed_example="@torch.compile\ndef compute_loss(model, x, y):\n    return F.mse_loss(model(x), y)\n\n"
                      "loss = compute_loss(model, x, y)\nloss.backward()",
        fix_text="Compile the forward and loss only and call `backward()` outside (compiled autograd "
                 "handles the backward pass), or set `torch._dynamo.config.trace_autograd_ops = True`.",
    ),
    Rule(
        "FG411", "c-extension-call", "call into a C extension or skipped module Dynamo cannot trace",
        ("GB0007", "GB0008", "GB0025", "GB0156", "GB0208"),
        what="Flags calls into known C-extension modules (`zlib`, `hashlib`, `pickle`, `marshal`, `binascii`, "
             "`base64`; `struct.calcsize`, while `struct.pack`/`unpack` of constants fold) and standard-library "
             "calls Dynamo skips: `sys._getframe`, "
             "`inspect.currentframe`/`stack`, `traceback.format_stack`/`extract_stack`, `gc.collect`, "
             "`threading.current_thread`/`get_ident`, `os.getpid`, `uuid.uuid4`, `importlib.import_module`, "
             "`socket.gethostname`, `sys.getrefcount`, the file system (`os.getcwd`, `os.listdir`, `os.stat`, "
             "`os.path.exists`/`isfile`/`isdir`), `json.dumps`/`loads`/`dump`/`load` and `io.StringIO`/`BytesIO` "
             "(whose classes Dynamo cannot make), TorchScript's `torch.jit.isinstance`, torch's own "
             "`torch.nn.utils.rnn.pack_padded_sequence`/`pack_sequence` (marked skipped), a `torch.optim` "
             "optimizer's `zero_grad()` (marked skipped) and `step()` (it calls `graph_break()`) on an optimizer "
             "made in the file (a local or module-level name, `self.opt` made in `__init__`) or a parameter "
             "annotated as one, the warning "
             "filter setters `warnings.simplefilter`/`filterwarnings`/`resetwarnings` (they call C's "
             "`_filters_mutated`; `warnings.catch_warnings()` alone traces), and the backend "
             "flag context managers `torch.backends.cudnn.flags`, `torch.backends.mkldnn.flags`, "
             "`torch.backends.cuda.sdp_kernel`.",
        why="Dynamo cannot trace C functions it has no rules for, nor functions of modules on its skip "
            "list; it marks them as skipped and breaks (GB0007). The backend flag managers are torch calls "
            "returning a non-tensor object (GB0208); `torch.nn.attention.sdpa_kernel` is the traceable one. An "
            "optimizer's `zero_grad` is skipped when inlined (GB0008), and its `step` asks for a break itself "
            "(GB0025): compile the forward and loss, and run the optimizer outside the compiled function.",
        example="key = zlib.crc32(name.encode())",
        fixed_example="# compute the key outside the compiled region",
        fix_text="Compute the value outside the compiled region, or wrap it in a custom op.",
    ),
    Rule(
        "FG413", "outside-context-manager", "`with` on a context-manager object made outside the region",
        ("GB0142",),
        what="Flags `with self.<attr>:` where `__init__` set the attribute to an instance of a class with "
             "`__enter__` (in the project), and `with NAME:` on such an instance made at module level.",
        why="Dynamo can enter a user-defined context manager it creates while tracing, but not one created "
            "before the compiled call: it does not know how to enter it (GB0142).",
        example="def __init__(self):\n    super().__init__()\n    self.scope = Scope()\n...\n"
                "def forward(self, x):\n    with self.scope:\n        return self.net(x)",
        fixed_example="def forward(self, x):\n    with Scope():  # made while tracing\n        return self.net(x)",
        fix_text="Create the context manager inside the compiled code, use a `contextlib.contextmanager` "
                 "function, or enter it outside the compiled call.",
    ),
    Rule(
        "FG414", "sparse-tensor", "sparse tensor built in compiled code", ("GB0374", "GB0007", "GB0015", "GB0277"),
        what="Flags the sparse constructors (`torch.sparse_coo_tensor`, `sparse_csr_tensor`, `sparse_csc_tensor`, "
             "`sparse_bsr_tensor`, `sparse_bsc_tensor`, `sparse_compressed_tensor`) and `.to_sparse*()` "
             "conversions of tensors.",
        why="torch.compile does not support sparse tensors: Dynamo breaks at a sparse constructor (GB0374, or "
            "GB0007 when it skips the builtin) and when an operation produces a sparse tensor it would have to "
            "wrap (GB0015, GB0277).",
        example="adj = torch.sparse_coo_tensor(edge_index, weight, (n, n))\nreturn adj @ x",
        fixed_example="adj = torch.zeros(n, n).index_put((edge_index[0], edge_index[1]), weight, accumulate=True)\n"
                      "return adj @ x",
        fix_text="Keep the computation dense (`index_put`, `scatter_add`), or build the sparse tensor outside "
                 "the compiled region and pass it in dense form.",
    ),
    Rule(
        "FG415", "optional-typeddict", "a TypedDict with optional keys built in compiled code", ("GB0257",),
        what="Flags calls of a `TypedDict` class (of the file, or imported through the project index) that "
             "declares keys it may lack (`total=False`, `NotRequired[...]`, or a base that does).",
        why="Dynamo does not trace building a TypedDict with optional keys (GB0257); a dict literal of the "
            "same keys, which is what the call returns at run time, traces without a break.",
        example="class Message(TypedDict, total=False):\n    name: str\n    value: torch.Tensor\n...\n"
                "msg = Message(name=\"x\", value=x * 2)",
        fixed_example="msg: Message = {\"name\": \"x\", \"value\": x * 2}",
        fix_text="Build the dict with a literal (annotated with the TypedDict for type checkers).",
    ),
    Rule(
        "FG416", "function-attribute-set", "attribute set on a `functools.partial` or a function in compiled code",
        ("GB0467",),
        what="Flags assignments (`p.attr = ...`, `setattr(p, ...)`) to an attribute of a `functools.partial` "
             "object made in the compiled function, or of a function the file defines at module level.",
        why="Dynamo supports `setattr()` only on objects it can track (modules, user objects, tensors); on a "
            "partial or a function object it breaks the graph (GB0467, 'setattr() on unsupported type').",
        example="cond_nn = partial(self.nn, context=context)\ncond_nn.permutation = self.nn.permutation",
        fixed_example="class ConditionedNN(nn.Module):  # an object Dynamo tracks, built outside or in __init__\n"
                      "    ...\ncond_nn = ConditionedNN(self.nn, context)",
        fix_text="Keep the extra attribute on an object Dynamo tracks (a small module or class holding the "
                 "callable and its attributes), or set it once outside the compiled region.",
    ),
    Rule(
        "FG417", "torch-function-introspection", "a torch function's own attributes read in compiled code",
        ("GB4411", "GB0156"),
        what="Flags reading an attribute only functions have (`__kwdefaults__`, `__defaults__`, `__code__`, "
             "`__qualname__`, ...) of a torch function (`torch.meshgrid`, `F.interpolate`), or "
             "`inspect.signature` of one, in compiled code; a bare `is None` / `is not None` test of it is not "
             "flagged, nor are classes (`torch.Tensor`). `__name__` and `__doc__` break too, but a module has "
             "them as well, so they are not flagged.",
        why="Dynamo models torch functions as graph ops, not as Python function objects: it cannot test "
            "membership in their `__kwdefaults__` (GB4411, 'missing sq_contains'), call methods on it "
            "(GB0156), or read most such attributes, and then runs the whole function eagerly (probed on "
            "torch 2.13). The typical use is a version check, whose answer never changes while the "
            "program runs.",
        example="if \"indexing\" in torch.meshgrid.__kwdefaults__:\n    grid = torch.meshgrid(*axes, indexing=\"ij\")",
        fixed_example="_MESHGRID_INDEXING = \"indexing\" in (torch.meshgrid.__kwdefaults__ or {})  # module level\n"
                      "...\nif _MESHGRID_INDEXING:\n    grid = torch.meshgrid(*axes, indexing=\"ij\")",
        fix_text="Compute the answer once at import time, in a module-level constant, and test the constant.",
    ),
    Rule(
        "FG418", "global-state-getter", "a torch getter of global state Dynamo does not fold, called in compiled code",
        ("GB0208",),
        what="Flags argument-free calls of torch's getters of process state that Dynamo does not turn into a "
             "constant: `torch.get_default_device()`, `torch.get_num_threads()`, `torch.is_anomaly_enabled()`, "
             "`torch.get_float32_matmul_precision()`... The list is written by "
             "`scripts/torch_state_getters.py`, which compiles a call of every such getter of the installed "
             "torch; the ones Dynamo folds (`torch.get_default_dtype()`, `torch.is_grad_enabled()`, "
             "`torch.is_autocast_enabled()`, `torch.are_deterministic_algorithms_enabled()`) are not flagged.",
        why="Dynamo does not model these as graph values: the call breaks the graph ('torch.* op returned "
            "non-Tensor', GB0208) or is skipped.",
        example="device = torch.get_default_device()\nreturn x + torch.ones(3, device=device)",
        fixed_example="return x + torch.ones(3, device=x.device)  # or read the setting in __init__",
        fix_text="Take the value from the inputs (`x.device`, `x.dtype`), or read it once outside the compiled "
                 "region (in `__init__`, or at module level) and keep it in an attribute or a constant.",
    ),
    Rule(
        "FG419", "autograd-function-duplicate-input", "one tensor passed twice to an autograd Function's `apply`",
        ("GB6297",),
        what="Flags `F.apply(...)` of a `torch.autograd.Function` subclass when the same tensor name is passed "
             "as two of its arguments (`YosoCumulation.apply(mask, mask, q, k, v)`).",
        why="When an input requires grad (training, or parameters used outside `torch.no_grad()`), Dynamo traces "
            "the Function's `forward` and `backward` together, and only when each tensor input is a distinct "
            "tensor; the same tensor twice breaks the graph ('autograd.Function.apply: duplicate tensor input', "
            "GB6297). Under `torch.no_grad()` it traces.",
        example="out = Cumulate.apply(mask, mask, query, key)",
        fixed_example="out = Cumulate.apply(mask, mask.clone(), query, key)  # if forward does not mutate it",
        fix_text="Pass a copy for the second use (`mask.clone()`) when the Function does not modify its inputs in "
                 "place (`ctx.mark_dirty`), or give the Function one parameter for the shared tensor.",
    ),
    Rule(
        "FG420", "sparse-tensor-use", "sparse tensor used in compiled code", ("GB0015",),
        what="Flags each statement of compiled code that reads a value known to be a sparse tensor: a name or "
             "parameter bound to one (built by a sparse constructor or `.to_sparse*()`, returned by a helper in any "
             "file of the project, or passed by every caller), or a module attribute `__init__` stores or registers "
             "as a buffer that way.",
        why="torch.compile does not support sparse tensors: Dynamo cannot take one into the graph as an input "
            "('Attempted to wrap sparse Tensor', GB0015). It breaks where the sparse value is first read, and "
            "where it cannot resume there it runs the whole function eagerly: a graph convolution whose `forward` "
            "reads a sparse adjacency buffer compiles no graph at all.",
        example="def __init__(self, adj):\n    super().__init__()\n    self.lin = nn.Linear(16, 16)\n"
                "    self.register_buffer(\"adj\", adj.to_sparse())\n...\n"
                "def forward(self, x):\n    return torch.sparse.mm(self.adj, self.lin(x))",
        fixed_example="def __init__(self, adj):\n    super().__init__()\n    self.lin = nn.Linear(16, 16)\n"
                      "    self.register_buffer(\"adj\", adj)  # dense\n...\n"
                      "def forward(self, x):\n    return self.adj @ self.lin(x)",
        fix_text="Keep the matrix dense where it is small enough (a dense product compiles and fuses), or do the "
                 "sparse product outside the compiled region: a helper marked `@torch.compiler.disable` that "
                 "takes and returns dense tensors (one graph break at its call, instead of an eager function).",
    ),
    Rule(
        "FG422", "min-max-generator", "`min()`/`max()` over a generator Dynamo cannot reduce",
        ("GB0059", "GB0193", "GB8335"),
        what="Flags a call of the builtin `min` or `max` whose argument is a generator expression that yields tuple "
             "or list displays (`min((cost(p), p) for p in orders)`), or that is passed with `key=` or "
             "`default=`. Over a generator of plain values, without keywords, Dynamo reduces it, so it is not "
             "flagged; nor is a list comprehension, a `range` or any other iterable.",
        why="Dynamo's `min`/`max` handles a generator only by comparing plain values: with tuples to compare, or a "
            "`key`/`default` keyword, it does not know the call ('Failed to trace builtin operator', GB0059), "
            "or with a keyword fails in its handler ('invalid call to builtin op handler', GB0193), then cannot "
            "hand the half-run generator back to Python ('Generator reconstruction with mutations', GB8335), and "
            "runs the whole function eagerly (probed on torch 2.13). The same call over a list compiles when "
            "what it compares is known while Dynamo traces (static shapes, Python numbers); with dynamic shapes "
            "the list's tuples hold symbolic sizes and `min` breaks on the list too (GB0059), as it did on the "
            "generator.",
        example="shapes = (a.shape, b.shape, c.shape)\n"
                "cost, order = min((shapes[p[0]][0] * shapes[p[-1]][-1], p) for p in itertools.permutations(range(3)))",
        fixed_example="shapes = (a.shape, b.shape, c.shape)\n"
                      "cost, order = min([(shapes[p[0]][0] * shapes[p[-1]][-1], p) for p in itertools.permutations(range(3))])",
        fix_text="Reduce a list comprehension instead of the generator: the same elements, compared in the same "
                 "order, so the result is the same. That removes the break only while what is compared is Python "
                 "numbers Dynamo knows as constants: the quick fix is offered where the engine knows the compared "
                 "values are Python numbers (not tensors, NumPy values or a key's results), and fix-all applies it "
                 "only with unsafe fixes, because a size among them (`x.shape[0]`) turns symbolic once a call with "
                 "other shapes recompiles the code, and the list breaks then too. A choice that depends on sizes "
                 "only can be made outside the compiled region (or cached per shape).",
        fix_kind="list", fix_title="Reduce a list instead of a generator",
    ),
]

RNN_CLASSES = frozenset(("torch.nn.RNN", "torch.nn.LSTM", "torch.nn.GRU"))
# Attributes only a Python function object has (a module has none of them), read by introspection.
FUNCTION_DUNDERS = frozenset(("__kwdefaults__", "__defaults__", "__qualname__", "__code__", "__globals__",
                              "__closure__", "__wrapped__"))
SIGNATURE_CALLS = frozenset(("inspect.signature", "inspect.getfullargspec", "inspect.getsource", "inspect.getdoc"))
# Standard-library modules whose functions are C builtins Dynamo does not trace (checked with torch
# 2.13: `zlib.crc32`, `hashlib.md5`, `pickle.dumps`/`loads`, `marshal.dumps`, `binascii.hexlify`,
# `base64.b64encode`/`b64decode`, which call binascii); not `struct`, whose `pack`/`unpack` it folds.
C_EXTENSIONS = ("zlib.", "hashlib.", "pickle.", "marshal.", "binascii.", "base64.")
# Standard-library calls Dynamo does not trace (C builtins, or modules on its skip list), each
# checked with torch 2.13: frames, stacks, the garbage collector, process and thread ids, imports,
# the file system, JSON and in-memory files (whose classes it cannot make);
# and TorchScript's `torch.jit.isinstance` (its helpers `is_scripting` and `annotate` are traced).
SKIPPED_CALLS = frozenset((
    "sys._getframe", "sys.getrefcount", "inspect.currentframe", "inspect.stack", "traceback.format_stack",
    "traceback.extract_stack", "gc.collect", "threading.current_thread", "threading.get_ident", "os.getpid",
    "uuid.uuid4", "importlib.import_module", "socket.gethostname", "torch.jit.isinstance",
    "struct.calcsize", "os.getcwd", "os.listdir", "os.stat", "os.path.exists", "os.path.isfile", "os.path.isdir",
    "json.dumps", "json.loads", "json.dump", "json.load", "io.StringIO", "io.BytesIO",
    "warnings.simplefilter", "warnings.filterwarnings", "warnings.resetwarnings",  # C `_filters_mutated`
    "torch.nn.utils.rnn.pack_padded_sequence", "torch.nn.utils.rnn.pack_sequence",  # on Dynamo's skip list
))
# torch calls that return a non-tensor object Dynamo cannot trace (backend flag context managers).
TORCH_NON_TENSOR_CALLS = frozenset(("torch.backends.cudnn.flags", "torch.backends.mkldnn.flags",
                                    "torch.backends.cuda.sdp_kernel"))


def _in_function_backward(w) -> bool:
    """In an autograd Function's `backward`, which Dynamo traces as the backward graph: changing
    `requires_grad` there does not break (probed on torch 2.13)."""
    cls = w.function.cls
    return cls is not None and w.function.node.name == "backward" and w.index.is_autograd_function(cls.name)


def _optimizer(node: ast.expr, w) -> str | None:
    """The `torch.optim` class (not a scheduler) whose instance ``node`` holds: a local or module-level
    name made by calling it, a parameter annotated with it, or `self.<name>` that `__init__` makes."""
    spelling: str | None = None
    if isinstance(node, ast.Name):
        value = last_binding(w.function.node, node.id, node.lineno)
        arg = next((a for a in w.function.node.args.args + w.function.node.args.kwonlyargs if a.arg == node.id), None)
        if isinstance(value, ast.Call):
            spelling = dotted(value.func)
        elif arg is not None:
            spelling = dotted(arg.annotation) if arg.annotation is not None else None
        elif node.id not in w.facts.env:
            spelling = w.index.assigned_calls.get(node.id)
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
            and w.function.cls is not None:
        spelling = w.index.attr_class(w.function.cls, node.attr)
    q = w.index.aliases.resolve_spelling(spelling) if spelling else None
    if q is None or not q.startswith("torch.optim.") or q.startswith(("torch.optim.lr_scheduler", "torch.optim.swa")):
        return None
    return q.rpartition(".")[2]


def check_call(node: ast.Call, w) -> None:
    func = node.func
    spelling = dotted(func)
    if spelling and spelling.partition(".")[0] not in w.facts.env and w.index.optional_typed_dict(spelling):
        w.report("FG415", node, f"`{spelling}(...)` builds a TypedDict with optional keys in compiled code")
        return
    q = w.resolve(func)
    if q is not None:
        if q == "copy.deepcopy":
            if node.args and _holds_tensors(node.args[0], w):
                w.report("FG401", node, f"`{snippet(node)}` deep-copies tensors in compiled code",
                         confidence(w, node.args[0]), gb_ids=("GB4198",))
        elif q == "torch._dynamo.graph_break":
            w.report("FG404", node, "explicit `torch._dynamo.graph_break()`")
        elif q in ("torch.nn.Parameter", "torch.nn.parameter.Parameter"):
            w.report("FG407", node, f"`{snippet(node)}` builds a Parameter in compiled code")
        elif q in ("torch.autograd.grad", "torch.autograd.backward"):
            w.report("FG412", node, f"`{q}(...)` runs autograd in compiled code", gb_ids=("GB9186",))
        elif q.startswith(C_EXTENSIONS):
            w.report("FG411", node, f"`{q}(...)` calls a C extension Dynamo cannot trace")
        elif q in SKIPPED_CALLS:
            w.report("FG411", node, f"`{q}(...)` is a call Dynamo skips: it breaks the graph there")
        elif q in SPARSE_CONSTRUCTORS:
            w.report("FG414", node, f"`{q}(...)` builds a sparse tensor in compiled code", gb_ids=("GB0374", "GB0007"))
        elif is_tensor_qualname(q) and _asks_grad(node):
            w.report("FG406", node, f"`{snippet(node)}` creates a tensor that requires grad in compiled code",
                     "certain" if _asks_grad(node) is True else "likely", gb_ids=("GB0225",))
        elif q in SIGNATURE_CALLS and node.args and _torch_function(node.args[0], w):
            w.report("FG417", node, f"`{snippet(node)}` introspects a torch function, which Dynamo does not trace")
        elif q in UNFOLDED_GETTERS and not node.args and not node.keywords:
            w.report("FG418", node, f"`{q}()` reads global state Dynamo does not fold: it breaks the graph")
        elif q in TORCH_NON_TENSOR_CALLS:
            w.report("FG411", node, f"`{q}(...)` returns a non-tensor object Dynamo does not trace",
                     gb_ids=("GB0208",))
        return
    made = _optimizer(func.value, w) if method_call(node, "step", "zero_grad") else None
    if made is not None:
        why = "is marked skipped" if node.func.attr == "zero_grad" else "calls `torch._dynamo.graph_break()`"
        w.report("FG411", node, f"`{snippet(node)}` runs the torch optimizer `{made}` in compiled code: "
                                f"`Optimizer.{node.func.attr}` {why}, so Dynamo breaks there",
                 gb_ids=("GB0008",) if node.func.attr == "zero_grad" else ("GB0025",))
        return
    twice = _duplicate_apply_input(node, w)
    if twice is not None:
        w.report("FG419", node, f"`{snippet(node)}` passes `{twice}` twice to an autograd Function: Dynamo breaks "
                 "the graph there when an input requires grad")
    if method_call(node, "requires_grad_") and not is_module(func.value, w) and not _in_function_backward(w) \
            and not _made_requiring_grad(node, w):
        cleared = _clears_own_tensor(node, w)
        if cleared is not True:
            w.report("FG406", node, f"`{snippet(node)}` changes requires_grad in compiled code"
                     + _already_requires_grad(node, func.value), confidence(w, func.value),
                     gb_ids=("GB0125", "GB8985"), when=cleared)
    if isinstance(func, ast.Attribute) and func.attr in SPARSE_CONVERSIONS and w.kind(func.value) in TENSORISH:
        w.report("FG414", node, f"`{snippet(node)}` makes a sparse tensor in compiled code", confidence(w, func.value),
                 gb_ids=("GB0015", "GB0277"))
    if method_call(node, "backward"):
        w.report("FG412", node, f"`{snippet(node)}` runs autograd in compiled code",
                 confidence(w, func.value), gb_ids=("GB0123",))
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        fact = w.kind(func)
        if isinstance(fact, Module) and fact.cls in RNN_CLASSES:
            w.report("FG408", node, f"`self.{func.attr}` is an `nn.{fact.cls.rpartition('.')[2]}` module, which Dynamo "
                                    "does not trace")
    if isinstance(func, ast.Name) and func.id == "setattr" and func.id not in w.facts.env and node.args \
            and isinstance(node.args[0], ast.Name):
        _function_attribute(node, node.args[0].id, w)
    if min_max_generator(node) and w.is_builtin(func.id):
        generator = node.args[0]
        with w.facts.comprehension_scope(generator):  # what the compared elements are, known as Python numbers
            numbers = not node.keywords and all(w.kind(e) == VALUE for e in generator.elt.elts)
        w.report("FG422", node, f"`{func.id}()` over a generator {_generator_trouble(node)}: Dynamo cannot reduce it "
                                "and runs the function eagerly", facts=(("numbers", numbers),))
    callee = w.callee(node)
    if callee is not None and callee.disabled:
        w.report("FG409", node, f"`{callee.qualname}` is decorated with torch.compiler.disable")


def min_max_generator(node: ast.Call) -> bool:
    """`min`/`max` (by name) of one generator expression that yields tuple or list displays, or with
    keywords (`key=`, `default=`): what Dynamo's reduction of a generator does not handle."""
    return isinstance(node.func, ast.Name) and node.func.id in ("min", "max") and len(node.args) == 1 \
        and isinstance(node.args[0], ast.GeneratorExp) \
        and (bool(node.keywords) or isinstance(node.args[0].elt, (ast.Tuple, ast.List)))


def _generator_trouble(node: ast.Call) -> str:
    if node.keywords:
        return "with " + ", ".join(f"`{k.arg}=`" for k in node.keywords if k.arg)
    return "of tuples" if isinstance(node.args[0].elt, ast.Tuple) else "of lists"


def _asks_grad(call: ast.Call) -> bool | str:
    """True for `requires_grad=True`, "maybe" for a value that is not the constant False."""
    value = next((k.value for k in call.keywords if k.arg == "requires_grad"), None)
    if value is None or isinstance(value, ast.Constant) and value.value is False:
        return False
    return True if isinstance(value, ast.Constant) and value.value is True else "maybe"


def _holds_tensors(node: ast.expr, w) -> bool:
    """A tensor, a module, or a literal container of them: what `copy.deepcopy` cannot trace (Dynamo
    copies plain Python values, a config's `__dict__`, without a break)."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_holds_tensors(e, w) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(_holds_tensors(v, w) for v in node.values)
    return w.kind(node) in TENSORISH or is_module(node, w)


def is_module(node: ast.expr, w) -> bool:
    """`self` in a method of an nn.Module class, or a value known to be a module."""
    if isinstance(node, ast.Name) and node.id == "self" and w.function.cls is not None:
        return bool(w.index.is_module_class(w.function.cls.name))
    return isinstance(w.kind(node), Module)


def _made_requiring_grad(call: ast.Call, w) -> bool:
    """`t.requires_grad_()` turning on a tensor its factory made with `requires_grad=flag`, under
    `if flag:` (maskformer: `torch.zeros_like(q, requires_grad=self.training)`, then `if
    self.training: q.requires_grad_(True)`): it already requires grad there, so the call changes
    nothing and Dynamo traces it (the factory call is the finding)."""
    tensor, value = call.func.value, call.args[0] if call.args else None
    if not isinstance(tensor, ast.Name) or value is not None and not (isinstance(value, ast.Constant) and value.value is True):
        return False
    made = last_binding(w.function.node, tensor.id, call.lineno)
    asked = next((k.value for k in made.keywords if k.arg == "requires_grad"), None) \
        if isinstance(made, ast.Call) and _asks_grad(made) else None
    if asked is None or local_bindings(w.function.node).get(tensor.id) != [made]:
        return False
    return _asks_grad(made) is True or any(holds and same_code(test, asked) for test, holds in w.conditions)


def _already_requires_grad(call: ast.Call, tensor: ast.expr) -> str:
    """The note that turning requires_grad on breaks only where it is off (probed: on a tensor that
    already requires grad, an input or computed from one, `requires_grad_()` changes nothing and Dynamo
    traces it)."""
    value = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "requires_grad"), None)
    if value is not None and not (isinstance(value, ast.Constant) and value.value is True):
        return ""
    detached = isinstance(tensor, ast.Call) and method_call(tensor, "detach")
    if detached or isinstance(tensor, ast.Attribute) and tensor.attr == "data":
        return ""  # never requires grad
    return f" (unless `{snippet(tensor)}` already requires grad: then the call changes nothing and Dynamo traces it)"


def _duplicate_apply_input(node: ast.Call, w) -> str | None:
    """The tensor name `F.apply(...)` of an autograd Function of the file passes twice, if any."""
    if not w.applies_autograd_function(node):
        return None
    names = [a.id for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Name) and w.is_tensor(a)]
    return next((n for i, n in enumerate(names) if n in names[:i]), None)


def check_with(node: ast.With, w) -> None:
    for item in node.items:
        expr = item.context_expr
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self" \
                and w.function.cls is not None:
            spelling = w.index.attr_class(w.function.cls, expr.attr)
        elif isinstance(expr, ast.Name) and expr.id not in w.facts.env:
            spelling = w.index.assigned_calls.get(expr.id)
        else:
            continue
        if spelling and w.index.class_method(spelling, "__enter__") is not None:
            w.report("FG413", expr, f"`with {snippet(expr)}` enters a `{spelling}` made outside the compiled region")


def check_compare(node: ast.Compare, w) -> None:
    operands = [node.left, *node.comparators]
    if any(isinstance(o, ast.Call) and method_call(o, "data_ptr") for o in operands):
        w.report("FG405", node, f"`{snippet(node)}` compares data pointers")


def check_assign(node: ast.Assign | ast.AugAssign | ast.AnnAssign, w) -> None:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if isinstance(target, ast.Attribute) and target.attr == "requires_grad":
            confidence = "certain" if w.is_tensor(target.value) else "likely"
            w.report("FG406", target, f"`{snippet(target)} = ...` mutates requires_grad in compiled code",
                     confidence)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            _function_attribute(target, target.value.id, w)


def _function_attribute(node: ast.AST, name: str, w) -> None:
    """FG416 when ``name`` is a partial made in this function or a module-level function of the file."""
    if name == "self" or w.facts.env.get(name) is not None:  # a module, a tensor, a value: not a function object
        return
    local = local_bindings(w.function.node)
    made = local.get(name)
    if name not in local and name not in w.facts.env:
        kind = "function" if name in w.index.functions else None
    else:
        kind = "partial" if made and all(isinstance(v, ast.Call) and w.resolve(v.func) == "functools.partial"
                                         for v in made) else None
    if kind is not None:
        what = "a `functools.partial` object" if kind == "partial" else f"the module-level function `{name}`"
        shown = f"{snippet(node)} = ..." if isinstance(node, ast.Attribute) else snippet(node)
        w.report("FG416", node, f"`{shown}` sets an attribute of {what} in compiled code")


def _clears_own_tensor(node: ast.Call, w) -> bool | tuple[ast.Name, bool] | None:
    """`t.requires_grad_(False)` on a tensor the function made (bound only by `=`, not a parameter),
    an element of one (`abc[0]`) or on `x.detach()`: Dynamo traces it (only a graph input that
    requires grad breaks), so True.
    With a parameter for the value (`requires_grad_(requires_grad)`), the test under which it breaks:
    `(requires_grad, True)`. None otherwise."""
    off = [*node.args, *(k.value for k in node.keywords if k.arg == "requires_grad")]
    flag = off[0] if len(off) == 1 else None
    if not (isinstance(flag, ast.Constant) and flag.value is False or isinstance(flag, ast.Name)):
        return None
    receiver, fn = node.func.value, w.function.node
    params = parameter_names(fn)
    while isinstance(receiver, ast.Subscript):
        receiver = receiver.value
    fresh = method_call(receiver, "detach") and not receiver.args if isinstance(receiver, ast.Call) else \
        isinstance(receiver, ast.Name) and receiver.id not in params and bool(local_bindings(fn).get(receiver.id))
    if not fresh:
        return None
    if isinstance(flag, ast.Constant):
        return True
    return (flag, True) if flag.id in params and not local_bindings(fn).get(flag.id) else None


def check_yield(node: ast.Yield | ast.YieldFrom, w) -> None:
    if w.is_entry and not w.function.inlined and not any(r.code == "FG402" for r in w.raws):
        # an assumed or dispatched entry is called from compiled code, and Dynamo inlines generators
        w.report("FG402", node, f"`{w.function.qualname}` is a generator; it cannot be compiled")


def check_attribute(node: ast.Attribute, w) -> None:
    if type(node.ctx) is ast.Load and isinstance(node.value, ast.Name) and node.value.id == "self" \
            and w.kind(node) == SPARSE:
        _sparse_use(node, w)
        return
    if node.attr not in FUNCTION_DUNDERS or not _torch_function(node.value, w):
        return
    test = w.parent()
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return  # Dynamo answers `is None` on it; a membership test, a call or a read breaks
    w.report("FG417", node, f"`{snippet(node)}` reads an attribute of the torch function "
                            f"`{snippet(node.value)}`: Dynamo cannot trace it and runs this function eagerly")


def _torch_function(node: ast.expr, w) -> bool:
    """A torch function (resolved to `torch.*`, its last name not a class's capitalised one)."""
    q = w.resolve(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    return bool(q) and q.startswith("torch.") and q.rpartition(".")[2][:1].islower()


def check_name(node: ast.Name, w) -> None:
    if type(node.ctx) is ast.Load and w.facts.env.get(node.id) == SPARSE:
        _sparse_use(node, w)


def _sparse_use(node: ast.Name | ast.Attribute, w) -> None:
    """FG420 at a read of a sparse tensor, unless a statement that always runs before this one (earlier in
    a block holding it) read the same value: Dynamo broke there, and runs the rest of the function eagerly."""
    spelling = dotted(node)
    earlier = [r.node.lineno for r in w.raws if r.code == "FG420" and dotted(r.node) == spelling]
    if earlier and _after_any(w, earlier):
        return
    w.report("FG420", node, f"`{spelling}` is a sparse tensor: Dynamo cannot take it into the graph, so it "
                            "breaks here (and may run the whole function eagerly)", gb_ids=("GB0015",))


def _after_any(w, lines: list[int]) -> bool:
    """Whether the current statement spans one of ``lines``, or follows, in a block that holds it, a
    statement that does."""
    statement = next((p for p in reversed(w.parents) if isinstance(p, ast.stmt)), None)
    if statement is not None and any(statement.lineno <= line <= statement.end_lineno for line in lines):
        return True
    path = [w.function.node, *w.parents]
    for parent, child in zip(path, path[1:]):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            at = next((i for i, s in enumerate(block) if s is child), None) if isinstance(block, list) else None
            if at is not None and any(s.lineno <= line <= s.end_lineno for s in block[:at] for line in lines):
                return True
    return False


def check_class(node: ast.ClassDef, w) -> None:
    w.report("FG403", node, f"class `{node.name}` is defined inside compiled code")


CHECKS = {
    ast.Call: [check_call],
    ast.Compare: [check_compare],
    ast.Assign: [check_assign],
    ast.AugAssign: [check_assign],
    ast.AnnAssign: [check_assign],
    ast.Yield: [check_yield],
    ast.YieldFrom: [check_yield],
    ast.ClassDef: [check_class],
    ast.Name: [check_name],
    ast.With: [check_with],
    ast.Attribute: [check_attribute],
}
