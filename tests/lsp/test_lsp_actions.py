"""Quick fixes, suppression, fix-all (source action and command) and stale-version refusal."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_texts import MODEL


FIX_ALL_KIND = "source.fixAll.fullgraph"


def _quick_fixes(actions, code):
    return [a for a in actions if a.kind == types.CodeActionKind.QuickFix and f"({code})" in a.title]


@pytest.mark.parametrize("code", ["FG101", "FG301"])
async def test_each_quick_fix_removes_its_diagnostic(session, code):
    uri = session.open("model.py", MODEL)
    diags = [d for d in await session.diagnostics(uri) if d.code == code]
    actions = _quick_fixes(await session.actions(uri, diags), code)
    main = actions[0]  # a deferral is offered, not preferred: `torch.export` refuses its replaying wrapper
    assert bool(main.is_preferred) == (code == "FG101") and main.title.startswith(f"fullgraph ({code}): ")
    assert [a for a in actions if a.is_preferred] in ([main], [])
    assert actions[-1].title == f"fullgraph ({code}): disable for this line"
    edit = main.edit.document_changes[0]
    assert edit.text_document.version == session.version(uri)
    assert session.apply(main.edit)
    after = await session.diagnostics(uri)
    assert (code, diags[0].range) not in [(d.code, d.range) for d in after]
    assert len(after) <= 2 and {d.code for d in after} >= {"FG101", "FG301"} - {code}
    assert session.text(uri) != MODEL


async def test_a_print_is_offered_its_deferral_and_no_dynamo_reordering(session):
    uri = session.open("model.py", MODEL)
    diags = [d for d in await session.diagnostics(uri) if d.code == "FG301"]
    titles = [a.title for a in _quick_fixes(await session.actions(uri, diags), "FG301")]
    assert titles == ["fullgraph (FG301): Defer until the compiled entry returns (unsafe)",
                      "fullgraph (FG301): disable for this line"]  # a function entry's replaying wrapper: unsafe


async def test_disable_for_this_line_suppresses(session):
    uri = session.open("model.py", MODEL)
    diags = [d for d in await session.diagnostics(uri) if d.code == "FG301"]
    suppress = _quick_fixes(await session.actions(uri, diags), "FG301")[-1]
    assert session.apply(suppress.edit)
    assert "# fullgraph: ignore[FG301]" in session.text(uri).splitlines()[5]
    assert [d.code for d in await session.diagnostics(uri)] == ["FG101"]


STRINGY = '''import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        s = """a
        b""" if x.any() else ""
        t = ("""c
        d""" if x.all() else "") + \\
            ""
        return x
'''


async def test_disable_for_this_line_never_writes_into_a_string(session):
    """A finding whose first line ends inside a multi-line string gets its comment after its end on
    its last line; one no line of which can carry a comment is not offered the action."""
    uri = session.open("model.py", STRINGY)
    diags = sorted((d for d in await session.diagnostics(uri) if d.code == "FG103"), key=lambda d: d.range.start.line)
    assert [d.range.start.line for d in diags] == [6, 8]
    titles = [a.title for a in _quick_fixes(await session.actions(uri, diags[1:]), "FG103")]
    assert "fullgraph (FG103): disable for this line" not in titles
    suppress = _quick_fixes(await session.actions(uri, diags[:1]), "FG103")[-1]
    assert suppress.title == "fullgraph (FG103): disable for this line" and session.apply(suppress.edit)
    assert session.text(uri).splitlines()[7] == '        b""" if x.any() else ""  # fullgraph: ignore[FG103]'
    assert [d.range.start.line for d in await session.diagnostics(uri) if d.code == "FG103"] == [8]


async def test_fix_all_source_action(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    actions = await session.actions(uri, [], only=[FIX_ALL_KIND])
    assert [a.kind for a in actions] == [FIX_ALL_KIND]
    action = actions[0]
    lazy = session.client_capabilities.text_document.code_action.resolve_support is not None
    assert (action.edit is None) == lazy
    if lazy:
        action = await session.client.code_action_resolve_async(action)
    assert len(action.edit.document_changes[0].edits) == 1
    assert session.apply(action.edit)
    _assert_fixed_once(session.text(uri), await session.diagnostics(uri))
    again = await session.actions(uri, [], only=[FIX_ALL_KIND])
    if lazy and again:
        again = [a for a in [await session.client.code_action_resolve_async(again[0])] if a.edit]
    assert again == []  # fix-all is idempotent: nothing left to offer


def _assert_fixed_once(text, diagnostics):
    assert "torch.where(" in text and text.count("print(") == 1
    assert "FG101" not in {d.code for d in diagnostics} and len(diagnostics) < 2


async def test_fix_all_command_applies_one_versioned_edit(session):
    uri = session.open("model.py", MODEL)
    before = await session.diagnostics(uri)
    assert before
    result = await session.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="fullgraph.applyFixAll", arguments=[uri, session.version(uri)]))
    assert result["applied"] is True
    sent = session.applied[-1].edit.document_changes[0]
    assert sent.text_document.version == 1 and len(sent.edits) == 1
    _assert_fixed_once(session.text(uri), await session.diagnostics(uri))
    result = await session.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="fullgraph.applyFixAll", arguments=[uri, session.version(uri)]))
    assert result == {"applied": False, "reason": "nothing to fix"}


async def test_stale_versions_are_refused(session):
    uri = session.open("model.py", MODEL)
    diags = await session.diagnostics(uri)
    actions = _quick_fixes(await session.actions(uri, diags), "FG301")
    session.replace_all(uri, MODEL + "\n")  # the user types before applying
    assert not session.apply(actions[0].edit)  # the versioned edit no longer applies
    count = len(session.applied)
    result = await session.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="fullgraph.applyFixAll", arguments=[uri, 1]))
    assert result["applied"] is False and "stale" in result["reason"]
    assert len(session.applied) == count  # nothing was sent to the client
    stale = await session.actions(uri, diags)  # diagnostics of version 1 give no quick fixes on version 2
    assert [a for a in stale if a.kind == types.CodeActionKind.QuickFix] == []


AUX = '''import torch
from torch import nn


class AuxLoss(nn.Module):
    def aux(self, x):
        return x * 2

    def forward(self, x: torch.Tensor):
        return self.aux(x).mean() if x.mean() > 0 else x.mean()
'''


async def test_the_unsafe_fixes_setting_offers_an_unsafe_fix_marked_and_not_preferred(session):
    plain = session.open("aux.py", AUX)
    diags = [d for d in await session.diagnostics(plain) if d.code == "FG103"]
    titles = [a.title for a in _quick_fixes(await session.actions(plain, diags), "FG103")]
    assert titles == ["fullgraph (FG103): disable for this line"]  # `aux` may be overridden: unsafe
    folder = session.root / "unsafe"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[tool.fullgraph]\nunsafe-fixes = true\n")
    uri = session.open("aux.py", AUX, folder="unsafe")
    diags = [d for d in await session.diagnostics(uri) if d.code == "FG103"]
    actions = _quick_fixes(await session.actions(uri, diags), "FG103")
    assert [a.title for a in actions] == ["fullgraph (FG103): Predicate with torch.where (unsafe)",
                                          "fullgraph (FG103): disable for this line"]
    assert not actions[0].is_preferred
    assert await session.actions(plain, [], only=[FIX_ALL_KIND]) == []  # nothing safe to fix there
    fix_all = await session.actions(uri, [], only=[FIX_ALL_KIND])
    assert [a.kind for a in fix_all] == [FIX_ALL_KIND]  # the setting lets fix-all apply it
    assert session.apply(actions[0].edit)
    assert "torch.where(x.mean() > 0, self.aux(x).mean(), x.mean())" in session.text(uri)
