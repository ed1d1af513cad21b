"""Quick fixes of one document version (the editor asks diagnostic by diagnostic) parse its text
once; each request's fix is the one it gets alone (fresh names are not shared between requests);
an edit drops the parse; the server's parse cache spares the parse."""

from __future__ import annotations

import ast
import gc
import textwrap
import weakref

from fullgraph.analysis.incremental import ParseCache
from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document
from fullgraph.fixes import dispatch, names
from fullgraph.lsp import actions
from fullgraph.lsp.convert import to_diagnostic
from fullgraph.lsp.positions import Encoder
from fullgraph.text import split_lines

URI = "file:///m.py"
SOURCE = textwrap.dedent('''\
    import torch
    from torch import nn


    class M(nn.Module):
        def forward(self, x: torch.Tensor):
            y = torch.relu(x)
            print("mean", y.mean())
            return y * 2


    class N(nn.Module):
        def forward(self, x: torch.Tensor):
            y = torch.tanh(x)
            print("mean", y.mean())
            return y + 1


    class K(nn.Module):
        def forward(self, x: torch.Tensor):
            n = x.sum().item()
            return x * n
    ''')
KNOWN = analyze(SOURCE, "m.py")  # the findings of the version, which the server holds


def diagnostics(source: str, version: int, code: str = "FG301"):
    enc = Encoder(split_lines(source), "utf-16")
    return [to_diagnostic(f, URI, version, "m.py", enc) for f in analyze(source, "m.py") if f.code == code]


def test_one_parse_per_version_and_the_same_fixes_as_alone(monkeypatch):
    found = diagnostics(SOURCE, 1)
    assert len(found) == 2
    alone = []
    for diag in found:
        actions.forget(URI)
        alone.append(actions.quick_fixes(URI, 1, SOURCE, [diag], "utf-16", KNOWN))
    parses = []
    real = dispatch.parse
    monkeypatch.setattr(dispatch, "parse", lambda source: (parses.append(source), real(source))[1])
    actions.forget(URI)
    together = [actions.quick_fixes(URI, 1, SOURCE, [diag], "utf-16", KNOWN) for diag in found]
    assert len(parses) == 1 and together == alone and all(len(a) > 1 for a in together)
    assert len(actions.quick_fixes(URI, 1, SOURCE, diagnostics(SOURCE, 1, "FG201"), "utf-16", KNOWN)) > 1  # its checks memoise
    tree = weakref.ref(actions._parses[URI][2].tree)
    actions.forget(URI)  # what didChange does: nothing holds the module's tree any more
    gc.collect()
    assert tree() is None
    edited = SOURCE.replace("y * 2", "y * 3")
    actions.quick_fixes(URI, 2, edited, diagnostics(edited, 2)[:1], "utf-16", analyze(edited, "m.py"))
    assert len(parses) == 2


def test_with_the_documents_parse_cache_the_fixes_use_the_analysed_tree_and_stay_the_same_after_an_edit(monkeypatch):
    """The server passes the document's parse cache: no second parse, the same actions as a
    fresh parse gives, also once an edit above moved the kept nodes, and only new top-level
    statements are walked for identifiers."""
    cache = ParseCache()

    def version(source: str, number: int):
        known = analyze_document(source, "m.py", Config(), cache).findings
        diags = diagnostics(source, number) + diagnostics(source, number, "FG201")
        actions.forget(URI)
        fresh = [actions.quick_fixes(URI, number, source, [d], "utf-16", known) for d in diags]
        actions.forget(URI)
        return [actions.quick_fixes(URI, number, source, [d], "utf-16", known, cache) for d in diags], fresh

    parses, walked = [], []
    real_parse, real_names = dispatch.parse, names.taken_names
    monkeypatch.setattr(dispatch, "parse", lambda source: (parses.append(source), real_parse(source))[1])
    monkeypatch.setattr(names, "taken_names", lambda tree: (walked.append(tree), real_names(tree))[1])
    shared, fresh = version(SOURCE, 1)
    assert shared == fresh and len(shared) == 3 and all(len(a) > 1 for a in shared)
    assert parses == [SOURCE] and len(walked) == len(ast.parse(SOURCE).body)  # each statement once
    edited = SOURCE.replace("from torch import nn\n", "from torch import nn\n\nSCALE = 2\n")
    parses.clear(), walked.clear()
    shared, fresh = version(edited, 2)
    assert shared == fresh and len(shared) == 3
    assert parses == [edited] and len(walked) == 1  # `SCALE = 2` alone
    actions.closed(URI)
