"""FG3xx: Python side effects (printing, logging, warnings, I/O, clocks, RNG state)."""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary

from fullgraph.analysis.bindings import local_bindings
from fullgraph.analysis.nodes import self_attribute, walk
from fullgraph.analysis.epilogue import EpilogueScan, in_epilogue
from fullgraph.analysis.facts import NUMPY_DRAW_SIZES, RNG_CLASSES, TENSORISH, TRACED_DRAWS
from fullgraph.analysis.summary import LOGGER_FACTORY
from fullgraph.rules.common import builtin_call, snippet
from fullgraph.rules.rule import Rule
from fullgraph.rules.tensor_to_python import size_arguments

_EPILOGUE = (" Not reported in epilogue position: in the compiled entry, after some tensor work, followed only "
             "by other print/logging/warnings calls or stream writes and a plain `return` (names, non-tensor attributes, "
             "constants). Dynamo still breaks there, but the graph before the break holds all the tensor "
             "work, so no second graph follows. Reported there too when the entry is compiled with `fullgraph=True` "
             "(`torch.compile(model, fullgraph=True)` in any workspace file, or the decorator): Dynamo then raises at "
             "any break.")
_DEFER_FIX = ("The fix defers the call until the compiled module returns: while compiled, the call is handed to "
              "`_fullgraph_defer` (a lambda whose default arguments capture the tensor values it needs where it "
              "stood; `.item()`, `str()` and formatting run at the replay), and the module class whose `forward` "
              "runs it gets a `@replay_deferred` decorator that registers two hooks on each of its modules, as does"
              " every module class of the file that makes it (`self.encoder = Encoder(config)`, directly or through"
              " other classes) and whose `forward` is seen to run it. `torch.compile(module)` runs the compiled "
              "module's hooks outside the graph: the first counts the call as running, the second (also when "
              "`forward` raises) replays the queue once the compiled `forward` has returned, so no break is left. "
              "Where nothing would replay it, the call is made at once, as before: run eagerly; under "
              "`torch.export` (strict or not, which takes the fixed module as it takes the original); with "
              "`forward` compiled on its own; and inside the compiled graph of a module the fix did not decorate, "
              "where Dynamo ignores the hooks (the break stays there). The printed text is the same, after the "
              "module's tensor work instead of in the middle of it. The call must be in the module's `forward` or "
              "in a helper only that `forward` calls, with no other print/logging/warnings call after it (later in "
              "its function, or earlier in a loop around it: the next iteration runs it), which it would pass. "
              "A call that is all an `if` on a tensor does (`if torch.isnan(y).any(): logger.warning(...)`, or "
              "`if loss.item() > 10:`; no `else`) is deferred with its `if`: the test is computed in the graph as a "
              "boolean tensor (`and`/`or`/`not` as `torch.logical_*`, `.item()` dropped) and captured with the call's values, and the replay makes the call "
              "only if it holds, so neither the test nor the call breaks the graph; the Python operands of a "
              "top-level `and` stay a real `if` around it, and every other operand must be known to be a tensor "
              "(else the call alone is deferred, inside the `if`, which still breaks). "
              "A call that starts or ends a longer branch (`if torch.isnan(y).any(): print(...); "
              "y = torch.nan_to_num(y)`) takes the test along in the same way: the test is computed once before "
              "the `if` (`cond = torch.isnan(y).any()`), the deferred call captures it, and the `if` on `cond` "
              "keeps the rest of its body, which predication then turns into `torch.where` (fix-all applies "
              "both). It is offered only where that predication applies to the rest, and, for a call that "
              "ends the branch, where the call reads nothing the branch computes; else the `if` would still "
              "break. "
              "Fix-all applies it to module classes. It leaves it to you (a quick fix, or `fullgraph fix "
              "--unsafe-fixes`) when other output (in any file, libraries included) may run after the call within a"
              " call of a module that replays it: found by following the calls from each replaying `forward` and "
              "the order of their statements (output only before the call, as a warning before the encoder runs, "
              "does not count; output deferred too replays in order); when a class that replays it also runs inside"
              " a module of another workspace file, a function entry, or a module of the file whose `forward` is "
              "not seen to call it (made through a local name), where the break stays; and for any other entry (a "
              "function, another method), which gets a wrapper Dynamo does not trace "
              "(`torch.compiler.disable(recursive=False)`) that `torch.export` refuses. A class made by a factory "
              "(`AutoModel.from_config(...)`) or by your own modules is not seen; there the call is made in place, "
              "as before. A captured tensor that another name may hold (a name, an attribute, an element or view "
              "of one) is copied where the call stood (`.clone()`; `isinstance(..., torch.Tensor)` decides where "
              "the engine does not know its type), so a later in-place change (a submodule built with "
              "`inplace=True`, a helper, the caller) does not reach the replay; a list, dict or set is copied too "
              "(shallow: a helper appending to it afterwards does not change what is printed). The replaying hook "
              "goes before the module's own "
              "forward hooks, as the call came before them. Known differences: the hooks make each call take "
              "`nn.Module`'s hook path; a copied tensor's `grad_fn=` tag reads `CloneBackward0` when compiled "
              "with `backend=\"eager\"` (the default backend prints `CompiledFunctionBackward` before and after, "
              "unless the original's break made Dynamo run the frame eagerly, where it printed the eager tag); "
              "where the compiled graph itself fails (a shape mismatch, an index out of range in a kernel), the "
              "queued call is lost with the graph's other effects, while the original had printed before failing; "
              "and the module no longer compiles with `torch.jit.script` (code written for TorchScript is "
              "declined, with the reason).")
_PRINT_OPERATOR = ("When the project's torch has it, a quick fix (the first, unless the deferral below is safe; "
                   "for a print of constants alone, always) "
                   "rewrites the call to "
                   "`torch._higher_order_ops.print(format, *values)` while compiled (`if "
                   "torch.compiler.is_compiling():`; eagerly the original call stays, as `torch.jit.trace` has no "
                   "kernel for the operator), torch's print operator: Dynamo keeps it in "
                   "the graph, so the break is gone, and it prints the same text eagerly and compiled (checked on "
                   "torch 2.13, eager, aot_eager and inductor backends). It carries only tensors the engine knows, "
                   "sizes read from them (`t.shape[0]`, `t.size(1)`, `len(t)`) and constants: a `torch.Size` (it "
                   "would print as a tuple), other objects, a module attribute (it may be a parameter), `end=` and "
                   "`file=` are declined, with the reason. It is an unsafe fix: compiled under autograd, the "
                   "tensors it prints lose their `grad_fn=` tag. A print of constants alone "
                   "(`print(\"Warning: slow path\")`) prints the same line in the same place: a safe fix, which "
                   "fix-all applies. Otherwise: ")

RULES = [
    Rule(
        "FG301", "print", "`print()` in compiled code", ("GB0059",),
        what="Flags `print()` calls in compiled regions." + _EPILOGUE,
        why="`print` is a Python builtin with side effects that Dynamo does not trace; it breaks the "
            "graph (GB0059).",
        example="def forward(self, x):\n    y = self.proj(x)\n    print(\"y\", y.norm())\n    return y.relu()",
        fixed_example="def forward(self, x):\n    y = self.proj(x)\n    if torch.compiler.is_compiling():\n"
                      "        torch._higher_order_ops.print(\"y {!s}\", y.norm())\n    else:\n"
                      "        print(\"y\", y.norm())\n    return y.relu()",
        fix_text=_PRINT_OPERATOR + _DEFER_FIX + " Adding `print` to "
                 "`torch._dynamo.config.reorderable_logging_functions` is not offered: it applies to every "
                 "compiled function, and in torch 2.13 a reordered call in a function Dynamo inlines (a helper, "
                 "a submodule's `forward`) is silently dropped.",
        fix_kind="defer", fix_title="Defer until the compiled entry returns, or print with torch's print operator",
    ),
    Rule(
        "FG302", "logging", "logging call in compiled code", ("GB0291",),
        what="Flags logger calls (`logger.info`, `logging.warning`, `logger.isEnabledFor`, Hugging Face's "
             "`logger.warning_once`, ...) in compiled regions." + _EPILOGUE,
        why="Dynamo does not trace `logging.Logger` methods (GB0291) unless they are listed in "
            "`torch._dynamo.config.ignore_logging_functions`.",
        example="logger.info(\"attention scores %s\", scores.shape)",
        fixed_example="# deferred to after the traced code, or removed\n"
                      "logger.info(\"attention scores %s\", scores.shape)",
        fix_text=_DEFER_FIX + " Alternatively add the method to "
                 "`torch._dynamo.config.ignore_logging_functions` (second quick fix, via its alias "
                 "`ignore_logger_methods`): the trade-off is that the call becomes a no-op under "
                 "torch.compile, so the message is lost rather than deferred. A deferred record is made by the "
                 "replay: a format that prints `%(funcName)s` or `%(lineno)d` shows the replay's.",
        fix_kind="defer", fix_title="Defer logging until the compiled entry returns",
    ),
    Rule(
        "FG303", "warnings-warn", "`warnings.warn()` in compiled code", ("GB0007",),
        what="Flags `warnings.warn` calls in compiled regions." + _EPILOGUE,
        why="`warnings.warn` is the C builtin `_warnings.warn`, which Dynamo marks as skipped (GB0007).",
        example="if self.training:\n    warnings.warn(\"dropout is on\")",
        fixed_example="# emit the warning outside the compiled region (or deferred)",
        fix_text=_DEFER_FIX + " The deferral is an unsafe fix: Python reports a warning at the line that calls "
                 "`warnings.warn` (and filters repeats by it), which is then the replay's line.",
        fix_kind="defer", fix_title="Defer the warning until the compiled entry returns",
    ),
    Rule(
        "FG304", "file-or-stream-io", "file or stream I/O in compiled code", ("GB0156", "GB0059", "GB0142"),
        what="Flags `open()`, `input()`, `sys.stdout/stderr/stdin` methods, `torch.save/load`, "
             "`numpy.save/load` and `json.dump/load` in compiled regions. A write to `sys.stdout` or "
             "`sys.stderr`, like print, is" + _EPILOGUE.replace(" Not reported", " not reported", 1),
        why="I/O is a side effect implemented in C; Dynamo cannot trace stream methods (GB0156 "
            "'Unsupported method call'), `open()` (GB0059) or file objects as context managers (GB0142).",
        example="with open(\"debug.txt\", \"a\") as f:\n    f.write(str(x.shape))",
        fixed_example="# do the I/O outside the compiled function",
        fix_text="A write to `sys.stdout` or `sys.stderr` (`write`, `writelines`, `flush`) made as a statement "
                 "is deferred as print is. " + _DEFER_FIX + " Other I/O (`open()`, `input()`, saving and "
                 "loading) has no rewrite, as its result is used or it must happen where it stands: move it out "
                 "of the compiled region.",
        fix_kind="defer", fix_title="Defer the stream write until the compiled entry returns",
    ),
    Rule(
        "FG305", "time-call", "`time.*` call in compiled code", ("GB0007",),
        what="Flags calls into the `time` module (`time.time()`, `time.perf_counter()`, ...).",
        why="`time` functions are C builtins Dynamo marks as skipped (GB0007); a value read at trace "
            "time would also be baked into the graph.",
        example="start = time.perf_counter()\ny = self.block(x)",
        fixed_example="y = self.block(x)  # time the compiled call from outside",
        fix_text="Time the compiled call from outside, or use the profiler.",
    ),
    Rule(
        "FG306", "python-random", "Python `random` / `numpy.random` in compiled code",
        ("GB0007", "GB0033", "GB0170", "GB0213", "GB4841"),
        what="Flags calls into `random` and `numpy.random` that Dynamo skips, scalar draws of the `numpy.random` "
             "functions it does trace (`np.random.rand()`, `np.random.uniform(0, 1)`: no size), and Python work on "
             "the draws of `random` it traces (`random.randint`, `uniform`, `randrange`, and the methods of a "
             "`random.Random(seed)` generator): a branch on a draw (also through a name or a comparison, "
             "`is_last = i == k`), Python arithmetic on one (`k + 1`), `range(k)`, one used as a tensor's index or "
             "slice bound (`x[:, k:]`) or as a size (`x.narrow(1, 0, k)`), also after an `if` that draws it on "
             "one side only (the message names that side's condition). Array draws of "
             "`numpy.random.rand`/`randn`/`random`/`random_sample`/`sample`/`uniform`/`normal`/`randint` (given a "
             "size) and `numpy.random.seed` are not flagged: torch 2.13 reimplements them on its own generator "
             "and Dynamo traces them (the draws then differ from NumPy's stream).",
        why="These generators keep state outside torch. Dynamo cannot trace most of them (GB0007); a scalar "
            "draw of torch's NumPy layer reads its value (`.item()`, GB0033); the `random` draws it does trace "
            "become graph values (unspecialized ints and floats), so Python branching on one "
            "is data-dependent (GB0170), a builtin operator on one breaks (GB0213), and so do `range()` over "
            "one (GB4841) and an index, slice bound or size, which must be a Python int (GB0033, GB0124). "
            "A tensor times a draw, or a draw as `clamp`'s bound, is graph work.",
        example="if random.random() < self.p:\n    x = x.flip(-1)",
        fixed_example="flip = torch.rand(()) < self.p\nx = torch.where(flip, x.flip(-1), x)",
        fix_text="Use torch's RNG (`torch.rand`, `torch.randint`, `torch.bernoulli`).",
    ),
    Rule(
        "FG307", "manual-seed", "RNG seeding in compiled code", ("GB0007",),
        what="Flags `torch.manual_seed`, `torch.seed`, `torch.cuda.manual_seed(_all)` and "
             "`torch.set_rng_state`.",
        why="Reseeding mutates global generator state, which Dynamo does not trace (GB0007).",
        example="torch.manual_seed(0)\nnoise = torch.randn_like(x)",
        fixed_example="# seed once, outside the compiled region\nnoise = torch.randn_like(x)",
        fix_text="Seed outside the compiled region.",
    ),
    Rule(
        "FG308", "torch-generator", "a `torch.Generator` made or used in compiled code",
        ("GB0363", "GB7650", "GB0055"),
        what="Flags `torch.Generator(...)` in compiled code, the methods of a generator (`manual_seed`, "
             "`seed`, `initial_seed`, `get_state`, `set_state`), and a random op given one "
             "(`torch.randn(shape, generator=g)`, `x.normal_(generator=g)`). A generator is known when the "
             "function makes it, `__init__` stores one on `self` (`self.gen = torch.Generator()`), the "
             "module makes one at top level, or a parameter is annotated `torch.Generator` (not "
             "Optional: `None` costs nothing).",
        why="A generator is an opaque object: Dynamo cannot create one in a graph ('An opaque object was "
            "created in the middle of the program', GB0363), does not trace its methods (GB7650), and cannot "
            "pass one to an op as a graph input (GB0055, 'Failed to convert args/kwargs to proxy'). Each is a graph break "
            "(probed on torch 2.13).",
        example="g = torch.Generator().manual_seed(seed)\nnoise = torch.randn(x.shape, generator=g)",
        fixed_example="torch.manual_seed(seed)  # outside the compiled region\nnoise = torch.randn_like(x)",
        fix_text="Draw from the default generator inside the compiled region and seed it outside; or draw "
                 "the noise outside and pass it in as a tensor.",
    ),
]

LOG_METHODS = frozenset(
    ["debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "isEnabledFor", "warning_once", "info_once", "warning_advice"]
)
LOGGER_NAMES = frozenset(("logger", "log", "LOGGER", "LOG", "_logger", "_log", "logging"))
IO_CALLS = frozenset(("torch.save", "torch.load", "numpy.save", "numpy.load", "numpy.savez", "numpy.savetxt",
                      "numpy.loadtxt", "json.dump", "json.load", "pickle.dump", "pickle.load", "os.makedirs",
                      "os.remove", "shutil.copy", "shutil.rmtree"))
WARN_CALLS = frozenset(("warnings.warn", "warnings.warn_explicit"))
STREAMS = ("stdout", "stderr")
STREAM_METHODS = ("write", "writelines", "flush")
STREAM_WRITES = frozenset(f"sys.{stream}.{method}" for stream in STREAMS for method in STREAM_METHODS)
TRACED_RANDOM = TRACED_DRAWS | RNG_CLASSES | {"numpy.random.seed"}  # calls Dynamo 2.13 traces (a draw becomes a graph value)
SEEDING = frozenset(("torch.manual_seed", "torch.seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
                     "torch.set_rng_state", "torch.random.manual_seed", "torch.random.seed",
                     "torch.cuda.set_rng_state"))


def _sized(node: ast.Call, position: int | None) -> bool:
    """Whether a `numpy.random` draw is given a size (`size=` or its positional place; for
    `rand`/`randn`, any dimension), other than `None` or `()`."""
    given = [k.value for k in node.keywords if k.arg == "size"]
    given += node.args if position is None else node.args[position:position + 1]
    return any(not (isinstance(g, ast.Constant) and g.value is None or isinstance(g, ast.Tuple) and not g.elts)
               for g in given)


def _logger_call(node: ast.Call, w) -> str | None:
    """'certain' or 'likely' when `node` is a logging call, else None."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in LOG_METHODS:
        return None
    receiver = func.value
    q = w.resolve(receiver)
    if q == "logging" or (q or "").endswith(".logging"):
        return "certain"
    if isinstance(receiver, ast.Call):
        inner = w.resolve(receiver.func) or ""
        return "certain" if LOGGER_FACTORY.match(inner.rpartition(".")[2]) else None
    if isinstance(receiver, ast.Name):
        if receiver.id not in w.facts.env and w.index.is_logger(receiver.id):
            return "certain"
        return "likely" if receiver.id in LOGGER_NAMES and receiver.id not in w.facts.env else None
    if isinstance(receiver, ast.Attribute) and receiver.attr in LOGGER_NAMES:
        return "likely"
    return None


def _deferrable(node: ast.Call, w) -> bool:
    """A print, logging, warnings or stream-write call (what the deferral fix moves to the epilogue)."""
    return builtin_call(node, w, "print") or _logger_call(node, w) is not None \
        or w.resolve(node.func) in WARN_CALLS | STREAM_WRITES


_SCANS: WeakKeyDictionary = WeakKeyDictionary()  # walker -> the epilogue scan of its function


def _scan(w) -> EpilogueScan:
    scan = _SCANS.get(w)
    if scan is None:
        scan = _SCANS[w] = EpilogueScan(w.function.node, lambda call: _deferrable(call, w),
                                        lambda e: w.kind(e) in TENSORISH)
    return scan


def _mark_epilogue(node: ast.Call, w) -> None:
    """Note a deferrable call in epilogue position: nothing is traced after it, so its findings
    (and those of the conversions in its arguments) are dropped unless a caller traces on, or the
    entry is compiled with `fullgraph=True` (where the break raises)."""
    w.quiet.add(id(node))
    if w.is_entry and not w.in_loop and not w.function.fullgraph and in_epilogue(w.function.node, w.parents, _deferrable, scan=_scan(w)):
        w.epilogue.add(id(node))


def _mark_replay(node: ast.Call, w) -> None:
    """A call of a def nested in the entry (which Dynamo inlines) in epilogue position: a replay of
    what the entry recorded, which the walker does not follow (it costs no second graph)."""
    if isinstance(node.func, ast.Name) and w.is_entry and not w.in_loop \
            and w.index.local_def(w.function, node.func.id) is not None \
            and in_epilogue(w.function.node, w.parents, _deferrable, scan=_scan(w)):
        w.epilogue.add(id(node))


GENERATOR_CLASSES = frozenset(("torch.Generator", "torch._C.Generator"))
GENERATOR_METHODS = frozenset(("manual_seed", "seed", "initial_seed", "get_state", "set_state"))


def _stored_in(init: ast.AST, attr: str) -> list[ast.expr]:
    """The values `__init__` assigns to `self.<attr>`."""
    return [n.value for n in walk(init) if isinstance(n, ast.Assign)
            and any(self_attribute(t) and t.attr == attr for t in n.targets)]


def _torch_generator(node: ast.expr, w, seen: frozenset[str] = frozenset()) -> bool:
    """`node` is a torch.Generator: made here (`torch.Generator(device)`, `.manual_seed(s)` on one), a
    local name every assignment binds to one, a parameter annotated `torch.Generator`, an attribute
    `__init__` makes one (`self.gen = torch.Generator()`), or a module-level name made one."""
    index = w.index
    if isinstance(node, ast.Call):
        func = node.func
        return w.resolve(func) in GENERATOR_CLASSES or isinstance(func, ast.Attribute) \
            and func.attr == "manual_seed" and _torch_generator(func.value, w, seen)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
            and w.function.cls is not None:
        spelling = index.attr_class(w.function.cls, node.attr)
        if spelling is not None:
            return index.aliases.resolve_spelling(spelling) in GENERATOR_CLASSES
        stored = [v for c in index.chain(w.function.cls) if "__init__" in c.methods
                  for v in _stored_in(c.methods["__init__"].node, node.attr)]  # `torch.Generator().manual_seed(s)`
        return bool(stored) and all(isinstance(v, ast.Call) and _torch_generator(v, w, seen) for v in stored)
    if not isinstance(node, ast.Name) or node.id in seen:
        return False
    values = local_bindings(w.function.node).get(node.id, [])
    if values:
        return all(_torch_generator(v, w, seen | {node.id}) for v in values)
    if values is None:  # a loop variable, a nested def, an unpacked value
        return False
    args = w.function.node.args
    param = next((a for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
                  if a is not None and a.arg == node.id), None)
    if param is not None:
        return param.annotation is not None and w.resolve(param.annotation) in GENERATOR_CLASSES
    made = index.assigned_calls.get(node.id) if node.id not in w.facts.env else None  # `GEN = torch.Generator()`
    return made is not None and index.aliases.resolve_spelling(made) in GENERATOR_CLASSES


def _check_generator(node: ast.Call, w, q: str | None) -> bool:
    """Report a generator made, asked or handed to an op here (FG308); whether it did."""
    func = node.func
    if q in GENERATOR_CLASSES:
        w.report("FG308", node, f"`{snippet(node)}` makes a torch.Generator, an object Dynamo cannot create in a graph",
                 gb_ids=("GB0363",))
    elif isinstance(func, ast.Attribute) and func.attr in GENERATOR_METHODS and not isinstance(func.value, ast.Call) \
            and _torch_generator(func.value, w):
        w.report("FG308", node, f"`{snippet(func)}()`: Dynamo does not trace the methods of a torch.Generator",
                 gb_ids=("GB7650",))
    elif (q or "").startswith("torch.") or isinstance(func, ast.Attribute) and w.kind(func.value) in TENSORISH:
        given = next((k.value for k in node.keywords if k.arg == "generator" and _torch_generator(k.value, w)), None)
        if given is None:
            return False
        w.report("FG308", node, f"`{snippet(func)}(..., generator={snippet(given)})`: a torch.Generator cannot be "
                                "passed to an op in a graph", gb_ids=("GB0055",))
    else:
        return False
    return True


def check_call(node: ast.Call, w) -> None:
    _mark_replay(node, w)
    if builtin_call(node, w, "print"):
        _mark_epilogue(node, w)
        w.report("FG301", node, f"`{snippet(node)}` prints from compiled code")
        return
    log = _logger_call(node, w)
    if log is not None:
        _mark_epilogue(node, w)
        w.report("FG302", node, f"logging call `{snippet(node.func)}(...)` in compiled code", log)
        return
    q = w.resolve(node.func)
    if _check_generator(node, w, q):
        return
    drawn = next(((a, d) for a in size_arguments(node, w) if (d := w.facts.draw(a)) is not None), None)
    if drawn is not None:
        w.report("FG306", drawn[0], f"a random draw (`{drawn[1]}`) used as a size: Dynamo reads its value",
                 gb_ids=("GB0033",))
    if q is None:
        drawn = next(filter(None, map(w.facts.draw, node.args)), None) if builtin_call(node, w, "range") else None
        if builtin_call(node, w, "open", "input"):
            w.report("FG304", node, f"`{node.func.id}()` does I/O in compiled code")
        elif drawn is not None:
            w.report("FG306", node, f"`range()` over a random draw (`{drawn}`), which Dynamo traces as a graph value",
                     gb_ids=("GB4841",))
        return
    if q in WARN_CALLS:
        _mark_epilogue(node, w)
        w.report("FG303", node, f"`{snippet(node.func)}(...)` in compiled code")
    elif q in STREAM_WRITES:
        _mark_epilogue(node, w)
        w.report("FG304", node, f"`{q}(...)` does I/O in compiled code")
    elif q in IO_CALLS or q.startswith(("sys.stdout.", "sys.stderr.", "sys.stdin.")):
        w.report("FG304", node, f"`{q}(...)` does I/O in compiled code")
    elif q.startswith("time."):
        w.report("FG305", node, f"`{q}()` reads the clock in compiled code")
    elif q in NUMPY_DRAW_SIZES:
        if not _sized(node, NUMPY_DRAW_SIZES[q]):
            w.report("FG306", node, f"`{q}(...)` without a size draws a scalar, whose value torch's NumPy layer "
                                    "reads: Dynamo breaks here", gb_ids=("GB0033",))
    elif q.startswith(("random.", "numpy.random.")) and q not in TRACED_RANDOM:
        w.report("FG306", node, f"`{q}(...)` uses a Python/NumPy RNG in compiled code")
    elif q in SEEDING:
        w.report("FG307", node, f"`{q}(...)` reseeds the RNG in compiled code")


def check_test(node: ast.If | ast.While | ast.IfExp | ast.Assert, w) -> None:
    drawn = w.facts.draw_in(node.test)
    if drawn is not None:
        w.report("FG306", node, f"`{snippet(node.test)}` branches on a random draw (`{drawn}`), which Dynamo "
                                "traces as a graph value", gb_ids=("GB0170",))


def check_binop(node: ast.BinOp, w) -> None:
    """Python arithmetic on a traced draw (`k + 1`); a tensor times a draw is graph work."""
    for side, other in ((node.left, node.right), (node.right, node.left)):
        drawn = w.facts.draw(side)
        if drawn is not None and not w.is_tensor(other):
            w.report("FG306", node, f"`{snippet(node)}` is Python arithmetic on a random draw (`{drawn}`), which "
                                    "Dynamo traces as a graph value", gb_ids=("GB0213",))
            return


def check_subscript(node: ast.Subscript, w) -> None:
    """A traced draw as a tensor's index or slice bound (`x[k]`, `x[:, k:]`): Dynamo reads its value."""
    if not w.facts.random_imported or not w.is_tensor(node.value):
        return
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    bounds = [(part, b) for part in parts for b in ([part.lower, part.upper, part.step]
                                                    if isinstance(part, ast.Slice) else [part]) if b is not None]
    if any(isinstance(b, ast.BinOp) and w.facts.draw_in(b) for _, b in bounds):
        return  # `x[:, k:k + 2]` breaks first at the arithmetic (check_binop)
    drawn = next(((part, b, d) for part, b in bounds if (d := w.facts.draw(b)) is not None), None)
    if drawn is not None:
        part, bound, spelled = drawn
        what, gb = ("a slice bound", "GB0124") if isinstance(part, ast.Slice) else ("an index", "GB0033")
        w.report("FG306", bound, f"a random draw (`{spelled}`) used as {what}: Dynamo reads its value", gb_ids=(gb,))


CHECKS = {ast.Call: [check_call], ast.If: [check_test], ast.While: [check_test], ast.IfExp: [check_test],
          ast.Assert: [check_test], ast.BinOp: [check_binop],
          ast.Subscript: [check_subscript]}
