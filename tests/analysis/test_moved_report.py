"""An edit of comment lines and blank lines only reuses the last analysis, moved (no index, no
walk); any other edit, a suppression comment included, is analysed, and the findings are always
those of an analysis without caches."""

from __future__ import annotations

import textwrap
from contextlib import nullcontext

from fullgraph import engine
from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.walk_cache import WalkCache
from fullgraph.config import Config

CONFIG = Config(assume_compiled="all")
MODEL = textwrap.dedent('''\
    import torch
    from torch import nn
    from helpers import scale


    class Block(nn.Module):
        def forward(self, x):
            print(x.shape)
            note = """
    kept
    """
            return scale(x), note
    ''') + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(20))  # an edit re-parses its blocks, not most of the file


class Document:
    """One open document as the language server holds it; counts the analyses it does in full."""

    def __init__(self, monkeypatch, path: str = "m.py", project: ProjectIndex | None = None) -> None:
        self.path, self.project = path, project
        self.parses, self.walks = ParseCache(), WalkCache()
        self.full = 0
        real = engine._analyze_tree

        def counted(*args, **kwargs):
            self.full += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(engine, "_analyze_tree", counted)

    def analyze(self, text: str, config: Config = CONFIG):
        with self.project.readonly() if self.project is not None else nullcontext() as use:
            cached = engine.analyze_document(text, self.path, config, self.parses, self.project, self.walks)
        full = self.full
        with self.project.readonly() if self.project is not None else nullcontext():
            fresh = engine.analyze_document(text, self.path, config, project=self.project)
        self.full = full
        assert cached == fresh  # findings (messages, ranges, related), entries
        return cached, use


def test_comment_and_blank_line_edits_move_the_last_findings_without_analysing(monkeypatch):
    doc = Document(monkeypatch)
    first, _ = doc.analyze(MODEL)
    assert [(f.line, f.code) for f in first.findings] == [(8, "FG301")]
    entered = MODEL.replace("    def forward", "\n    # the block\n    def forward")  # Enter, then a comment
    moved, _ = doc.analyze(entered)
    assert [(f.line, f.code) for f in moved.findings] == [(10, "FG301")] and doc.full == 1
    assert moved.entries[0].line == first.entries[0].line + 2
    back, _ = doc.analyze(MODEL)  # lines removed
    assert back == first and doc.full == 1
    inside, _ = doc.analyze(MODEL.replace("        print(", "        # why\n\n        print("))  # in the body
    assert [(f.line, f.code) for f in inside.findings] == [(10, "FG301")] and doc.full == 1
    assert (inside.entries[0].line, inside.entries[0].end_line) == (first.entries[0].line, first.entries[0].end_line + 2)


def test_an_edit_of_code_a_suppression_or_a_string_is_analysed(monkeypatch):
    doc = Document(monkeypatch)
    doc.analyze(MODEL)
    quiet, _ = doc.analyze(MODEL.replace("print(x.shape)", "print(x.shape)  # noqa: FG301"))
    assert quiet.findings == [] and doc.full == 2  # a comment on a line of code
    loud, _ = doc.analyze(MODEL)
    assert len(loud.findings) == 1 and doc.full == 3  # and its removal
    doc.analyze(MODEL.replace("kept\n", "kept\n# not a comment: inside the string\n"))
    assert doc.full == 4  # the line looks like a comment, but the string changed
    doc.analyze(MODEL, Config())
    assert doc.full == 5  # other settings


def test_a_moved_analysis_records_the_index_files_it_stands_on(tmp_path, monkeypatch):
    """The editor re-analyses a document when a file its analysis used changes: a moved one
    reports the files of the analysis it moved, and none is moved once the index changed."""
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "helpers.py").write_text("def scale(x):\n    if x.sum() > 0:\n        return x * 2\n    return x\n")
    (tmp_path / "ws" / "m.py").write_text(MODEL)
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    with project.recording():  # the server's index thread reads the files the analysis reaches
        engine.analyze_document(MODEL, str(tmp_path / "ws" / "m.py"), CONFIG, project=project)
    doc = Document(monkeypatch, str(tmp_path / "ws" / "m.py"), project)
    first, use = doc.analyze(MODEL)
    helpers = str(tmp_path / "ws" / "helpers.py")
    assert helpers in use.touched and [(f.path, f.line) for f in first.elsewhere] == [(helpers, 2)]
    moved, moved_use = doc.analyze("# edit\n" + MODEL)
    assert doc.full == 1 and helpers in moved_use.touched and moved_use.names == use.names
    assert moved.elsewhere[0].related[0].line == first.elsewhere[0].related[0].line + 1  # the entry, moved
    project.update(helpers, "def scale(x):\n    return x * 2\n")
    changed, _ = doc.analyze("# edit 2\n" + MODEL)
    assert doc.full == 2 and changed.elsewhere == []


CHAIN = textwrap.dedent("""\
    import torch
    from torch import nn


    class M(nn.Module):
        def forward(self, x: torch.Tensor):
            if x.sum() > 0:
                x = x + 1
            elif x.mean() > 1:
                x = x * 2
            return x
    """) + "".join(f"\nLIMIT_{i} = {i}\n" for i in range(20))


def test_a_decline_reason_that_names_a_line_moves_with_it(monkeypatch):
    doc = Document(monkeypatch)
    first, _ = doc.analyze(CHAIN)
    assert [f.fix_blocked for f in first.findings if f.line == 9] == [
        "an `elif` is rewritten only with the `if` chain it continues (line 7)"]
    full = doc.full
    moved, _ = doc.analyze(CHAIN.replace("    def forward", "\n    # the model\n    def forward"))  # compared with a fresh one
    assert doc.full == full  # still the moved report
    assert [f.fix_blocked for f in moved.findings if f.line == 11] == [
        "an `elif` is rewritten only with the `if` chain it continues (line 9)"]
