"""What runs in place of a decorated function: the decorator idioms libraries use, followed
across files, and the calls through them reported at the user's line."""

import ast
import textwrap

import pytest

from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.regions import ModuleIndex
from fullgraph.config import Config
from fullgraph import engine
from fullgraph.engine import analyze_document

MEMO = """
    import functools
    import pickle

    def cached(method=None, name=None, ignore_args=False):
        if ignore_args:
            return _cached_ignore_args(method=method, name=name)
        else:
            return _cached(method=method, name=name)

    def _cached(method=None, name=None):
        if method is None:
            return functools.partial(_cached, name=name)

        @functools.wraps(method)
        def g(self, *args, **kwargs):
            key = pickle.dumps(kwargs)
            return method(self, *args, **kwargs)
        return g

    def _cached_ignore_args(method=None, name=None):
        if method is None:
            return functools.partial(_cached_ignore_args, name=name)

        @functools.wraps(method)
        def g(self, *args, **kwargs):
            return method(self, *args, **kwargs)
        return g

    def positional(method=None, ignore_args=True):
        return _cached_ignore_args(method, None) if ignore_args else _cached(method, None)

    def pick(method=None, strict=False):
        return _pick(method, strict)

    def _pick(method, strict=False):
        def loose(*args):
            return method(*args)
        def tight(*args):
            return method(*args)
        if strict:
            return tight
        return loose

    def registered(fn):
        def note():
            return fn.__name__
        REGISTRY.append(note)
        return note
    REGISTRY = []

    def guarded(fn):
        def wrapper(*args):
            return fn(*args)
        def unused(*args):
            return fn(*args)
        if fn:
            return wrapper
        return unused

    class Op:
        def __init__(self, t):
            self.t = t
        @cached(name="dense")
        def dense(self):
            return self.t
        @cached(name="other", ignore_args=True)
        def other(self):
            return self.t
        @cached
        def bare(self):
            return self.t
        @registered
        def listed(self):
            return self.t
        @guarded
        def checked(self):
            return self.t
        @positional
        def passed_on(self):
            return self.t
        @pick
        def picked(self):
            return self.t
    """


def wrappers(method: str) -> list[str]:
    source = textwrap.dedent(MEMO)
    index = ModuleIndex(ast.parse(source), source)
    return [w.qualname for _, w in index.decorator_wrappers(index.classes["Op"].methods[method])]


@pytest.mark.parametrize(("method", "expected"), [
    ("dense", ["_cached.<locals>.g"]),  # a factory forwarding to another, then a partial of itself
    ("other", ["_cached_ignore_args.<locals>.g"]),  # `if ignore_args:` taken, the call sets it
    ("bare", ["_cached.<locals>.g"]),  # `if method is None:` not taken: the method fills it
    ("listed", []),  # the def returned never calls the function: not a wrapper
    ("checked", ["guarded.<locals>.wrapper"]),
    ("passed_on", ["_cached_ignore_args.<locals>.g"]),  # handed on positionally, after a conditional expression
    ("picked", ["_pick.<locals>.loose"]),  # the arguments after the function keep their places  # `if fn: return ...` always returns: what follows never runs
])
def test_the_wrapper_a_decorator_leaves_in_place(method, expected):
    assert wrappers(method) == expected


def make(tmp_path, model: str) -> tuple[ProjectIndex, str]:
    files = {"lib/memo/__init__.py": MEMO, "ws/model.py": model}
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),)), str(tmp_path / "ws/model.py")


def findings(project, path):
    with open(path, encoding="utf-8") as handle:
        report = analyze_document(handle.read(), path, Config(), project=project)
    return [(f.line, f.code, f.message) for f in report.findings]


def test_a_call_through_a_library_decorator_reports_its_break_at_the_users_line(tmp_path):
    project, path = make(tmp_path, """
        from torch import nn
        from memo import Op
        class Net(nn.Module):
            def forward(self, x):
                op = Op(x)
                y = op.other()
                return op.dense() + y
        """)
    [(line, code, message)] = findings(project, path)
    assert (line, code) == (8, "FG411")
    assert "calls `op.dense`, which breaks in library code at memo/__init__.py:17 (`_cached.<locals>.g`)" in message


def test_a_parameter_annotated_with_an_abstract_class_does_not_pick_its_implementation(tmp_path):
    """An abstract class in an annotation (an `@abstractmethod` in a base) is a declared type: the
    object is of a subclass, which may override the method, so the class's own code is not taken
    to run. A concrete class's is."""
    project, path = make(tmp_path, """
        from abc import abstractmethod
        from torch import nn
        from memo import Op
        class Shape(Op):
            @abstractmethod
            def size(self): ...
        class Square(Shape):
            def size(self):
                return 4
        class Net(nn.Module):
            def forward(self, x, shape: Shape, op: Op):
                shape.dense()
                return op.dense()
        """)
    assert [(line, code) for line, code, _ in findings(project, path)] == [(14, "FG411")]


def test_a_decorators_wrapper_takes_none_of_the_library_budget(tmp_path, monkeypatch):
    """Library functions walked per analysis are capped; the wrapper a decorator puts around one is
    part of that call, so it does not crowd out what the function itself calls."""
    monkeypatch.setattr(engine, "FOREIGN_VISITS", 2)
    project, path = make(tmp_path, """
        from torch import nn
        from memo import Op, traced
        class Net(nn.Module):
            def forward(self, x):
                return traced(x)
        """)
    lib = tmp_path / "lib/memo/__init__.py"
    lib.write_text(lib.read_text() + textwrap.dedent("""
        def passthrough(fn):
            def wrapper(*args):
                return fn(*args)
            return wrapper

        def clip(x):
            if x.max() > 1:
                return x / x.max()
            return x

        @passthrough
        def traced(x):
            return clip(x)
        """))
    [(line, code, message)] = findings(project, path)
    assert (line, code) == (6, "FG101") and "calls `traced`" in message
