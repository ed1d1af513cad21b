"""Confirmation targets: which callable to run, and which factory makes its sample inputs.

Two conventions, both without changing model code:

* a module-level ``fullgraph_example()`` (the file's default target) or
  ``fullgraph_example_<Target>()`` in the model's file, returning ``(callable, args, kwargs)``
  or a list of such tuples (one per input set);
* ``[tool.fullgraph.confirm]`` entries ``"path.py::Target" = "tests/factories.py:make_model"``
  (paths relative to the pyproject's folder).

The same table holds the settings ``severity``, ``on-save``, ``python``, ``timeout`` and ``src``
(source folders, relative to the pyproject, put on the worker's ``sys.path`` after the project root).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from fullgraph.analysis.nodes import walk
from fullgraph.analysis.parsing import parse_tree

PREFIX = "fullgraph_example"
SETTINGS = {"severity", "on_save", "onsave", "python", "interpreter", "timeout", "rss_cap_mb", "enable", "src"}


@dataclass(frozen=True)
class Target:
    """One thing to confirm: a file, a target name (None: the default) and its factory."""

    path: str  # absolute path of the model's file
    name: str | None = None
    factory: str | None = None  # "abs/path/file.py:function"; None: the factory lives in `path`
    root: str = ""  # project root (added to the worker's sys.path)
    paths: tuple[str, ...] = ()  # more folders for the worker's sys.path (workspace roots, source folders)
    options: tuple = ()  # the user's own torch.compile options at the call site, as (name, value) pairs

    @property
    def label(self) -> str:
        return f"{os.path.basename(self.path)}::{self.name}" if self.name else os.path.basename(self.path)

    def payload(self, op: str = "confirm", **extra) -> dict:
        """The worker request for this target."""
        return {"op": op, "path": self.path, "target": self.name, "factory": self.factory,
                "root": self.root or os.path.dirname(self.path), "paths": list(self.paths), "compile_options": dict(self.options), **extra}


def parse_spec(spec: str) -> tuple[str, str | None]:
    """``path.py::Target`` as (path, target name or None)."""
    path, sep, name = spec.partition("::")
    return path, (name or None) if sep else None


def confirm_table(config) -> dict:
    """``[tool.fullgraph.confirm]`` from a Config (empty when absent)."""
    table = getattr(config, "extra", {}).get("confirm", {}) if config is not None else {}
    return table if isinstance(table, dict) else {}


def setting(config, *names: str, default=None):
    """A confirm setting by any of its spellings (``on-save``, ``on_save``, ``onSave``)."""
    table = {k.replace("-", "_").lower(): v for k, v in confirm_table(config).items()}
    return next((table[n.lower()] for n in names if n.lower() in table), default)


def factories(source: str | bytes) -> dict[str | None, int]:
    """The module-level factories of a source text: target name (None: default) -> def line.

    A text that does not parse gets the default target, so that running it reports why.
    """
    try:
        tree = parse_tree(source)
    except (SyntaxError, ValueError):
        return {None: 1}
    found: dict[str | None, int] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(PREFIX):
            rest = node.name[len(PREFIX) :]
            if rest == "":
                found[None] = node.lineno
            elif rest.startswith("_") and len(rest) > 1:
                found[rest[1:]] = node.lineno
    return found


COMPILE_OPTIONS = ("dynamic", "mode", "fullgraph")


def compile_sites(source: str | bytes) -> dict[str, tuple]:
    """The literal ``dynamic=``/``mode=``/``fullgraph=`` of each ``torch.compile`` in the file, by the
    name it compiles: ``@torch.compile(...)`` on a def or class, ``torch.compile(Model(), ...)``,
    ``torch.compile(fn, ...)``, ``torch.compile(model, ...)`` after ``model = Model(...)``."""
    try:
        tree = parse_tree(source)
    except (SyntaxError, ValueError):
        return {}
    built: dict[str, str] = {}  # variable -> the class it was built from
    sites: dict[str, tuple] = {}
    for node in walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    built[t.id] = node.value.func.id
    for node in walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and _is_compile(deco.func):
                    sites[node.name] = _literal_options(deco)
        elif isinstance(node, ast.Call) and _is_compile(node.func) and node.args:
            arg = node.args[0]
            name = arg.func.id if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) else \
                arg.id if isinstance(arg, ast.Name) else None
            for key in {name, built.get(name)} - {None}:
                sites[key] = _literal_options(node)
    return {k: v for k, v in sites.items() if v}


def options_for(sites: dict[str, tuple], target: str | None) -> tuple:
    """The options of the target's compile site; for the default target, the file's only set of options."""
    if target is not None:
        return sites.get(target, ())
    distinct = set(sites.values())
    return distinct.pop() if len(distinct) == 1 else ()


def _is_compile(func: ast.AST) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "compile" and isinstance(func.value, ast.Name)
            and func.value.id == "torch")


def _literal_options(call: ast.Call) -> tuple:
    out = []
    for kw in call.keywords:
        if kw.arg in COMPILE_OPTIONS:
            try:
                value = ast.literal_eval(kw.value)
            except ValueError:
                continue
            if value is None or isinstance(value, (bool, str)):
                out.append((kw.arg, value))
    return tuple(out)


def source_paths(config, root: str) -> tuple[str, ...]:
    """The configured source folders (``src``, a string or a list) as absolute paths."""
    src = setting(config, "src", default=())
    src = [src] if isinstance(src, str) else src if isinstance(src, list) else []
    return tuple(os.path.abspath(os.path.join(root, s)) for s in src if isinstance(s, str))


def project_root(path: str, config=None) -> str:
    """The config's root, else the file's folder."""
    root = getattr(config, "root", None)
    return os.path.abspath(root) if root else os.path.dirname(os.path.abspath(path))


def targets_for(path: str, source: str | bytes | None = None, config=None, name: str | None = None,
                explicit: bool = False, roots: tuple[str, ...] = ()) -> list[Target]:
    """Every target of ``path`` (or only ``name`` when ``explicit``) with its factory; ``roots``
    (the editor's workspace folders) go on the worker's sys.path after the source folders.

    An explicitly named target with no factory is still returned, so that running it
    reports the missing factory.
    """
    path = os.path.abspath(path)
    root = project_root(path, config)
    if source is None:
        try:
            with open(path, "rb") as f:
                source = f.read()
        except OSError:
            source = b""
    paths = source_paths(config, root) + tuple(os.path.abspath(r) for r in roots)
    sites = compile_sites(source)
    found: dict[str | None, Target] = {n: Target(path, n, None, root, paths, options_for(sites, n))
                                       for n in factories(source)}
    for key, value in confirm_table(config).items():
        if key.replace("-", "_").lower() in SETTINGS or not isinstance(value, str):
            continue
        file, target = parse_spec(key)
        if os.path.abspath(os.path.join(root, file)) != path:
            continue
        fpath, _, func = value.rpartition(":")
        found[target] = Target(path, target, f"{os.path.abspath(os.path.join(root, fpath))}:{func}", root, paths,
                               options_for(sites, target))
    if explicit:
        return [found.get(name) or Target(path, name, None, root, paths, options_for(sites, name))]
    return list(found.values())


def with_example(source: str, example: str) -> str:
    """``source`` with a synthesized ``fullgraph_example_<Target>`` appended (two blank lines
    before it); unchanged when the file already defines that factory."""
    name = example.split("(", 1)[0].removeprefix("def ").strip()
    target = name[len(PREFIX) + 1 :] or None
    if target in factories(source):
        return source
    return source.rstrip("\n") + "\n\n\n" + example if source.strip() else example
