"""Deferral from a helper to the calls its compiled entry replays after its frame: when it applies and
why it declines."""

from __future__ import annotations

import ast

import pytest

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from fullgraph.engine import analyze, analyze_document
from fullgraph.fixes import apply_edits, fix_all, fixes_for

SOURCE = """import torch
from torch import nn


class M(nn.Module):
    def _note(self, x):
        print("total", x.sum())
        return x + 1

    def forward(self, x):
{body}
"""


def finding(body: str):
    text = SOURCE.format(body=body)
    return text, next(f for f in analyze(text, "m.py") if f.code == "FG301")


def test_helper_call_is_queued_and_replayed_by_the_entry():
    text, found = finding("        y = self._note(x)\n        return y * 2\n")
    assert found.fix_blocked is None  # the forward of a module class: a safe fix
    fixed = fix_all(text, "m.py").source
    assert fixed == apply_edits(text, fixes_for(text, found)[0].edits)
    ast.parse(fixed)
    assert "_fullgraph_defer('M', lambda x_sum_for_print=x.sum(): print(\"total\", x_sum_for_print))" in fixed
    assert "@replay_deferred\nclass M(nn.Module):\n" in fixed
    assert not [f for f in analyze(fixed, "m.py") if f.code == "FG301"]
    assert fix_all(fixed, "m.py", unsafe=True).source == fixed


def test_a_function_entry_gets_the_wrapper_an_unsafe_fix():
    text = ("import torch\n\n\ndef note(x):\n    print(\"total\", x.sum())\n    return x + 1\n\n\n"
            "@torch.compile\ndef step(x):\n    return note(x) * 2\n")
    found = next(f for f in analyze(text, "m.py") if f.code == "FG301")
    assert "`torch.export` refuses the wrapper that would replay the call" in found.fix_blocked
    assert fix_all(text, "m.py").source == text
    fixed = fix_all(text, "m.py", unsafe=True).source
    assert "_fullgraph_defer('step', lambda" in fixed and "@replay_deferred\n@torch.compile\ndef step(x):" in fixed


@pytest.mark.parametrize("body, reason", [
    ("        y = self._note(x)\n        return self._note(y)\n", "is called from 2 places"),
    ("        return self._note(x)\n\n    def extra_repr(self):\n        return str(self._note(1))\n", "is called from 2 places"),
    ("        yield self._note(x)\n", "the entry is a generator"),
    ("        return self._twice(x)\n\n    def _twice(self, x):\n        return self._note(x) * 2\n",
     "`_note` is called at line 14, outside `M.forward`: the entry replays only what a helper it calls itself"),
])
def test_helper_deferral_declines_with_reason(body, reason):
    _, found = finding(body)
    assert reason in (found.fix_blocked or "")


def test_an_entry_that_is_also_a_submodule_is_left_to_the_user(tmp_path):
    """Inside another module's compiled frame Dynamo ignores the replaying hooks and the call stays
    in place, with its break: fix-all declines, naming where (another workspace file here); the
    quick fix and `--unsafe-fixes` still apply it."""
    text = SOURCE.format(body="        print(\"in\", x.sum())\n        return x * 2\n")
    (tmp_path / "m.py").write_text(text)
    (tmp_path / "outer.py").write_text(
        "from torch import nn\nfrom m import M\n\n\nclass Outer(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.inner = M()\n\n    def forward(self, x):\n        return self.inner(x)\n")
    project = ProjectIndex(roots=[tmp_path], search_paths=())
    report = analyze_document(text, str(tmp_path / "m.py"), Config(), project=project)
    found = next(f for f in report.findings if f.code == "FG301")
    assert "`M` is also made or called by other module code (`Outer.__init__` (outer.py:8)): compiled as part of that " \
           "module, the call stays" in found.fix_blocked
    assert "@replay_deferred" in apply_edits(text, fixes_for(text, found)[0].edits)


@pytest.mark.parametrize("made", ["self.inner = M()", "block_class = M\n        self.inner = block_class()"])
def test_a_submodule_forward_replays_from_every_module_of_the_file_that_makes_it(made):
    """Outer makes M (directly, or through a local name for the class): whichever Dynamo compiles on
    its own runs its hooks outside the graph and replays the queue, so both classes replay what
    M.forward defers."""
    outer = ("\n\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
             f"        {made}\n\n    def forward(self, x):\n        return self.inner(x)\n")
    text = SOURCE.format(body="        print(\"in\", x.sum())\n        return x * 2\n") + outer
    found = next(f for f in analyze(text, "m.py") if f.code == "FG301")
    assert found.fix_blocked is None and found.data["replay_classes"] == ["M", "Outer"]
    fixed = fix_all(text, "m.py").source
    assert "_fullgraph_defer(('M', 'Outer'), lambda" in fixed
    assert "@replay_deferred\nclass M(nn.Module):" in fixed and "@replay_deferred\nclass Outer(nn.Module):" in fixed


@pytest.mark.parametrize("made", ["block_class = M if flag else nn.Identity\n        self.inner = block_class()",
                                  "kinds = {\"m\": M}\n        self.inner = kinds[\"m\"]()"])
def test_a_class_made_through_a_local_name_runs_inside_its_maker(made):
    """`block_class = M if flag else nn.Identity` (or a table) then `block_class()` in another module's
    `__init__`: the class runs inside that module, whose `forward` is not seen to call it (so what
    output follows the call there is unknown): the maker does not replay, and fix-all declines."""
    outer = (f"\n\nclass Outer(nn.Module):\n    def __init__(self, flag=True):\n        super().__init__()\n"
             f"        {made}\n\n    def forward(self, x):\n        return self.inner(x)\n")
    text = SOURCE.format(body="        print(\"in\", x.sum())\n        return x * 2\n") + outer
    found = next(f for f in analyze(text, "m.py") if f.code == "FG301")
    assert "`M` is also made or called by other module code (`Outer.__init__`" in (found.fix_blocked or "")
    assert fix_all(text, "m.py").source == text


def test_a_helper_reached_from_an_entry_in_another_file_is_analysed(tmp_path):
    """A finding in another file's helper, made while analysing the entry's file: whether the entry's
    class is a module class is the entry file's question (it was asked of the helper's file)."""
    (tmp_path / "helpers.py").write_text("def note(x):\n    print(\"total\", x.sum())\n    return x + 1\n")
    text = ("from torch import nn\nfrom helpers import note\n\n\nclass M(nn.Module):\n    def forward(self, x):\n"
            "        return note(x) * 2\n")
    (tmp_path / "model.py").write_text(text)
    project = ProjectIndex(roots=[tmp_path], search_paths=())
    report = analyze_document(text, str(tmp_path / "model.py"), Config(), project=project)
    assert report.findings == []  # no FG001: the file was analysed
    [found] = report.elsewhere
    assert found.code == "FG301" and found.path.endswith("helpers.py") and found.data["entry"] == "M.forward"
    assert found.data["module_forward"] and "is not in this file" in found.fix_blocked


def test_an_older_torch_without_what_the_replay_calls_gets_no_deferral(tmp_path, monkeypatch):
    """The generated code calls `torch.compiler.is_exporting`, `ignore_logging_functions` and
    `always_call` hooks; a project whose torch (read from disk) lacks one gets no deferral."""
    from fullgraph.fixes.deferral_chain import replay_supported

    old = tmp_path / "old"
    for parts, text in (("compiler/__init__.py", "def is_compiling(): ...\n"), ("_dynamo/config.py", "x = 1\n"),
                        ("nn/modules/module.py", "always_call = True\n")):
        path = old / "torch" / parts
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (old / "torch" / "__init__.py").write_text("")

    class Project:  # the project's interpreter comes before fullgraph's own
        class resolver:
            bases = (str(old),)

    assert replay_supported() and not replay_supported(Project())
    monkeypatch.setattr("fullgraph.engine.replay_supported", lambda project: False)
    text, found = finding("        y = self._note(x)\n        return y * 2\n")
    assert "the project's torch lacks what the deferral's code calls" in found.fix_blocked
    assert not any(f.kind == "defer" for f in fixes_for(text, found))
    assert fix_all(text, "m.py", unsafe=True).source.count("_fullgraph_defer") == 0


def test_output_elsewhere_in_the_region_leaves_the_deferral_to_the_user():
    """A print the entry reaches in another function (not deferred: called from two places) could
    run before the replay where it ran after the call: the deferral is unsafe, with the reason."""
    body = "        print(\"in\", x.sum())\n        y = self._note(x)\n        return self._note(y)\n"
    text = SOURCE.format(body=body)
    found = next(f for f in analyze(text, "m.py") if f.code == "FG301" and f.line == 11)
    assert "`M._note` also print, log, warn or write a stream, and may do so after this call" in found.fix_blocked
    assert "_fullgraph_defer" not in fix_all(text, "m.py").source
    assert any(f.kind == "defer" and f.unsafe for f in fixes_for(text, found))


def test_a_print_earlier_in_the_same_loop_runs_after_the_call_in_the_next_iteration():
    body = ("        for row in x:\n            print(\"row\")\n            print(\"sum\", row.sum())\n"
            "        return x * 2\n")
    text = SOURCE.format(body=body).replace("        print(\"total\", x.sum())\n", "        pass\n")
    found = next(f for f in analyze(text, "m.py") if f.code == "FG301" and "row.sum()" in f.message)
    assert "another print, logging, warnings or stream-write call follows" in (found.fix_blocked or "")


def test_a_print_alone_in_a_loop_defers_each_iteration_in_order():
    """The call's own next iteration is deferred too (the queue keeps the order); a print already
    queued inside a nested block does not stand in the way of an earlier one."""
    body = ("        for row in x:\n            if row.numel():\n                print(\"row\", row.sum())\n"
            "        print(\"after\", x.sum())\n        return x * 2\n")
    text = SOURCE.format(body=body).replace("        print(\"total\", x.sum())\n", "        pass\n")
    outs = {f.line: f.fix_blocked for f in analyze(text, "m.py") if f.code == "FG301"}
    assert outs[14] is None and "another print" in outs[13]  # until the later print is queued
    fixed = fix_all(text, "m.py").source
    assert fixed.count("_fullgraph_defer('M', lambda") == 2
    assert not [f for f in analyze(fixed, "m.py") if f.code == "FG301"]
