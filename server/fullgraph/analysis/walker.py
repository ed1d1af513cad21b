"""The one pass per compiled function: follow tensor facts in statement order, run the
rules registered for each node type, and collect in-file callees for the region closure."""

from __future__ import annotations

import ast
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace

from fullgraph.analysis.bindings import local_bindings, parameter_names, stored_names
from fullgraph.analysis.callers import MASK, UNKNOWN, Passed, bind_arguments, is_method, with_defaults
from fullgraph.analysis.facts import (
    SPARSE,
    TENSOR,
    TENSORISH,
    VALUE,
    Choice,
    Constructed,
    Context,
    Facts,
    Function,
    Instance,
    Module,
    annotation_fact,
    bool_annotation,
    boolean_leaves,
    combine_returns,
    comprehension_targets,
    declared_fact,
    may_be_tensor,
    tensor_parameter,
    unquoted,
)
from fullgraph.analysis.call_guards import atoms, mode_of_test, moded
from fullgraph.analysis.emptiness import emptiness
from fullgraph.analysis.imports import dotted
from fullgraph.analysis.narrowing import exits, kept, narrow, none_test, returns, skips_rest
from fullgraph.analysis.never_none import single_return
from fullgraph.analysis.nodes import code_fields, names_in, self_attribute, statements
from fullgraph.analysis.per_node import per_node
from fullgraph.analysis.regions import ClassInfo, FunctionInfo, ModuleIndex
from fullgraph.analysis.size_uses import size_names
from fullgraph.analysis.summary import COMPILING_NAMES, false_when_compiling, true_when_compiling

COMPILING = frozenset(("torch.compiler.is_compiling", "torch._dynamo.is_compiling",
                       "torch.compiler.is_dynamo_compiling", "torch._utils.is_compiling"))
NOT_UNDER_COMPILE = frozenset(("torch.jit.is_scripting", "torch.jit.is_tracing"))
TENSOR_TYPES = frozenset(("torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"))
# Types no tensor is an instance of (`isinstance(t, numbers.Number)` is False for a tensor).
PYTHON_TYPES = frozenset(("int", "float", "bool", "complex", "str", "bytes", "list", "tuple", "dict", "set",
                          "frozenset", "numbers.Number", "numbers.Real", "numbers.Integral", "numbers.Complex"))
_COMPOUND = (ast.Attribute, ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Subscript)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_LEAVES = frozenset((ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal))


@dataclass
class Visit:
    """How a function is reached: its entry, the call path from it, the facts of its args."""

    function: FunctionInfo
    entry: FunctionInfo
    path: tuple[tuple[str, ast.Call, str], ...] = ()  # (caller qualname, call node, caller's file) from the entry
    in_loop: bool = False  # some call on the path sits in a loop
    origin: ast.AST | None = None  # the call in the analysed file through which the region left it
    params: dict[str, Passed] | None = None  # facts from the call sites; None: none known
    guesses: bool = True  # an entry's (or forward's) unknown parameters are guessed tensors
    training: bool | None = None  # every call of it is made in training mode (True) or in eval mode (False)
    flag_modes: tuple[tuple[str, bool], ...] = ()  # parameters every call passes `self.training` (True) or its negation


@dataclass(frozen=True)
class CallTests:
    """The trace-time tests around a call (as around a finding: `Raw.conditions`, `Raw.guards`)."""

    conditions: tuple[tuple[ast.expr, bool], ...]
    guards: frozenset[int]  # ids of the tests an early `return` passed

    def mode(self, flag_modes: tuple[tuple[str, bool], ...]) -> bool | None:
        """The training mode the tests hold the call to (`if self.training:`), or None."""
        modes = dict(flag_modes)
        return next((m for test, holds in self.conditions if (m := mode_of_test(*moded(test, holds, modes))) is not None),
                    None)


@dataclass
class Raw:
    """A rule hit before it becomes a Finding."""

    code: str
    node: ast.AST
    message: str
    confidence: str
    in_loop: bool
    gb_ids: tuple[str, ...] | None = None
    epilogue: bool = False  # in (the arguments of) a call in epilogue position
    conditions: tuple[tuple[ast.expr, bool], ...] = ()  # enclosing trace-time tests and whether each holds
    guess: tuple[str, ...] = ()  # the guessed parameters a tensor premise rests on
    tensors: tuple[str, ...] = ()  # source of what is known a tensor around the node (for fixes)
    guards: frozenset[int] = frozenset()  # ids of the tests in `conditions` that an early `return` passed
    facts: tuple[tuple[str, object], ...] = ()  # what the rule knows that its fix needs (in the finding's data)
    emptied: frozenset[tuple[int, bool]] = frozenset()  # parts of `conditions` that check a tensor for
    # emptiness: (id, True when it holds exactly when the tensor is empty, False when exactly when not)


def declared_params(node: ast.FunctionDef | ast.AsyncFunctionDef, resolve) -> set[str]:
    """The parameters of `node` whose annotations declare their facts."""
    return {arg.arg for arg, default in with_defaults(node) if declared_fact(arg, default, resolve) is not None}


class Walker:
    """Walks one function body; rules call back into it (facts, resolve, report)."""

    def __init__(self, index: ModuleIndex, visit: Visit, checks: dict, fixable: frozenset[str] = frozenset()) -> None:
        self.index = index
        self.visit_info = visit
        self.function = visit.function
        self.checks = checks
        self.fixable = fixable  # codes whose findings carry what is known a tensor, for their fixes
        self.facts = Facts(self.resolve, self._self_attr, self._call_result, index.is_enum,
                           index.aliases.imports("random"), self._self_attrs_like, index.string_constant,
                           index.instance_attr, self._global_fact)
        self.facts.where = lambda: tuple(self.conditions)
        self.parents: list[ast.AST] = []
        self.loop_depth = 0
        self.repeating = False  # walking a loop's body a second time
        self.raws: list[Raw] = []
        self._flags: dict[str, list[int]] = {}  # a name bound to a converted value -> its FG201/FG204 raws
        self.quiet: set[int] = set()  # ids of calls whose arguments other rules leave alone
        self._in_lambdas: set[str] = set()  # local lambdas whose body is being evaluated
        self.path_ended = False  # a `return` under a test decided while tracing was just walked
        self.epilogue: set[int] = set()  # ids of calls in epilogue position (see analysis.epilogue)
        self.returns: list = []  # facts of `return` values (for helpers' return facts)
        self.consults: list[tuple[str, tuple, object]] = []  # (this file's function, passed, what it returned)
        self.calls: list[tuple[FunctionInfo, ast.Call, dict[str, Passed], bool]] = []
        self.conditions: list[tuple[ast.expr, bool]] = [] if visit.training is None \
            else [(TRAINING, visit.training)]  # trace-time tests around the current node (its calls' mode)
        self.call_tests: dict[int, CallTests] = {}  # id of a call made under trace-time tests -> those tests
        self.guards: set[int] = set()  # ids of the tests among them that an early `return` passed
        self.emptied: dict[int, bool] = {}  # id of a test's part checking a tensor for emptiness -> Raw.emptied's
        # Names bound once to a literal that a trace-time test chose (`checks = (1, 3) if can_stop(x)
        # else ()` where `can_stop` returns False under compile): the literal Dynamo sees.
        self.traced_literals: dict[str, ast.expr] = {}

    # -- services for rules -------------------------------------------------------------

    @property
    def is_entry(self) -> bool:
        return self.visit_info.entry is self.function

    @property
    def in_loop(self) -> bool:
        return self.loop_depth > 0 or self.visit_info.in_loop

    def receiver(self) -> Instance | Choice | None:
        """The object `self` is when every call of this method is made on an object of one
        subclass of its class (`ragged.get(i)` running the `get` a base defines), or of one of
        a registry's classes: `self.m()` runs that subclass's `m` (each one's), as Dynamo
        dispatches it. Not for a subclass in the analysed file seen from another file's code
        (that file's version in the index may be older)."""
        fact = (self.visit_info.params or {}).get("self", UNKNOWN)[0]
        entry = (self.visit_info.entry.module or self.index).path
        options = fact.options if isinstance(fact, Choice) else (fact,) if isinstance(fact, Instance) else ()
        if not options or any(o.path != self.index.path and o.path == entry for o in options):
            return None
        return fact

    def _with_receiver(self, passed: dict[str, Passed], method: FunctionInfo, owner: ast.expr | None) -> dict:
        """`passed`, with `self` when `method` is called on an object of a subclass of its class."""
        if owner is None or method.cls is None or not is_method(method.node, True):
            return passed
        fact = self.receiver() if isinstance(owner, ast.Name) and owner.id == "self" else self.kind(owner)
        if isinstance(fact, Choice):  # the registry's classes whose method of that name is `method`
            runs = tuple(o for o in fact.options if self.index.instance_method(o, method.node.name) is method)
            fact = runs[0] if len(runs) == 1 else Choice(runs) if runs else None
        home = (method.module or self.index).path
        if not isinstance(fact, (Instance, Choice)) or isinstance(fact, Instance) and \
                (fact.path, fact.cls) == (home, method.cls.name) and not isinstance(fact, Constructed):
            return passed
        return {**passed, "self": (fact, ())}

    def _called_object(self, call: ast.Call, method: FunctionInfo) -> Instance | None:
        """The module called (`self.metric(x)`, `blk(x)`), or whose method is called
        (`self.coupling.inverse(z)`), when its class inherits the method it runs from another class:
        `self` in that method is an object of the module's class, whose overrides its `self.<m>(...)`
        calls run (`Metric.forward` calling `BinaryAUROC.update`)."""
        if method.cls is None:
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == method.node.name:
            func = func.value  # `obj.method(...)`: the object is what the call is made on
        elif method.node.name != "forward":
            return None
        fact = self.kind(func)
        if isinstance(fact, Module):
            made = Instance(fact.path, fact.cls) if fact.path is not None else self.index.object_of(fact.cls)
        elif self_attribute(func) and self.function.cls is not None:  # `self.metric(x)`: what `__init__` made
            spelling = self.index.attr_class(self.function.cls, func.attr)
            made = self.index.object_of(spelling) if spelling else None
        else:
            return None
        built = self.index.attr_made(self.function.cls, func.attr) \
            if self_attribute(func) and self.function.cls is not None and made is not None else None
        if built is not None:  # `self.block = Block(act_layer=Masked)`: the classes it was given
            made = self.index.constructed(made, built)
        if made is None or (made.path, made.cls) == ((method.module or self.index).path, method.cls.name) \
                and not isinstance(made, Constructed):
            return None
        return made

    def kind(self, node: ast.AST):
        return self.facts.kind(node)

    def is_tensor(self, node: ast.AST) -> bool:
        return self.facts.kind(node) == TENSOR

    def resolve(self, node: ast.AST) -> str | None:
        """Qualified import name of a Name/Attribute chain, unless its root is a local."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.facts.env:
            return None
        return self.index.aliases.resolve(node)

    def applies_autograd_function(self, call: ast.Call) -> bool:
        """`F.apply(...)` where `F` is a `torch.autograd.Function` subclass of the file."""
        return _function_apply(call) and call.func.value.id not in self.facts.env \
            and self.index.is_autograd_function(call.func.value.id)

    def is_builtin(self, name: str) -> bool:
        """True when `name` is not rebound locally or in the file (so it is the builtin)."""
        return name not in self.facts.env and name not in self.index.functions \
            and name not in self.index.classes and name not in self.index.aliases.names

    def parent(self, level: int = 1) -> ast.AST | None:
        """The ancestor `level` steps up from the node being checked."""
        return self.parents[-level - 1] if len(self.parents) > level else None

    def report(self, code: str, node: ast.AST, message: str, confidence: str = "certain",
               gb_ids: tuple[str, ...] | None = None, when: tuple[ast.expr, bool] | None = None,
               facts: tuple[tuple[str, object], ...] = ()) -> None:
        """Record a finding at `node`; `when`: a trace-time test (and the value it must have) the
        break needs besides the tests around `node`; `facts`: (key, value) pairs for its fix."""
        guess = self.facts.guess(*_premise(node)) if code.startswith(GUESSABLE) else ()
        if guess:
            names = ", ".join(self._guess_name(g) for g in guess)
            confidence = "likely"
            message += f" (if {names} {'is a tensor' if len(guess) == 1 else 'are tensors'}: a guess)"
        tensors = self._known_tensors(node) if code in self.fixable and not guess else ()
        conditions = (*self.conditions, *((when,) if when is not None else ()))
        conditions = tuple(c for c in self.facts.binding_conditions(*_premise(node)) if c not in conditions) + conditions
        test = node if isinstance(node, ast.BoolOp) else getattr(node, "test", None)
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert, ast.BoolOp)) and isinstance(test, ast.BoolOp):
            conditions += self._prefix(test, len(test.values))
        guards = frozenset(id(test) for test, _ in conditions if id(test) in self.guards)
        emptied = frozenset((id(part), self.emptied[id(part)]) for test, holds in conditions
                            for part, _ in atoms(test, holds) if id(part) in self.emptied)
        self.raws.append(Raw(code, node, message, confidence, self.in_loop, gb_ids, self._in_epilogue_call(),
                             conditions, guess, tensors, guards, facts, emptied))
        holder = self.parent(1)
        if code in ("FG201", "FG204") and isinstance(holder, ast.Assign) and holder.value is node \
                and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name):
            self._flags.setdefault(holder.targets[0].id, []).append(len(self.raws) - 1)

    def _flag_if(self, node: ast.If) -> None:
        """An `if` testing a name bound to a converted value (`f = x.mean().item()`, then `if f > 0.5:`):
        what is known a tensor here is known for the conversion's fix too, which predicates this `if`."""
        tested = names_in(node.test) & self._flags.keys()
        if not tested:
            return
        known = set(self._known_tensors(node))
        for index in (i for name in tested for i in self._flags[name]):
            raw = self.raws[index]
            if not raw.guess:
                self.raws[index] = replace(raw, tensors=tuple(sorted(known.union(raw.tensors))))

    def _guess_name(self, origin: str) -> str:
        """`x` for a guessed parameter of this function, `x` of `outer` for one passed on to it."""
        function, _, param = origin.rpartition(":")
        return f"`{param}`" if function == self.function.qualname else f"`{param}` of `{function}`"

    def _known_tensors(self, node: ast.AST) -> tuple[str, ...]:
        """Source text of what is known to be a tensor at `node`, guesses aside: local names, the
        operands its test is lowered from, a converted value, and the values a rewrite would merge
        (what its branches assign or return, the return after it, a ternary's sides). Fixes turn
        only these into tensor code. Each part is evaluated once: linear in the node's size."""
        facts = self.facts
        known = {name for name, fact in facts.env.items() if fact == TENSOR and name not in facts.guessed}
        at = next((i for i in range(len(self.parents) - 1, -1, -1) if isinstance(self.parents[i], ast.stmt)), None)
        statement = self.parents[at] if at is not None else None
        tests = [s.test for s in (statement, node) if isinstance(s, (ast.If, ast.IfExp, ast.Assert, ast.While))]
        parts = [leaf for test in tests for leaf in boolean_leaves(test)]
        if isinstance(node, (ast.BoolOp, ast.UnaryOp)):
            parts += boolean_leaves(node)
        elif isinstance(node, ast.Call):
            parts += _premise(node)
        if isinstance(statement, ast.If):  # the `if` itself, or one whose test holds the node
            holder = self.parents[at - 1] if at else self.function.node
            values = [s.value for s in (*_branch_statements(statement), _following(holder, statement))
                      if isinstance(s, (ast.Assign, ast.AnnAssign, ast.Return))]
            parts += [e for v in values if v is not None for e in _elements(v)]
        if isinstance(node, ast.IfExp):
            parts += [node.body, node.orelse]
        for part in parts:
            if isinstance(part, _COMPOUND) and facts.known_tensor(part):
                known.add(ast.unparse(part))
        return tuple(sorted(known))

    def _prefix(self, test: ast.BoolOp, upto: int) -> tuple[tuple[ast.expr, bool], ...]:
        """The trace-time operands of `and`/`or` evaluated before operand `upto` (and before
        the first operand that is a graph value, a tensor's or a random draw's): they must hold (`and`)
        or fail (`or`) for it to run."""
        found = []
        for operand in test.values[:upto]:
            if self.facts.data_dependent(operand) or self.facts.draw_in(operand):
                break
            found.append((operand, isinstance(test.op, ast.And)))
        return tuple(found)

    def _in_epilogue_call(self) -> bool:
        """Whether the node being checked is an epilogue call or sits in one's arguments."""
        if not self.epilogue:
            return False
        for ancestor in reversed(self.parents):
            if id(ancestor) in self.epilogue:
                return True
            if isinstance(ancestor, ast.stmt):
                return False
        return False

    def called_through(self, call: ast.Call) -> ast.Call | None:
        """`checkpoint(fn, *args)` as the call `fn(*args)` it makes (Dynamo traces `fn` where it
        breaks); None for any other call."""
        func = call.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        aliased = isinstance(func, ast.Name) and name in self.index.aliases.names  # `import checkpoint as ckpt`
        options = CALLS_THROUGH.get(self.resolve(func)) if name in _THROUGH_NAMES or aliased else None
        if options is None or not call.args or isinstance(call.args[0], ast.Starred):
            return None
        return _through_call(call, options)

    def _self_unbound(self) -> bool:
        """Whether `self` is the method's first parameter and the body never rebinds it."""
        params = self.function.node.args.posonlyargs + self.function.node.args.args
        return bool(params) and params[0].arg == "self" and "self" not in stored_names(self.function.node)

    def _self_call(self) -> FunctionInfo | None:
        """What calling the object itself runs: a module's `forward`, another object's `__call__`
        (the object's own class first, through its bases in any file)."""
        cls = self.function.cls
        name = "forward" if self.index.is_module_class(cls.name) else "__call__"
        receiver = self.receiver()
        method = (self.index.instance_method(receiver, name) if isinstance(receiver, Instance) else None) \
            or self.index.method(cls.name, name) or self.index.inherited(cls, name)
        return self.index.run_as(cls, method) if method is not None and self.function.inherited_from else method

    def callee(self, call: ast.Call) -> FunctionInfo | None:
        """The in-file function a call runs, when it can be resolved (`Block(cfg)` runs `Block.__init__`)."""
        through = self.called_through(call)
        if through is not None:
            return self.callee(through)
        func = call.func
        index = self.index
        if isinstance(func, ast.Lambda):  # `checkpoint(lambda h: layer(h), x)` runs the lambda
            return index.lambda_def(self.function, func)
        if isinstance(func, ast.Name):
            if func.id == "self" and self.function.cls is not None and self._self_unbound():
                return self._self_call()  # `q_values = self(observation)` in a module's `_predict`
            if func.id not in self.facts.env:
                if func.id in index.classes:
                    return index.method(func.id, "__init__")
                return self._function_named(func.id) or index.imported_init(func.id) \
                    or self._instance_call(None, index.assigned_calls.get(func.id))  # `blk = Block()` at module level
            default = self._callable_default(func.id)
            if default is not None:  # `reduce_fn: Callable = _recall_at_precision`, never rebound
                return index.functions.get(default) or index.imported_function(default)
            return index.local_def(self.function, func.id) or self._forward_of(self.facts.env[func.id])
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
                and self.function.cls is not None:
            receiver = self.receiver()
            if isinstance(receiver, Choice):  # each registry class's own (`_held`)
                return None
            method = (index.instance_method(receiver, func.attr) if receiver is not None else None) \
                or index.method(self.function.cls.name, func.attr)
            if method is not None:  # code a subclass runs calls the base's methods as that subclass
                return index.run_as(self.function.cls, method) if self.function.inherited_from else method
            given, method = index.given_method(receiver, func.attr, "forward") if isinstance(receiver, Instance) \
                else (False, None)
            if given:  # `self.act = act_layer()`: of the class the object was given
                return method
            fact = index.attr(self.function.cls, func.attr)
            return self._forward_of(fact) or self._instance_call(fact, index.attr_class(self.function.cls, func.attr)) \
                or (index.inherited(self.function.cls, func.attr) if fact is None else None) \
                or index.attr_call(self.function.cls, func.attr)
        local = self.kind(func.value) if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
        if isinstance(local, Module):  # `for b in blocks: b.backward_pass(y)`
            return index.module_method(local, func.attr)
        if isinstance(local, Instance):  # `cache = Cache()`, or `CACHE = Cache()` at module level
            return index.instance_method(local, func.attr)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in index.classes \
                and func.value.id not in self.facts.env:  # `Gate.make(x)`: a static or class method
            method = index.method(func.value.id, func.attr)
            if method is not None and _unbound_callable(method.node):
                return method
        spelling = dotted(func) if isinstance(func, ast.Attribute) else None
        if spelling and spelling.partition(".")[0] not in self.facts.env \
                and spelling.partition(".")[0] in index.imports:  # module.helper(...), package.module.helper(...)
            return self._function_named(spelling)
        if self.applies_autograd_function(call):
            return index.method(func.value.id, "forward")  # Dynamo traces the forward an `apply` runs
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute):  # self.sub.method(...)
            owner = self.kind(func.value)
            if isinstance(owner, Module) and (owner.local_to(index.classes) or owner.path is not None):
                return index.module_method(owner, func.attr)  # `self.vq.get_codes(x)`, its class anywhere
            if isinstance(owner, Instance):  # `self.window.clip(x)`, `self.cfg.schedule.step(t)`
                return index.instance_method(owner, func.attr)
            held = func.value
            if isinstance(held.value, ast.Name) and held.value.id == "self" and self.function.cls is not None:
                receiver = self.receiver()
                given, method = index.given_method(receiver, held.attr, func.attr) if isinstance(receiver, Instance) \
                    else (False, None)
                if not given:
                    method = index.held_method(self.function.cls, held.attr, func.attr)
                if method is not None:
                    return method
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and self.function.cls is not None \
                and isinstance(func.value.func, ast.Name) and func.value.func.id == "super":
            bases = self.function.cls.base_names
            return next((m for m in (index.method(b, func.attr) for b in bases) if m is not None), None) \
                or index.inherited(self.function.cls, func.attr)
        if isinstance(func, (ast.Subscript, ast.Call)):  # self.layers[0](x), Block(cfg)(x)
            return self._forward_of(self.kind(func))
        if isinstance(func, ast.Attribute) and isinstance(func.value, (ast.Subscript, ast.Call)):
            owner = self.kind(func.value)  # `flow(c).log_prob(x)`: a method of the object a call returns
            return index.instance_method(owner, func.attr) if isinstance(owner, Instance) else None
        return None

    def _callable_default(self, name: str) -> str | None:
        """The module-level name a parameter defaults to, when the body never rebinds the parameter."""
        args = self.function.node.args
        positional = [*args.posonlyargs, *args.args]
        pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
                 *zip(args.kwonlyargs, args.kw_defaults)]
        default = next((d for a, d in pairs if a.arg == name), None)
        if not isinstance(default, ast.Name) or name in local_bindings(self.function.node):
            return None
        return default.id

    def _call_result(self, call: ast.Call):
        """What an in-file helper returns, given the facts of the arguments at this call."""
        call = self.called_through(call) or call
        func = call.func
        if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id not in self.facts.env \
                and func.value.id in self.index.registries:  # `SOLVERS[method](...)`
            return self.index.registry_object(func.value.id)
        spelling = dotted(func)
        if spelling and spelling.partition(".")[0] not in self.facts.env:
            if spelling in self.index.classes and self.index.is_module_class(spelling):
                return Module(spelling)  # `block = Block(cfg)`
            made = self.index.instance_of(spelling)  # `cache = Cache()`, `op = ops.Diag(x)`
            if made is not None or spelling in self.index.classes:
                return made
        target = self.callee(call)
        held = [target] if target is not None else self._held(call)
        if not held:
            return self._lambda_result(call)
        if any(t.disabled for t in held):
            return None
        returned = []
        for t in held:  # what every function it may run returns
            passed = bind_arguments(t.node, t.cls is not None, call, lambda a: (self.kind(a), ()))
            returned.append(return_fact(self.index, t, passed))
            if t.module is self.index:
                self.consults.append((t.qualname, tuple(passed.items()), returned[-1]))
        return _agreed(returned)

    def _lambda_result(self, call: ast.Call):
        """What calling a local name every assignment binds to a lambda gives (`act = lambda h:
        F.gelu(h)` then `act(x)`): the fact its bodies share, their parameters holding the arguments'."""
        return _agreed([self.kind(body) for body in self._lambda_bodies(call)])

    def _lambda_bodies(self, call: ast.Call):
        """The body of each lambda a call of a local name runs, yielded while its parameters hold the
        facts of the call's arguments (and the name is not followed again: a lambda that calls itself
        by name gives nothing)."""
        bindings = self._lambda_bindings(call)
        if not bindings:
            return
        self._in_lambdas.add(call.func.id)
        try:
            for fn, bound, guesses in bindings:
                with self.facts.binding(bound, guesses):
                    yield fn.body
        finally:
            self._in_lambdas.discard(call.func.id)

    def _lambda_bindings(self, call: ast.Call) -> list[tuple[ast.Lambda, dict, dict]]:
        """For a call of a local name every assignment binds to a lambda, each lambda with its
        parameters bound to the facts of the call's arguments, and the guesses those rest on; empty
        when that is not the call."""
        func = call.func
        lambdas = self._assigned_only(func.id) if isinstance(func, ast.Name) else None
        if not lambdas or not all(isinstance(v, ast.Lambda) for v in lambdas) or func.id in self._in_lambdas \
                or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return []
        passed = [(self.kind(a), self.facts.guess(a)) for a in call.args]
        out = []
        for fn in lambdas:
            names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or len(names) != len(passed):
                return []
            out.append((fn, {n: fact for n, (fact, _) in zip(names, passed)},
                        {n: guess for n, (_, guess) in zip(names, passed)}))
        return out

    def _instance_call(self, fact, spelling: str | None) -> FunctionInfo | None:
        """What calling an instance of the class `spelling` runs, wherever the class is defined: a
        module's `forward`, another object's `__call__`."""
        if not spelling:
            return None
        if isinstance(fact, Module):
            return self.index.class_method(spelling, "forward")
        return self.index.class_method(spelling, "__call__") or self.index.class_method(spelling, "forward")

    def _forward_of(self, fact) -> FunctionInfo | None:
        """What calling a value runs: a module's `forward`, a passed function (:class:`Function`)."""
        if isinstance(fact, Module):
            return self.index.module_method(fact, "forward")
        if isinstance(fact, Instance):
            return self.index.instance_method(fact, "__call__")
        return fact.infos[0] if isinstance(fact, Function) and len(fact.infos) == 1 else None

    def _function_value(self, arg: ast.expr) -> Function | None:
        """A function, a def or lambda of this one or a method of `self` named as a value, not called
        (`self.chunk`, `helper`, `lambda t: helper(t)`)."""
        if isinstance(arg, ast.Name) and arg.id not in self.facts.env and arg.id not in self.index.classes:
            target = self._function_named(arg.id)
        elif isinstance(arg, ast.Name) and arg.id in self.facts.env:  # a closure passed on (`run(inner, x)`)
            lambdas = self._assigned_only(arg.id)
            target = self.index.lambda_def(self.function, lambdas[0]) \
                if len(lambdas) == 1 and isinstance(lambdas[0], ast.Lambda) else self.index.local_def(self.function, arg.id)
            target = target if target is not None and _takes_data(target.node.args) else None
        elif isinstance(arg, ast.Lambda):
            target = self.index.lambda_def(self.function, arg) if _takes_data(arg.args) else None
        elif isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "self" \
                and self.function.cls is not None and self.index.attr(self.function.cls, arg.attr) is None:
            target = self.index.method(self.function.cls.name, arg.attr)
        else:
            return None
        return Function((target,)) if target is not None else None

    def _self_attr(self, name: str):
        """`self.<name>`: what the object the method runs on holds there, when a call or compile
        passed one of a subclass (a base's inherited `forward` sees the subclass's attributes and
        the elements its overrides make); else what the method's own class sets."""
        cls: ClassInfo | None = self.function.cls
        if cls is None:
            return None
        held = self.receiver()
        if isinstance(held, Instance) and (held.path, held.cls) != (self.index.path, cls.name):
            found = self.index.instance_attr(held, name)
            if found is not None:
                return found
        return self.index.attr(cls, name)

    def _global_fact(self, name: str):
        """The object a module-level name holds (`WINDOW = Window(4)`), for a name the function
        never binds."""
        spelling = self.index.assigned_calls.get(name)
        if spelling is None or name in local_bindings(self.function.node):
            return None
        return self.index.instance_of(spelling)

    def _self_attrs_like(self, prefix: str, suffix: str):
        cls: ClassInfo | None = self.function.cls
        return self.index.attrs_like(cls, prefix, suffix) if cls is not None else None

    # -- the walk ------------------------------------------------------------------------

    def run(self) -> None:
        """Bind the parameters, then walk the body."""
        self._bind_params()
        self._visit_all(self.function.node.body)

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        if kind in _LEAVES and kind not in self.checks:
            return
        self.parents.append(node)
        for check in self.checks.get(kind, ()):
            check(node, self)
        handler = _HANDLERS.get(kind)
        if handler is None:
            self._children(node)
        else:
            handler(self, node)
        self.parents.pop()

    def _children(self, node: ast.AST) -> None:
        """Visit the sub-nodes, skipping fields that never hold code (ctx, operators)."""
        for name in code_fields(type(node)):
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
                    if self.path_ended:  # a `with` or `try` body that returned while tracing
                        break
            elif isinstance(value, ast.AST):
                self.visit(value)

    def _visit_all(self, nodes) -> None:
        """Visit a block; what its tests showed of None-ness, and the guards it passed, end with it."""
        saved = dict(self.facts.nones)
        depth = len(self.conditions)
        for n in nodes:
            self.visit(n)
            if self.path_ended:  # `if torch.compiler.is_compiling(): return ...`: Dynamo traces no further
                break
        self.facts.nones = kept(saved, self.facts.nones)
        del self.conditions[depth:]

    def _bind_params(self) -> None:
        node = self.function.node
        args = node.args
        bound = is_method(node, self.function.cls is not None)
        is_forward = bound and node.name == "forward" and self.index.is_module_class(self.function.cls.name)
        passed = self.visit_info.params
        guess_tensors = self.visit_info.guesses and (is_forward or self.is_entry)  # what torch.compile is given
        parameters = with_defaults(node)
        if bound and args.posonlyargs + args.args:
            parameters = parameters[1:]
        sizes = None
        for arg, default in parameters:
            fact = declared_fact(arg, default, self.index.aliases.resolve)
            guess: tuple[str, ...] = ()
            if fact is not None:
                self.facts.declared[arg.arg] = fact
            mask = fact in (TENSOR, None) and passed is not None and passed.get(arg.arg, UNKNOWN)[0] == MASK
            if fact == TENSOR and passed is not None and passed.get(arg.arg, UNKNOWN)[0] == SPARSE:
                fact = SPARSE  # a `torch.Tensor` parameter every caller passes a sparse tensor
            if fact is None and passed is not None:
                fact, guess = passed.get(arg.arg, UNKNOWN)
                if guess and not may_be_tensor(arg.annotation):
                    fact, guess = None, ()  # a caller's guess, but the annotation names another type
            if fact is None:
                fact = self._annotated_instance(arg.annotation)  # `cache: KVCache | None = None`
            if fact is None and guess_tensors and default is None and tensor_parameter(arg.arg) \
                    and may_be_tensor(arg.annotation):
                sizes = size_names(node) if sizes is None else sizes
                if arg.arg not in sizes:  # a slice bound or a shape's match is an int, whatever its name
                    fact, guess = TENSOR, (f"{self.function.qualname}:{arg.arg}",)
            fact = TENSOR if fact == MASK else fact
            self.facts.env[arg.arg] = fact
            if fact == TENSOR and (mask or bool_annotation(arg.annotation)):
                self.facts.masks.add(arg.arg)
            if guess:
                self.facts.guessed[arg.arg] = guess
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                fact, guess = passed.get(extra.arg, UNKNOWN) if passed is not None else UNKNOWN
                self.facts.env[extra.arg] = fact
                if guess:
                    self.facts.guessed[extra.arg] = guess

    def _annotated_instance(self, annotation: ast.expr | None) -> Instance | None:
        """The object a parameter annotated with a plain class holds (`KVCache`, `Optional[KVCache]`,
        `"KVCache" | None`): its methods are the class's. Not for an abstract class (an
        `@abstractmethod`, an `abc.ABC` base): the object is of a subclass, whose methods may differ."""
        annotation = unquoted(annotation)
        if isinstance(annotation, ast.Subscript) and (dotted(annotation.value) or "").endswith("Optional"):
            annotation = annotation.slice
        elif isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            sides = [s for s in (annotation.left, annotation.right)
                     if not (isinstance(s, ast.Constant) and s.value is None)]
            annotation = unquoted(sides[0]) if len(sides) == 1 else None
        spelling = dotted(annotation) if isinstance(annotation, (ast.Name, ast.Attribute)) else None
        if not spelling or spelling.partition(".")[0] in self.facts.env:
            return None
        made = self.index.instance_of(spelling)
        project = self.index.project
        if made is not None and made.path and project is not None and project.is_interface(made.path, made.cls):
            return None
        return made

    def _compile_check(self, test: ast.AST) -> bool:
        """Whether `test` is (`not`) a call that says whether Dynamo is tracing: `is_compiling()`, or
        a helper returning it (not a type or None test, which rest on what is known of a value)."""
        while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test = test.operand
        return isinstance(test, ast.Call) and not test.args and self._value_under_compile(test) is not None

    def _value_under_compile(self, test: ast.AST) -> bool | None:
        """What a guard like `torch.compiler.is_compiling()` evaluates to while Dynamo traces (and
        `x is None` where an earlier test showed it)."""
        named = none_test(test)
        if named is not None:
            none = self.facts.nones.get(named[0])
            return None if none is None else none == named[1]
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
                and len(test.args) == 2 and self.is_builtin("isinstance"):
            return self._isinstance_value(test.args[0], test.args[1])
        if isinstance(test, ast.Call):
            q = self.resolve(test.func)
            name = test.func.attr if isinstance(test.func, ast.Attribute) else getattr(test.func, "id", "")
            if not test.args and (q in COMPILING or name in COMPILING_NAMES):
                return True
            if not test.args and q in NOT_UNDER_COMPILE:
                return False
            target = self.callee(test) if q is None or name not in _NOT_HELPERS else None
            return _compile_check(target) if target is not None else None
        if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id == "self" \
                and self.function.cls is not None and test.attr in self.index.false_flags(self.function.cls):
            return False  # `self.debug = False` in __init__ and never set again
        if isinstance(test, ast.Name) and test.id in self.traced_literals:
            return _truth(self.traced_literals[test.id])
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn)) \
                and isinstance(test.comparators[0], ast.Name) and test.comparators[0].id in self.traced_literals \
                and _truth(self.traced_literals[test.comparators[0].id]) is False:
            return isinstance(test.ops[0], ast.NotIn)  # nothing is in an empty literal
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            value = self._value_under_compile(test.operand)
            return None if value is None else not value
        if isinstance(test, ast.BoolOp):
            values = [self._value_under_compile(v) for v in test.values]
            decisive = isinstance(test.op, ast.Or)  # True decides `or`, False decides `and`
            if decisive in values:
                return decisive
            return (not decisive) if all(v is (not decisive) for v in values) else None
        return None

    def _isinstance_value(self, value: ast.expr, types: ast.expr) -> bool | None:
        """`isinstance(value, types)` for a value known to be a tensor or not: tensor types against
        Python ones (`isinstance(x, numbers.Number)` is False for a tensor `x`); None for a value
        only guessed a tensor (an unannotated parameter: a guess never decides a branch)."""
        fact = self.kind(value)
        if fact not in (TENSOR, VALUE) or fact == TENSOR and self.facts.guess(value):
            return None
        names = self._type_names(types)
        if names is None:
            return None
        if fact == TENSOR and any(n in TENSOR_TYPES for n in names):
            return True
        if fact == TENSOR and all(n in PYTHON_TYPES for n in names):
            return False
        if fact == VALUE and all(n in TENSOR_TYPES for n in names):
            return False
        return None

    def test_dependence(self, test: ast.AST, truth: bool = True) -> str | None:
        """'certain' / 'likely' when Dynamo, evaluating `test` for truth, reads a tensor's value: the
        operands of `and`/`or` after one a trace-time value decides (`not is_compiling() and t`,
        `x is None or t` where `x` is None) are never evaluated. With ``truth`` False the value is
        only computed (`n = n or t.max()`): the last operand of `and`/`or` is handed on, not tested."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.test_dependence(test.operand)
        if not isinstance(test, ast.BoolOp):
            return self.facts.data_dependent(test) if truth else None
        decisive = isinstance(test.op, ast.Or)
        found = []
        saved = dict(self.facts.nones)
        with ExitStack() as typed:  # names an earlier operand's type test decided, until the end
            for n, operand in enumerate(test.values):
                found.append(self.test_dependence(operand, truth or n < len(test.values) - 1))
                if self._value_under_compile(operand) is decisive:
                    break
                narrow(operand, not decisive, self._value_under_compile, self.facts.nones)
                tested = self._type_test(operand)  # the next operands run only where this one did not decide
                if tested is not None:
                    typed.enter_context(self.facts.binding({tested[0]: TENSOR if tested[1] != decisive else VALUE}))
        self.facts.nones = saved
        return "certain" if "certain" in found else ("likely" if "likely" in found else None)

    def _traced_parts(self, test: ast.expr) -> list[tuple[ast.expr, bool]]:
        """The operands of a data-dependent `a and t` test decided while tracing (`zero_division ==
        "warn"`): the branch it guards runs only where each holds."""
        if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)):
            return []
        return [(part, True) for part in test.values if not self.facts.data_dependent(part)]

    def _if(self, node: ast.If | ast.IfExp) -> None:
        """Skip the branch Dynamo never traces under an `is_compiling()` guard."""
        value = self._value_under_compile(node.test)
        self.visit(node.test)
        statement = isinstance(node, ast.If)
        if statement and self._flags:
            self._flag_if(node)
        dependent = value is None and bool(self.facts.data_dependent(node.test))
        traced = value is None and not dependent  # decided while tracing
        if traced:
            self._note_emptiness(node.test)
        both = statement and value is None and node.orelse
        before = self.facts.names_state() if both else None
        held = self.facts.callables(stored_names(node)) if statement and value is None else {}
        skipped = {n: self.facts.env.get(n) for n in stored_names(node)} \
            if statement and value is None and not node.orelse else None  # what the path around the body holds
        ended = False
        for holds, branch in ((True, node.body), (False, node.orelse)):
            if value is (not holds) or (statement and not branch):
                continue
            self.path_ended = False
            if both and not holds:  # the `else` does not see what the body bound
                body = self.facts.names_state()
                self.facts.restore_names(before)
            pushed = [(node.test, holds)] if traced else self._traced_parts(node.test) if dependent and holds else []
            self.conditions.extend(pushed)
            saved = dict(self.facts.nones)
            narrow(node.test, holds, self._value_under_compile, self.facts.nones)
            self.facts.in_data_branch += dependent
            try:
                with self._tensor_narrowed(node.test, holds, branch):
                    self._visit_all(branch) if statement else self.visit(branch)
            finally:
                self.facts.in_data_branch -= dependent
            self.facts.nones = kept(saved, self.facts.nones)
            ended = self.path_ended
            del self.conditions[len(self.conditions) - len(pushed):]
        # only the taken branch of a test decided while tracing is walked: where it returns, the rest is dead
        self.path_ended = statement and value is not None and (
            ended or self._compile_check(node.test) and returns(node.body if value else node.orelse))
        if both and exits(node.orelse) and not exits(node.body):
            self.facts.restore_names(body)  # only the body's path goes on
        elif both and not exits(node.body):
            self.facts.join_branches(before, body, frozenset().union(*map(stored_names, node.orelse)))
        self.facts.keep_callables(held)
        if skipped is not None and not exits(node.body):
            self.facts.settle_sparse(skipped, skipped, self.facts.env)
        if statement and value is None and not node.orelse and exits(node.body):
            narrow(node.test, False, self._value_under_compile, self.facts.nones)  # the code after runs only then
            found = self._narrowed(node.test, False)
            if found is not None:  # `if not isinstance(x, Tensor): return ...`: a tensor from here on
                self.facts.env[found[0]] = found[1]  # (`if not isinstance(n, int): return`: no tensor)
                self.facts.guessed.pop(found[0], None)
        if statement and traced and not node.orelse and skips_rest(node.body):
            self.conditions.append((node.test, False))  # `if not self.training: return x`: the rest runs in training
            self.guards.add(id(node.test))  # (a `raise` guard checks inputs, not a configuration: not named)

    def _note_emptiness(self, test: ast.expr) -> None:
        """Record the parts of `test` (through `and`/`or`/`not`) that check a tensor for emptiness,
        and which way (`len(a1) == 0`; `is_empty(x)` of a helper returning `t.numel() == 0`)."""
        parts = [test]
        while parts:
            part = parts.pop()
            if isinstance(part, ast.BoolOp):
                parts.extend(part.values)
            elif isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
                parts.append(part.operand)
            else:
                found = emptiness(part) or self._helper_emptiness(part)
                if found is not None and self.is_tensor(found[0]):
                    self.emptied[id(part)] = found[1]

    def _helper_emptiness(self, part: ast.expr) -> tuple[ast.expr, bool] | None:
        """(its argument, which way) for a call of a helper whose body returns an emptiness check of
        its one parameter (`def is_empty(t): return t.numel() == 0`)."""
        if not (isinstance(part, ast.Call) and len(part.args) == 1 and not part.keywords):
            return None
        target = self.callee(part)
        returned = single_return(target.node) if target is not None and isinstance(
            target.node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        found = emptiness(returned[1]) if returned is not None else None
        if found is None or not (isinstance(found[0], ast.Name) and found[0].id == returned[0]):
            return None
        return part.args[0], found[1]

    def _type_test(self, test: ast.AST) -> tuple[str, bool] | None:
        """(x, True) for a test that holds exactly when `x` is a tensor (`isinstance(x, Tensor)`, every
        type spelled a tensor type; `torch.is_tensor(x)`), (x, False) for its negation."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            found = self._type_test(test.operand)
            return (found[0], not found[1]) if found is not None else None
        if not (isinstance(test, ast.Call) and test.args and isinstance(test.args[0], ast.Name) and not test.keywords):
            return None
        if self._isinstance_call(test):
            names = self._type_names(test.args[1])
            return (test.args[0].id, True) if names and all(n in TENSOR_TYPES for n in names) else None
        return (test.args[0].id, True) if len(test.args) == 1 and self.resolve(test.func) == "torch.is_tensor" else None

    def _isinstance_call(self, test: ast.AST) -> bool:
        """`isinstance(x, types)` of the builtin, on a plain name."""
        return isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name) and not test.keywords \
            and self.is_builtin("isinstance")

    def _type_names(self, types: ast.expr) -> list[str] | None:
        """The qualified names of the types an `isinstance` test spells (`int`, `numbers.Number`), or
        None when one is not known."""
        spelled = types.elts if isinstance(types, ast.Tuple) else [types]
        names = [self.resolve(t) or (t.id if isinstance(t, ast.Name) and self.is_builtin(t.id) else None)
                 for t in spelled]
        return None if not names or None in names else names

    def _narrowed(self, test: ast.AST, holds: bool) -> tuple[str, object] | None:
        """(x, fact) for a type test that says what `x` is where it ``holds``: a tensor or not for
        a tensor type test (:meth:`_type_test`), and not a tensor where an `isinstance` against
        Python types holds on a name held as one (`isinstance(n, int)`: whatever `n` was guessed,
        it is no tensor there; a list of tensors keeps what is known of its elements)."""
        found = self._type_test(test)
        if found is not None:
            return found[0], TENSOR if found[1] == holds else VALUE
        while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, holds = test.operand, not holds
        if holds and self._isinstance_call(test) and self.facts.env.get(test.args[0].id) in TENSORISH:
            names = self._type_names(test.args[1])
            if names is not None and all(n in PYTHON_TYPES for n in names):
                return test.args[0].id, VALUE
        return None

    @contextmanager
    def _tensor_narrowed(self, test: ast.AST, holds: bool, branch):
        """Inside a branch a type test decides, `x` is a known tensor (`isinstance(x, Tensor)` holds)
        or not a tensor (it fails, or `isinstance(x, int)` holds); as before after it, unless the
        branch rebinds it."""
        found = self._narrowed(test, holds)
        if found is None:
            yield
            return
        name = found[0]
        before, guess = self.facts.env.get(name), self.facts.guessed.pop(name, None)
        self.facts.env[name] = found[1]
        yield
        nodes = branch if isinstance(branch, list) else [branch]
        if not any(name in stored_names(node) for node in nodes):
            self.facts.env[name] = before
            if guess is not None:
                self.facts.guessed[name] = guess

    def _boolop(self, node: ast.BoolOp) -> None:
        """Visit operands up to one a compile-time guard decides (the rest never runs under Dynamo)."""
        decisive = isinstance(node.op, ast.Or)
        pushed = 0
        saved = dict(self.facts.nones)
        for i, operand in enumerate(node.values):
            if i and not self.facts.data_dependent(node.values[i - 1]) and pushed == i - 1:
                self.conditions.append((node.values[i - 1], not decisive))
                pushed += 1
            self.visit(operand)
            if self._value_under_compile(operand) is decisive:
                break
            narrow(operand, not decisive, self._value_under_compile, self.facts.nones)
        self.facts.nones = kept(saved, self.facts.nones)
        del self.conditions[len(self.conditions) - pushed:]

    def _loop_body(self, node) -> None:
        stored = stored_names(node)
        for name in stored:  # a later iteration sees what the body rebinds
            self.facts.nones.pop(name, None)
        entry = {name: self.facts.env.get(name) for name in stored}
        self.loop_depth += 1
        self._visit_all(node.body)
        if not self.repeating and any(self.facts.env.get(n) in TENSORISH and f not in TENSORISH
                                      for n, f in entry.items()):
            self._second_iteration(node)
        self.loop_depth -= 1
        self.path_ended = False  # the loop may run no iteration
        self._visit_all(node.orelse)
        self.path_ended = False

    def _second_iteration(self, node) -> None:
        """Walk a loop's body again when the first pass made names tensors (`st += n` where `n` is
        one): a later iteration's tests read them. Only what the first pass did not find is kept;
        loops inside a second pass are walked once (nested loops would multiply the work)."""
        found = {(id(r.node), r.code) for r in self.raws}
        called = {(id(c[0]), id(c[1])) for c in self.calls}
        raws, calls = len(self.raws), len(self.calls)
        self.repeating = True
        try:
            self._visit_all(node.body)
        finally:
            self.repeating = False
        self.raws[raws:] = [r for r in self.raws[raws:] if (id(r.node), r.code) not in found]
        self.calls[calls:] = [c for c in self.calls[calls:] if (id(c[0]), id(c[1])) not in called]

    def _while(self, node: ast.While) -> None:
        self.visit(node.test)
        self._loop_body(node)

    def _for(self, node: ast.For) -> None:
        self.visit(node.iter)
        if isinstance(node, ast.For):  # `async for` runs `__aiter__`
            self._special_method(node)
        self.facts.bind_loop(node.target, node.iter)
        self.visit(node.target)
        self._loop_body(node)

    def _assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        literal = self._chosen_literal(node.value)
        for target in node.targets:
            self.visit(target)
            self.facts.bind_assign(target, node.value)
            if isinstance(target, ast.Name):
                if literal is not None and len(local_bindings(self.function.node).get(target.id) or ()) == 1:
                    self.traced_literals[target.id] = literal
                else:
                    self.traced_literals.pop(target.id, None)

    def _chosen_literal(self, value: ast.expr) -> ast.expr | None:
        """The literal a conditional expression yields while Dynamo traces, when its test is decided then."""
        if not isinstance(value, ast.IfExp):
            return None
        decided = self._value_under_compile(value.test)
        chosen = None if decided is None else (value.body if decided else value.orelse)
        return chosen if _truth(chosen) is not None else None

    def _annassign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)
        fact = annotation_fact(node.annotation, self.index.aliases.resolve)
        if fact is not None and isinstance(node.target, ast.Name):
            self.facts.declared[node.target.id] = fact
        if fact is None and node.value is not None:
            fact = self.kind(node.value)
        self.facts.bind(node.target, fact)

    def _augassign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self.visit(node.target)
        if self.is_tensor(node.value):
            mask = isinstance(node.target, ast.Name) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) \
                and (self.facts.is_mask(node.target) or self.facts.is_mask(node.value))  # `keep &= d <= 0`
            self.facts.bind(node.target, TENSOR)
            if mask:
                self.facts.masks.add(node.target.id)

    def _namedexpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.facts.bind(node.target, self.kind(node.value))

    def _with(self, node) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.facts.bind(item.optional_vars, None)
        self._visit_all(node.body)

    def _nested_def(self, node) -> None:
        """A nested def runs only when called: walk its decorators and defaults only."""
        self._visit_all(node.decorator_list)
        self._visit_all(node.args.defaults)
        self._visit_all(d for d in node.args.kw_defaults if d is not None)
        self.facts.env[node.name] = None

    def _skip(self, node) -> None:
        """Lambdas and class bodies are not walked (rules on the node itself already ran)."""

    def _comprehension(self, node) -> None:
        with self.facts.binding(dict.fromkeys(comprehension_targets(node)), {}):  # its own scope
            for gen in node.generators:
                self.visit(gen.iter)
                if not gen.is_async:
                    self._special_method(gen)
                self.facts.bind_loop(gen.target, gen.iter)
                self.parents.append(gen)
                for check in self.checks.get(ast.comprehension, ()):
                    check(gen, self)
                self._visit_all(gen.ifs)
                self.parents.pop()
            if isinstance(node, ast.DictComp):
                self.visit(node.key)
                self.visit(node.value)
            else:
                self.visit(node.elt)

    def _call(self, node: ast.Call) -> None:
        self._children(node)
        if not self._record(node):
            self._lambda_calls(node)
            if self._builtin_len(node):
                self._special_method(node)

    def _attribute(self, node: ast.Attribute) -> None:
        """Reading `self.<property>` runs its getter (Dynamo inlines it), as a call with no arguments."""
        self._children(node)
        cls = self.function.cls
        if cls is not None and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) \
                and node.value.id == "self":
            getter = self.index.getter(cls, node.attr)
            if getter is not None and not (getter.disabled or getter.constant):
                self.calls.append((getter, _getter_call(node), {}, self.in_loop))

    def _subscript(self, node: ast.Subscript) -> None:
        self._children(node)
        self._special_method(node)

    def _compare(self, node: ast.Compare) -> None:
        self._children(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            self._special_method(node)

    def _builtin_len(self, call: ast.Call) -> bool:
        """`len(x)` of the builtin (not a local or module-level `len`)."""
        return isinstance(call.func, ast.Name) and call.func.id == "len" and len(call.args) == 1 \
            and not isinstance(call.args[0], ast.Starred) and not call.keywords \
            and "len" not in self.facts.env and "len" not in self.index.functions

    def _special_method(self, at: ast.AST) -> None:
        """`x[i]`, `for v in x`, `a in x` or `len(x)` on an object of a known class runs its special
        method (`__getitem__`, `__iter__`, `__contains__`, `__len__`; Dynamo inlines it), as a call."""
        owner, name, _ = _special(at)
        fact = self.kind(owner)
        method = self.index.instance_method(fact, name) if isinstance(fact, Instance) else None
        if method is not None and not (method.disabled or method.constant):
            call = _special_call(at)
            passed = bind_arguments(method.node, True, call, self.passed)
            self.calls.append((method, call, self._with_receiver(passed, method, owner), self.in_loop))

    def _record(self, call: ast.Call) -> bool:
        """Keep the functions `call` runs, with what it passes them; whether it runs any known one."""
        if id(call) in self.epilogue:
            return False  # a nested replay def after all tensor work (see rules.side_effects)
        call = self.called_through(call) or call
        target = self.callee(call)
        held = [target] if target is not None else self._held(call)
        bound = _with_context(call) if held and _function_apply(call) else call  # `apply(x)` runs `forward(ctx, x)`
        owner = call.func.value if isinstance(call.func, ast.Attribute) else None
        for each in held:
            if not (each.disabled or each.constant):  # Dynamo traces neither (a constant: it runs it while tracing)
                passed = self._with_receiver(bind_arguments(each.node, each.cls is not None, bound, self.passed),
                                             each, owner)
                called = self._called_object(call, each) if "self" not in passed else None
                self.calls.append((each, call, {**passed, "self": (called, ())} if called else passed, self.in_loop))
        backward = self.index.method(call.func.value.id, "backward") if target is not None \
            and self.applies_autograd_function(call) else None
        if backward is not None and not backward.disabled:  # traced too when an input requires grad
            self.calls.append(self._backward_call(target, backward, call))
        if held and self.conditions:
            self.call_tests[id(call)] = CallTests(tuple(self.conditions),
                                                  frozenset(id(t) for t, _ in self.conditions if id(t) in self.guards))
        return bool(held)

    def _backward_call(self, forward: FunctionInfo, backward: FunctionInfo, apply: ast.Call):
        """The call of an applied Function's `backward`, its `ctx` holding the facts of the arguments
        `forward` stores on it (`ctx.blocks = blocks`); only `ctx` is passed (the gradients are not
        the call's arguments)."""
        passed = bind_arguments(forward.node, forward.cls is not None, _with_context(apply), self.passed)
        context = Context(tuple((attr, passed.get(param, (None, ()))[0]) for attr, param in _context_stores(forward.node)))
        call = _context_call(apply)
        return backward, call, bind_arguments(backward.node, backward.cls is not None, call, lambda _: (context, ())), \
            self.in_loop

    def _lambda_calls(self, call: ast.Call) -> None:
        """Calling a local name every assignment binds to a lambda runs its body (Dynamo inlines it:
        `scale = lambda t: t * t.max().item()`) and the functions it calls (`sample_fn = lambda m:
        geometric_sample(p, m)`), the lambda's parameters holding the call's arguments."""
        for body in self._lambda_bodies(call):
            self.visit(body)

    def _held(self, call: ast.Call) -> list[FunctionInfo]:
        """The functions a call of a name that holds them runs: `self.<attr>(...)` when `__init__` set
        the attribute to methods of `self` (`self.loss_method = self.mat_based_loss if mat_based else
        self.pair_based_loss`); a local name every assignment binds to a function (`spline_fn =
        splines.rational_quadratic_spline` in one branch, another in the other); a method of an object
        of one of a registry's classes (`solver = SOLVERS[method](...)`, then `solver.integrate(t)`)."""
        func, cls = call.func, self.function.cls
        if isinstance(func, ast.Name) and isinstance(self.facts.env.get(func.id), Function):
            return list(self.facts.env[func.id].infos)  # a parameter the call sites pass functions
        owner = func.value if isinstance(func, ast.Attribute) else None
        chosen = self.receiver() if isinstance(owner, ast.Name) and owner.id == "self" and cls is not None \
            else self.kind(owner) if isinstance(owner, ast.Name) else None
        if isinstance(chosen, Choice):  # `solver.integrate(t)`: the method of whichever class it is of
            methods = (self.index.instance_method(o, func.attr) for o in chosen.options)
            return list({id(m): m for m in methods if m is not None}.values())
        if isinstance(func, ast.Name):
            spellings = [dotted(v) if isinstance(v, (ast.Name, ast.Attribute)) else None
                         for v in self._assigned_only(func.id)]
            held = [self._function_named(s) if s and s.partition(".")[0] not in self.facts.env else None
                    for s in spellings]
            return held if held and all(held) else []
        if cls is None or not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                               and func.value.id == "self"):
            return []
        return self.index.held_methods(cls, func.attr)

    def _assigned_only(self, name: str) -> list[ast.expr]:
        """What every `name = value` of this function binds, when nothing else binds `name` (not a
        parameter, which holds what a caller passed, nor a loop variable); else nothing."""
        if name not in self.facts.env:  # not bound yet here (builtins, globals): nothing to read
            return []
        if name in parameter_names(self.function.node):
            return []
        return local_bindings(self.function.node).get(name) or []

    def _function_named(self, spelling: str) -> FunctionInfo | None:
        """The function a global spelling names (`helper`, `module.helper`), in this file or imported."""
        spelling = self.index.partials.get(spelling, spelling)  # `einsum = functools.partial(contract, k=v)`
        if "." in spelling:
            return self.index.imported_function(spelling)
        return self.index.sibling(self.function, spelling) or self.index.functions.get(spelling) \
            or self.index.imported_function(spelling)

    def passed(self, arg: ast.expr) -> Passed:
        """What an argument passes: its fact (a known boolean tensor passes :data:`MASK`) and the
        guesses it rests on."""
        fact = self.kind(arg) or self._function_value(arg)
        parts = _literal_parts(arg) if fact is None else None
        if parts is not None and all(self.kind(e) == VALUE for e in parts):
            fact = VALUE  # `check([1])`, `f({"a": 1})`: a container of Python values is no tensor
        guess = self.facts.guess(arg) if fact in TENSORISH else ()
        return (MASK if fact == TENSOR and not guess and self.facts.is_mask(arg) else fact), guess


def _takes_data(args: ast.arguments) -> bool:
    """Whether a closure takes a positional argument it has no default for (`lambda t: f(t)`): one
    taking none is a callback whose call the code may defer (`queue.append(call)`), not followed."""
    positional = [*args.posonlyargs, *args.args]
    return args.vararg is not None or len(positional) > len(args.defaults)


def _literal_parts(node: ast.expr) -> list[ast.expr] | None:
    """The elements of a list or set literal, the keys and values of a dict literal; None for
    anything else (a dict with a `**` spread included)."""
    if isinstance(node, ast.Dict):
        return None if any(k is None for k in node.keys) else [*node.keys, *node.values]
    return list(node.elts) if isinstance(node, (ast.List, ast.Set)) else None


_NOT_HELPERS = frozenset(("len", "isinstance", "hasattr", "getattr"))


def _function_apply(call: ast.Call) -> bool:
    """`Name.apply(...)`: how an autograd Function is called."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == "apply" and isinstance(call.func.value, ast.Name)


_ITEM_METHODS = {ast.Load: "__getitem__", ast.Store: "__setitem__", ast.Del: "__delitem__"}


def _special(at: ast.AST) -> tuple[ast.expr, str, list[ast.expr]]:
    """The object, special method and arguments of what `at` runs: `x[i]` (`x[i] = v`, `del x[i]`:
    the stored value is not passed), `for v in x`, `a in x`, `len(x)`."""
    if isinstance(at, ast.Subscript):
        return at.value, _ITEM_METHODS[type(at.ctx)], [at.slice]
    if isinstance(at, (ast.For, ast.comprehension)):
        return at.iter, "__iter__", []
    if isinstance(at, ast.Compare):
        return at.comparators[0], "__contains__", [at.left]
    return at.args[0], "__len__", []


@per_node
def _special_call(at: ast.AST) -> ast.Call:
    """What `at` runs as the call of its special method (`x.__getitem__(i)`): one node per `at`, as
    `_getter_call`, placed at the object for a loop."""
    owner, name, args = _special(at)
    where = owner if isinstance(at, (ast.For, ast.comprehension)) else at
    func = ast.copy_location(ast.Attribute(value=owner, attr=name, ctx=ast.Load()), where)
    return ast.copy_location(ast.Call(func=func, args=args, keywords=[]), where)


@per_node
def _getter_call(node: ast.Attribute) -> ast.Call:
    """A property read as the call of its getter: one node per read, so a loop walked twice, and
    the walk cache, see the same call."""
    return ast.copy_location(ast.Call(func=node, args=[], keywords=[]), node)


@per_node
def _context_stores(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, str], ...]:
    """(attribute, parameter) for each `ctx.<attribute> = <parameter>` of a Function's `forward`."""
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    if not params:
        return ()
    return tuple((s.targets[0].attr, s.value.id) for s in statements(node) if isinstance(s, ast.Assign)
                 and len(s.targets) == 1 and isinstance(s.targets[0], ast.Attribute)
                 and isinstance(s.targets[0].value, ast.Name) and s.targets[0].value.id == params[0]
                 and isinstance(s.value, ast.Name) and s.value.id in params[1:])


@per_node
def _context_call(call: ast.Call) -> ast.Call:
    """An `apply(...)` as the call of `backward(ctx)`: one node per apply, so the walk cache sees the same call."""
    return ast.copy_location(ast.Call(func=call.func, args=[ast.Name(id="ctx", ctx=ast.Load())], keywords=[]), call)


# Functions that call their first argument with the others, less their own options.
CALLS_THROUGH = {"torch.utils.checkpoint.checkpoint": frozenset(("use_reentrant", "context_fn", "determinism_check",
                                                                 "debug", "preserve_rng_state", "early_stop"))}
_THROUGH_NAMES = frozenset(name.rpartition(".")[2] for name in CALLS_THROUGH)  # how a call spells them unaliased


@per_node
def _through_call(call: ast.Call, options: frozenset[str]) -> ast.Call:
    """`checkpoint(fn, *args, **kw)` as `fn(*args, **kw)`: one node per call, so the walk cache sees the same call."""
    return ast.copy_location(ast.Call(func=call.args[0], args=call.args[1:],
                                      keywords=[k for k in call.keywords if k.arg not in options]), call)


def _with_context(call: ast.Call) -> ast.Call:
    """`apply(...)` as the call of its static `forward(ctx, ...)`: a context first."""
    return ast.Call(func=call.func, args=[ast.Constant(None), *call.args], keywords=call.keywords)


def _compile_check(function: FunctionInfo) -> bool | None:
    """What a helper returns under Dynamo when it is a compile check: True, False, or None (memoised)."""
    if function.compile_check is None:
        function.compile_check = True if true_when_compiling(function.node) else \
            False if false_when_compiling(function.node) else "unknown"
    return None if function.compile_check == "unknown" else function.compile_check


def _truth(literal: ast.expr | None) -> bool | None:
    """The truth value of a constant or a literal container (None for anything else)."""
    if isinstance(literal, ast.Constant):
        return bool(literal.value)
    if isinstance(literal, (ast.Tuple, ast.List, ast.Set)):
        return bool(literal.elts) if not any(isinstance(e, ast.Starred) for e in literal.elts) else None
    if isinstance(literal, ast.Dict):
        return bool(literal.keys) if None not in literal.keys else None
    return None


_HANDLERS = {
    ast.If: Walker._if, ast.IfExp: Walker._if, ast.BoolOp: Walker._boolop, ast.While: Walker._while, ast.For: Walker._for,
    ast.AsyncFor: Walker._for, ast.Assign: Walker._assign, ast.AnnAssign: Walker._annassign,
    ast.AugAssign: Walker._augassign, ast.NamedExpr: Walker._namedexpr, ast.With: Walker._with,
    ast.AsyncWith: Walker._with, ast.FunctionDef: Walker._nested_def, ast.AsyncFunctionDef: Walker._nested_def,
    ast.Lambda: Walker._skip, ast.ClassDef: Walker._skip, ast.Call: Walker._call, ast.Attribute: Walker._attribute,
    ast.Subscript: Walker._subscript, ast.Compare: Walker._compare,
    **{c: Walker._comprehension for c in _COMPREHENSIONS},
}


def _agreed(facts: list):
    """The fact every one of ``facts`` is (None when they differ)."""
    return facts[0] if facts and all(f == facts[0] for f in facts) else None


def _record_return(node: ast.Return, walker: Walker) -> None:
    """The fact of a returned value; a test Dynamo decides while tracing (`isinstance(n, int) and
    n > 0` for a tensor `n`) returns a Python bool."""
    value = node.value
    decided = value is not None and isinstance(value, (ast.BoolOp, ast.UnaryOp, ast.Call)) \
        and walker._value_under_compile(value) is not None
    walker.returns.append(VALUE if value is None or decided else walker.kind(value))


_RETURN_CHECKS = {ast.Return: [_record_return]}
MAX_RETURN_DEPTH = 4  # helpers of helpers (in any file): deeper chains are left unknown
TRAINING = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr="training", ctx=ast.Load())


def _unbound_callable(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A static or class method: called on its class, its parameters bind as on an instance."""
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in node.decorator_list)


GUESSABLE = ("FG1", "FG2", "FG410")  # rules whose premise is that a value is a tensor


def _premise(node: ast.AST) -> list[ast.AST]:
    """The expressions a finding at `node` says are tensors: a test, a call's receiver and arguments."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return [node.test]
    if isinstance(node, ast.Call):
        receiver = [node.func.value] if isinstance(node.func, ast.Attribute) else []
        formatted = [v.value for a in node.args if isinstance(a, ast.JoinedStr) for v in a.values
                     if isinstance(v, ast.FormattedValue)]  # what an f-string argument formats
        return [*receiver, *node.args, *formatted]
    return [node]


def _branch_statements(node: ast.If) -> list[ast.stmt]:
    """The statements of each branch of an `if`/`elif`/`else` chain (not nested deeper)."""
    out = list(node.body)
    while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        node = node.orelse[0]
        out += node.body
    return out + list(node.orelse)


def _following(holder: ast.AST, statement: ast.stmt) -> ast.stmt | None:
    """The statement after `statement` in the block of `holder` that holds it."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(holder, name, None)
        if isinstance(block, list) and statement in block:
            index = block.index(statement)
            return block[index + 1] if index + 1 < len(block) else None
    return None


def _elements(value: ast.expr) -> list[ast.expr]:
    """The values of a (nested) tuple or list literal, else the value itself."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return [e for elt in value.elts for e in _elements(elt)]
    return [value]


def return_fact(index: ModuleIndex, function: FunctionInfo, passed: dict[str, Passed]):
    """The fact of what `function` returns for what a call passes; helper chains deeper than
    `MAX_RETURN_DEPTH` (recursion too) give unknown. Memoised on the index so that the answer never
    depends on what was asked before: a whole answer with the depth its helper chain needs, one cut
    by depth for that depth only, one cut by a file the editor's index lacks not at all."""
    index = function.module or index
    key = (id(function), tuple(passed.items()))
    state = _RETURN
    budget = MAX_RETURN_DEPTH - state.depth
    memo = index.return_memo
    kept = index.kept_returns
    whole = memo.get(key)
    if whole is None and kept is not None and (found := kept.return_of(function, key[1])) is not None:
        whole = memo[key] = found[0]
    if whole is not None and whole[1] <= budget:
        state.need = max(state.need, whole[1])
        return whole[0]
    if budget <= 0:
        state.cut = True
        return None
    if (key, budget) in memo:
        state.cut = True
        return memo[key, budget]
    outer = (state.need, state.cut)
    misses = index.project.misses() if index.project is not None else 0
    state.need, state.cut = 0, False
    state.depth += 1
    try:
        walker = Walker(index, Visit(function, function, params=passed, guesses=False), _RETURN_CHECKS)
        walker.run()
    finally:
        state.depth -= 1
        need, cut = state.need + 1, state.cut
        state.need, state.cut = max(outer[0], need), outer[1] or cut
    fact = combine_returns(walker.returns)
    if index.project is not None and index.project.misses() != misses:
        return fact
    if cut:
        memo[key, budget] = fact
        return fact
    memo[key] = (fact, need)
    if kept is not None:
        kept.keep_return(function, key[1], (fact, need), index, walker.consults)
    return fact


class _ReturnState(threading.local):
    """Per thread (the language server analyses on two): the depth of the return facts being
    worked out, and what the innermost one has met so far: the deepest helper chain it needed,
    and whether the depth cut one short."""

    def __init__(self) -> None:
        self.depth, self.need, self.cut = 0, 0, False


_RETURN = _ReturnState()


def return_state() -> tuple[int, bool]:
    """What the return fact being worked out on this thread has met so far (see `_ReturnState`)."""
    return _RETURN.need, _RETURN.cut


def restore_return_state(saved: tuple[int, bool]) -> None:
    """Put back what `return_state` gave: work done meanwhile is not the outer answer's."""
    _RETURN.need, _RETURN.cut = saved
