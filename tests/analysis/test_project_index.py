"""The project index: import resolution across files, summaries, caches."""

import os
import textwrap

from fullgraph.analysis.project import ProjectIndex, Symbol
from fullgraph.analysis.resolver import Resolver
from fullgraph.analysis.summary_store import SummaryStore


def write(root, files: dict[str, str]):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


LIB = {
    "lib/pkg/__init__.py": "from .base import *\nfrom . import logs\n",
    "lib/pkg/base.py": """
        import torch.nn as nn
        __all__ = ["Base"]
        class Root(nn.Module):
            def helper(self, x):
                return x
        class Base(Root):
            pass
        """,
    "lib/pkg/logs.py": """
        import logging as _logging
        def make_it(name):
            return _logging.getLogger(name)
        def get_logger(name):
            return make_it(name)
        """,
}


def project(tmp_path, user: dict[str, str]) -> ProjectIndex:
    write(tmp_path, {**LIB, **{f"ws/{k}": v for k, v in user.items()}})
    return ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))


def test_module_class_through_files_relative_and_star_imports(tmp_path):
    p = project(tmp_path, {
        "app/__init__.py": "",
        "app/mid.py": "from pkg import Base as B\nclass Mid(B):\n    pass\n",
        "app/model.py": "from .mid import Mid\nclass Enc(Mid):\n    def forward(self, x):\n        return x\n"
                        "class Plain(object):\n    pass\nclass Unknown(Missing):\n    pass\n",
    })
    model = str(tmp_path / "ws/app/model.py")
    assert p.is_module_class(model, "Enc") is True
    assert p.is_module_class(model, "Plain") is False
    assert p.is_module_class(model, "Unknown") is None
    assert p.method(p.lookup(model, "Enc"), "helper") == Symbol(str(tmp_path / "lib/pkg/base.py"), "Root.helper",
                                                                "method")


def test_import_forms(tmp_path):
    p = project(tmp_path, {"m.py": "import pkg.logs as L\nimport pkg\nfrom pkg import logs\nimport torch.nn as nn\n"})
    m = str(tmp_path / "ws/m.py")
    logs = str(tmp_path / "lib/pkg/logs.py")
    assert p.lookup(m, "L.get_logger") == Symbol(logs, "get_logger", "function")
    assert p.lookup(m, "pkg.logs.make_it") == Symbol(logs, "make_it", "function")
    assert p.lookup(m, "logs") == Symbol(logs, "", "module")
    assert p.lookup(m, "nn.Module") == Symbol(None, "torch.nn.Module", "external")
    assert p.lookup(m, "nope") is None


def test_loggers_from_any_factory(tmp_path):
    p = project(tmp_path, {"m.py": "from pkg import logs\nlog = logs.get_logger(__name__)\n"
                                    "other = logs.make_it('x')\nthing = dict()\n"})
    assert p.logger_names(str(tmp_path / "ws/m.py")) == {"log", "other"}


def test_compile_targets_and_call_sites(tmp_path):
    p = project(tmp_path, {
        "model.py": "import torch.nn as nn\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\n"
                    "def scale(x, k):\n    return x * k\n",
        "train.py": "import torch\nfrom model import Net, scale\nm = Net()\nc = torch.compile(m)\n"
                    "def step(x):\n    return scale(x, 2.0)\n",
    })
    model = str(tmp_path / "ws/model.py")
    targets = p.compile_targets()
    [target] = targets[(model, "Net")]
    assert target.site_path.endswith("train.py") and target.site.line == 4
    [(file, site)] = p.call_sites(model, "scale")
    assert file.endswith("train.py") and site.caller == "step" and site.args == ("name:x", "float")
    assert p.call_sites(model, "scale", limit=0) is None  # more files spell the name than asked to resolve


def test_callers_are_found_in_ascii_and_in_unicode_text(tmp_path):
    """Which files call a name comes from a scan of their text (ASCII text with a faster pattern):
    a plain call, one spelled with a space, and a function named in non-ASCII letters."""
    p = project(tmp_path, {
        "model.py": "def scale(x):\n    return x\n\ndef échelle(x):\n    return x\n",
        "a.py": "from model import scale\ndef f(x):\n    return scale (x)\n",
        "b.py": "# é\nfrom model import échelle\ndef g(x):\n    return échelle(x)\n",
    })
    model = str(tmp_path / "ws/model.py")
    assert [(os.path.basename(f), s.caller) for f, s in p.call_sites(model, "scale")] == [("a.py", "f")]
    assert [(os.path.basename(f), s.caller) for f, s in p.call_sites(model, "échelle")] == [("b.py", "g")]


def test_relative_resolution_and_order(tmp_path):
    write(tmp_path, {"a/x.py": "", "b/x.py": "", "a/pkg/__init__.py": "", "a/pkg/sub/y.py": ""})
    r = Resolver((str(tmp_path / "a"),), (str(tmp_path / "b"),))
    assert r.module_file("x") == str(tmp_path / "a/x.py")
    assert r.module_file("torch.nn") is None and r.module_file("os.path") is None
    assert r.relative_file(str(tmp_path / "a/pkg/sub/y.py"), 2, "") == str(tmp_path / "a/pkg/__init__.py")


def test_summary_cache_rebuilt_only_when_the_file_changes(tmp_path):
    store = SummaryStore(tmp_path / "cache")
    p = project(tmp_path, {"m.py": "def f(x):\n    return x\n"})
    p.store = store
    m = str(tmp_path / "ws/m.py")
    assert "f" in p.summary(m).functions
    fresh = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(), store=store)
    stat = os.stat(m)
    assert store.get(m, (stat.st_size, stat.st_mtime_ns)) is not None
    assert "f" in fresh.summary(m).functions
    (tmp_path / "ws/m.py").write_text("def g(x):\n    return x\n\n")
    assert list(fresh.summary(m).functions) == ["g"]
    assert list(p.summary(m).functions) == ["g"]


def test_editor_buffer_wins_over_disk(tmp_path):
    p = project(tmp_path, {"m.py": "def f(x):\n    return x\n"})
    m = str(tmp_path / "ws/m.py")
    p.update(m, "def h(x):\n    return x\n")
    assert list(p.summary(m).functions) == ["h"]
    p.forget(m)
    assert list(p.summary(m).functions) == ["f"]


def test_false_flags_and_disabled(tmp_path):
    p = project(tmp_path, {"m.py": """
        import torch
        class C:
            def __init__(self):
                self._debug = False
                self.on = False
            def toggle(self):
                self.on = True
            @torch.compiler.disable
            def slow(self, x):
                return x
        """})
    s = p.summary(str(tmp_path / "ws/m.py"))
    assert s.classes["C"].false_flags == {"_debug"}
    assert s.classes["C"].methods["slow"].disabled


def test_readonly_never_reads_and_lists_what_it_lacked(tmp_path):
    p = project(tmp_path, {"app.py": "from pkg import Base\nclass Net(Base):\n    pass\n"})
    app = str(tmp_path / "ws/app.py")
    with p.readonly() as used:
        assert p.is_module_class(app, "Net") is None
    assert str(tmp_path / "ws/app.py") in used.missing and not p._files
    with p.recording() as used:
        assert p.is_module_class(app, "Net") is True
    assert str(tmp_path / "lib/pkg/base.py") in used.touched
    with p.readonly() as used:
        assert p.is_module_class(app, "Net") is True
    assert not used.missing


def test_an_answer_that_lacked_a_file_again_is_not_kept(tmp_path):
    """A read-only analysis that lacks a file twice (two questions reach it) keeps neither answer."""
    p = project(tmp_path, {"a.py": "x = 1\n", "b.py": "y = 2\n"})
    a, b = str(tmp_path / "ws/a.py"), str(tmp_path / "ws/b.py")
    p.summary(a)
    with p.readonly() as use:
        assert p.summary(b) is None and use.missing == {b}
        assert p.derived(a, "b's names", lambda: p.summary(b)) is None  # lacked b again: partial
    assert p.derived(a, "b's names", lambda: sorted(p.summary(b).constants)) == ["y"]


def test_what_a_chain_of_functions_returns_does_not_depend_on_where_it_was_first_asked(tmp_path):
    """`f0` returns `f1(...)` ... and the last a logger; `g` and `h` return each other's calls.
    Each answers as if asked first (a chain was cut at a depth counted from where it was first
    asked, and the cut answer was kept for the functions further down)."""
    chain = [f"def f{i}(name):\n    return f{i + 1}(name)\n" for i in range(12)]
    cycle = "def g(name):\n    return h(name)\n\ndef h(name):\n    return g(name) if name else f0(name)\n"
    write(tmp_path, {"ws/chain.py": "\n".join(["import logging\n", *chain, cycle,
                                              "def f12(name):\n    return logging.getLogger(name)\n"])})
    path = str(tmp_path / "ws/chain.py")

    def asked(order):
        p = ProjectIndex(roots=[tmp_path / "ws"])
        return [p.returns(path, name) for name in order]

    assert asked(["f0", "f6", "g", "h"]) == ["logger", "logger", None, None]
    assert asked(["h", "g", "f6", "f0"]) == [None, None, "logger", "logger"]


def test_a_file_only_summarised_is_not_kept_parsed(tmp_path, monkeypatch):
    """The index keeps the summary of every file it reads, and the tree only of a file an
    analysis walks (it held every workspace file's tree: a language server with transformers'
    `models/` as its workspace took 1.7 GB, 0.3 GB since)."""
    import gc
    import weakref

    from fullgraph.analysis import project as project_module

    index = project(tmp_path, {"app/m.py": "import pkg\n"})
    parsed = []
    real = project_module._read_and_parse
    monkeypatch.setattr(project_module, "_read_and_parse", lambda path: (parsed.append(real(path)), parsed[-1])[1])
    base = str(tmp_path / "lib/pkg/base.py")
    assert index.summary(base).classes["Base"].bases == ("Root",)
    first = weakref.ref(parsed.pop()[0])
    gc.collect()
    assert first() is None  # summarised, not kept
    tree = index.tree(base)[0]
    assert index.tree(base)[0] is tree and len(parsed) == 1  # parsed on first use, then kept
