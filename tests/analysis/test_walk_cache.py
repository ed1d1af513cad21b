"""Walks kept across edits (WalkCache): reused when an edit cannot change them, redone when it
can, and the findings always those of an analysis without caches."""

from __future__ import annotations

import textwrap
from pathlib import Path

from fullgraph.analysis import walker
from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.walk_cache import VARIANTS, WalkCache
from fullgraph.config import Config
from fullgraph.engine import analyze_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_moved_report import CHAIN

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CONFIG = Config(assume_compiled="all")

MODEL = textwrap.dedent("""\
    import torch
    from torch import nn


    def flag(x):
        return 1


    class Block(nn.Module):
        def forward(self, x):
            if flag(x) > 0:
                x = x * 2
            return x


    class Other(nn.Module):
        def forward(self, x):
            print(x.shape)
            return x + 1
    """) + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(20))  # an edit re-parses its blocks, not most of the file


class Document:
    """One open document as the language server holds it: a parse cache and a walk cache."""

    def __init__(self, path: str = "m.py", project: ProjectIndex | None = None) -> None:
        self.path, self.project = path, project
        self.parses, self.walks = ParseCache(), WalkCache()

    def analyze(self, text: str):
        with self.project.readonly() if self.project is not None else _none():
            cached = analyze_document(text, self.path, CONFIG, self.parses, self.project, self.walks)
        with self.project.readonly() if self.project is not None else _none():
            fresh = analyze_document(text, self.path, CONFIG, project=self.project)
        assert cached == fresh  # findings (messages, ranges, fix_blocked, related), entries
        return cached


def _none():
    from contextlib import nullcontext
    return nullcontext()


def test_a_comment_edit_reuses_every_walk():
    doc = Document()
    first = doc.analyze(MODEL)
    done = doc.walks.walks
    assert done >= 3
    typed = MODEL.replace("        return x\n", "        # typing\n        return x\n")
    doc.analyze(typed)
    moved = doc.analyze(typed.replace("\n\n\nclass Other", "\n\n\n# a comment\nclass Other"))
    assert doc.walks.walks == done  # nothing walked again
    assert [f.line for f in moved.findings] == [f.line + 2 for f in first.findings]  # the print in Other


def test_an_edit_redoes_the_walks_that_depend_on_it_and_only_those():
    doc = Document()
    before = doc.analyze(MODEL)
    assert not any(f.line == 11 for f in before.findings)  # flag() returns a plain int
    done = doc.walks.walks
    after = doc.analyze(MODEL.replace("    return 1\n", "    return torch.rand(3).sum()\n"))
    assert any(f.line == 11 and f.code == "FG101" for f in after.findings)  # now a tensor branch
    assert doc.walks.walks - done == 2  # flag and Block.forward; Other.forward kept
    done = doc.walks.walks
    doc.analyze(MODEL.replace("        return x + 1\n", "        y = 2\n        return x + y\n"))
    assert doc.walks.walks - done == 3  # Other.forward, and flag and Block.forward back to the first text


def test_what_an_unchanged_helper_returns_is_kept_when_its_caller_changes(monkeypatch):
    doc = Document()
    doc.analyze(MODEL)
    worked_out = []
    combine = walker.combine_returns
    monkeypatch.setattr(walker, "combine_returns", lambda returns: worked_out.append(returns) or combine(returns))
    walks = doc.walks.walks
    analyze_document(MODEL.replace("x = x * 2", "x = x * 3"), doc.path, CONFIG, doc.parses, None, doc.walks)
    assert doc.walks.walks == walks + 1  # Block.forward walked again
    assert worked_out == []  # what flag(x) returns is not worked out again
    changed = analyze_document(MODEL.replace("    return 1\n", "    return torch.rand(3).sum()\n"), doc.path, CONFIG,
                               doc.parses, None, doc.walks)
    assert worked_out and [f.code for f in changed.findings if f.line == 11] == ["FG101"]  # its edit redoes it


def test_code_outside_the_region_is_walked_once_across_keystrokes(monkeypatch):
    # `main` is no entry by default: it is walked for the call sites it gives `Block.forward`.
    source = MODEL + "\n\ndef main():\n    return Block()(torch.ones(2))\n"
    parses, walks = ParseCache(), WalkCache()
    first = analyze_document(source, "m.py", Config(), parses, None, walks)
    runs = []
    run = walker.Walker.run
    monkeypatch.setattr(walker.Walker, "run", lambda self: runs.append(self.function.qualname) or run(self))
    edited = source.replace("\n\n\nclass Other", "\n\n\n# a comment\nclass Other")
    moved = analyze_document(edited, "m.py", Config(), parses, None, walks)
    assert "main" not in runs
    assert [f.code for f in moved.findings] == [f.code for f in first.findings]
    changed = analyze_document(edited.replace("torch.ones(2)", "torch.ones(3)"), "m.py", Config(), parses, None, walks)
    assert "main" in runs and [f.code for f in changed.findings] == [f.code for f in first.findings]


def test_a_change_reaches_the_walks_through_a_chain_of_helpers():
    chain = textwrap.dedent("""\
        import torch
        from torch import nn


        def inner(x):
            return 1


        def outer(x):
            return inner(x) + 1


        class M(nn.Module):
            def forward(self, x):
                if outer(x) > 0:
                    x = x * 2
                return x
        """) + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(20))
    doc = Document()
    assert not doc.analyze(chain).findings
    changed = doc.analyze(chain.replace("    return 1\n", "    return torch.rand(3).sum()\n"))
    assert [f.code for f in changed.findings] == ["FG101"]


PARTS = textwrap.dedent("""\
    import torch
    from torch import nn


    class Gate(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = 2

        def score(self, x):
            return 1

        def unused(self, x):
            return x

        def forward(self, x):
            return x * self.scale


    class User(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = Gate()

        def forward(self, x):
            if self.gate.score(x) > 0:
                x = x + 1
            return self.gate(x)


    class Bystander(nn.Module):
        def forward(self, x):
            return x - 1
    """) + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(30))


def test_a_method_change_reaches_the_classes_that_call_it_by_name():
    doc = Document()
    assert not doc.analyze(PARTS).findings
    done = doc.walks.walks
    doc.analyze(PARTS.replace("        return x\n", "        return x + 0\n"))  # Gate.unused: nobody calls it
    assert doc.walks.walks - done == 3  # Gate's methods but its constructor (every other function is compiled here)
    done = doc.walks.walks
    changed = doc.analyze(PARTS.replace("        return 1\n", "        return torch.rand(3).sum()\n"))
    assert [f.code for f in changed.findings] == ["FG101"]  # User.forward branches on Gate.score's tensor now
    assert doc.walks.walks - done == 4  # Gate's three and User.forward (it calls score); Bystander kept


INSIDE = textwrap.dedent("""\
    import torch
    from torch import nn


    class Leaf(nn.Module):
        def score(self, x):
            h = 1
            return h

        def forward(self, x):
            return x


    class Mid(nn.Module):
        def __init__(self):
            super().__init__()
            self.leaf = Leaf()

        def forward(self, x):
            if self.leaf.score(x) > 0:
                x = x + 1
            return self.leaf(x)


    class Top(nn.Module):
        def __init__(self):
            super().__init__()
            self.mid = Mid()

        def forward(self, x):
            return self.mid(x)
    """) + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(30))


def test_an_edit_inside_a_function_keeps_the_walks_of_its_users_while_what_it_returns_stays():
    doc = Document()
    assert not doc.analyze(INSIDE).findings
    done = doc.walks.walks
    doc.analyze(INSIDE.replace("        h = 1\n", "        h = 1\n        y = x * 2\n"))  # typed into Leaf.score
    assert doc.walks.walks - done == 2  # Leaf's two methods; Mid and Top read only what score returns: the same
    done = doc.walks.walks
    changed = doc.analyze(INSIDE.replace("        h = 1\n", "        h = x.sum()\n"))  # same `return h`, a tensor now
    assert [(f.line, f.code) for f in changed.findings] == [(20, "FG101")]  # Mid.forward branches on it
    assert doc.walks.walks - done == 3  # Leaf's two and Mid.forward; Top reads what Mid.forward returns: the same
    done = doc.walks.walks
    doc.analyze(INSIDE.replace("        h = 1\n", "        h = 1\n        self.h = h\n"))  # an attribute stored
    assert doc.walks.walks - done == 4  # Leaf's two, Mid.forward and Top.forward: every user, as without the check


def test_a_kept_decline_reason_that_names_a_line_follows_an_edit_above_it():
    other = "\n\nclass Other(nn.Module):\n    def forward(self, x: torch.Tensor):\n        return x + 1\n"
    chain = CHAIN.replace("\n\nclass M", other + "\n\nclass M")  # the elif's reason names line 12
    doc = Document()
    assert any(f.fix_blocked and "(line 12)" in f.fix_blocked for f in doc.analyze(chain).findings)
    edited = doc.analyze(chain.replace("        return x + 1\n", "        y = x * 2\n        return x + y\n"))
    assert any(f.fix_blocked and "(line 13)" in f.fix_blocked for f in edited.findings)  # (and as a fresh analysis)


def test_a_class_named_in_a_string_annotation_is_used():
    model = textwrap.dedent("""\
        import torch
        from torch import nn


        class Scale:
            def __call__(self, x):
                return 1


        class User(nn.Module):
            def __init__(self, scale: "Scale"):
                super().__init__()
                self.scale = scale

            def forward(self, x):
                if self.scale(x) > 0:
                    x = x + 1
                return x
        """) + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(20))
    doc = Document()
    doc.analyze(model)
    doc.analyze(model.replace("        return 1\n", "        return torch.rand(3).sum()\n"))  # compared with a fresh one


def test_typing_in_a_caller_keeps_a_bounded_number_of_walks():
    doc = Document()
    doc.analyze(MODEL)
    size = len(doc.walks)
    for n in range(30):  # each text passes another fact to flag() (an int, a float, a tensor, ...)
        passed = ["x", str(n), f"{n}.5", "x.sum()", "torch.rand(3)"][n % 5]
        doc.analyze(MODEL.replace("if flag(x) > 0:", f"if flag({passed}) > 0:"))
    assert size < len(doc.walks) <= size + VARIANTS


def test_an_import_change_drops_every_walk():
    doc = Document()
    doc.analyze(MODEL)
    done = doc.walks.walks
    doc.analyze(MODEL.replace("from torch import nn\n", "from torch import nn as nn\n"))
    assert doc.walks.walks - done >= 3


def test_a_foreign_function_is_walked_once_across_keystrokes(tmp_path, monkeypatch):
    for folder in ("ws", "lib"):
        (tmp_path / folder).mkdir()
    helpers = str(tmp_path / "lib" / "helpers.py")
    Path(helpers).write_text("def scale(x):\n    if x.sum() > 0:\n        return x * 2\n    return x\n")
    model = "import torch\nfrom torch import nn\nfrom helpers import scale\n\n\n" \
            "class M(nn.Module):\n    def forward(self, x):\n        return scale(x)\n"
    (tmp_path / "ws" / "model.py").write_text(model)
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))
    runs: list[str] = []
    real_run = walker.Walker.run
    monkeypatch.setattr(walker.Walker, "run", lambda self: (runs.append(self.function.qualname), real_run(self))[1])
    doc = Document(str(tmp_path / "ws" / "model.py"), project)
    with project.recording():  # the server's index thread reads the files the analysis reaches
        analyze_document(model, doc.path, CONFIG, project=project)
    first = doc.analyze(model)
    assert any("helpers.py" in f.message for f in first.findings)

    def keystroke(text):
        runs.clear()
        with project.readonly():
            report = analyze_document(text, doc.path, CONFIG, doc.parses, project, doc.walks)
        return report, list(runs)

    assert keystroke("# edit\n" + model)[1] == []  # neither M.forward nor the foreign scale walked again
    assert keystroke("# edit 2\n" + model)[1] == []
    # the other file changes: the walks that used it are done again
    project.update(helpers, "def scale(x):\n    return x * 2\n")
    changed, walked = keystroke("# edit 3\n" + model)
    assert walked == ["M.forward", "scale"] and not any("helpers.py" in f.message for f in changed.findings)


def test_the_own_files_index_update_keeps_the_walks(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    project = ProjectIndex(roots=[tmp_path], search_paths=())
    doc = Document(str(tmp_path / "model.py"), project)
    doc.analyze(MODEL)
    done = doc.walks.walks
    project.update(doc.path, MODEL)  # what the server does half a second after the last keystroke
    doc.analyze("# edit\n" + MODEL)
    assert doc.walks.walks == done


SOURCES = [MODEL, *((FIXTURES / name).read_text() for name in ["hf_style_model.py", "decorated_helpers.py"])]
LINES = ["# note", "x = 1", "y = x.sum()", "if x.sum() > 0:", "    pass", "print(x)", "return x.sum()", ""]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(SOURCES), edits=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(LINES),
                                                                  st.booleans()), min_size=1, max_size=6))
def test_random_edits_give_the_findings_of_an_analysis_without_caches(source, edits):
    doc = Document()
    doc.analyze(source)
    lines = source.split("\n")
    for at, line, indent in edits:
        at %= len(lines) + 1
        following = lines[at] if at < len(lines) else ""
        margin = following[:len(following) - len(following.lstrip())] if indent else ""
        lines.insert(at, margin + line)
        doc.analyze("\n".join(lines))  # Document.analyze compares with a fresh analysis


def test_a_walk_whose_facts_cannot_be_a_key_is_walked_and_not_kept():
    import ast

    from fullgraph.analysis.regions import ModuleIndex
    from fullgraph.analysis.walker import Visit
    tree = ast.parse(MODEL)
    index = ModuleIndex(tree, MODEL)
    cache = WalkCache()
    cache.begin(tree.body, "m.py", None)
    function = index.functions["flag"]
    visit = Visit(function, function, params={"x": ([1], ())})  # a list: not hashable
    assert cache.get(function, visit, index) is None
    cache.put(function, visit, [], [], index, {}, [])
    assert len(cache) == 0 and cache.declined(function, visit, None, None, lambda: "why") == "why"
