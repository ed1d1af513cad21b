"""A bare client: no diagnostic ``data`` sent back, no code-action resolve, ``applyEdit: false``."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_session import Session, start_client
from lsp_texts import MODEL
from pytest_lsp import LanguageClient

BARE = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(apply_edit=False),
    text_document=types.TextDocumentClientCapabilities(
        code_action=types.CodeActionClientCapabilities(
            code_action_literal_support=types.ClientCodeActionLiteralOptions(
                code_action_kind=types.ClientCodeActionKindOptions(value_set=[types.CodeActionKind.QuickFix])))))

bare = start_client({"debounce": 0}, BARE)


@pytest.fixture
def session(bare: LanguageClient) -> Session:
    return bare.session


def _without_data(diag: types.Diagnostic) -> types.Diagnostic:
    return types.Diagnostic(range=diag.range, message=diag.message, severity=diag.severity, code=diag.code,
                            source=diag.source)


async def test_quick_fixes_are_rebuilt_without_diagnostic_data(session):
    uri = session.open("model.py", MODEL)
    diags = [_without_data(d) for d in await session.diagnostics(uri)]
    by_code = {d.code: d for d in diags}
    fg101 = [a for a in await session.actions(uri, [by_code["FG101"]]) if a.kind == types.CodeActionKind.QuickFix]
    titles = [a.title for a in fg101]
    assert titles[0].startswith("fullgraph (FG101): ") and titles[-1] == "fullgraph (FG101): disable for this line"
    assert all(a.edit is not None for a in fg101)
    bare_minimum = types.Diagnostic(range=by_code["FG301"].range, message=by_code["FG301"].message)  # no code, no source
    titles = [a.title for a in await session.actions(uri, [bare_minimum])]
    assert "fullgraph (FG301): disable for this line" in titles
    assert session.apply(fg101[0].edit)
    assert [d.code for d in await session.diagnostics(uri)] == ["FG301"]


async def test_no_apply_edit_request_to_a_client_that_cannot(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    answer = await session.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="fullgraph.applyFixAll", arguments=[uri, session.version(uri)]))
    assert session.applied == []
    assert answer["applied"] is False and "applyEdit: false" in answer["reason"]
    change = answer["edit"]["documentChanges"][0]
    assert change["textDocument"]["version"] == session.version(uri) and change["edits"]
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [(lens.command.title, lens.command.command) for lens in lenses] == [("2 likely graph breaks · 1 fixable", "")]
    (fix_all,) = await session.actions(uri, [], only=["source.fixAll.fullgraph"])
    assert fix_all.edit is not None  # the edit travels in the code action
