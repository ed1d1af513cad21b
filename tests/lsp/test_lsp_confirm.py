"""Dynamo confirmation through the real server: never on open, CodeLens, progress, merged diagnostics,
verified fix-all."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.uris import to_fs_path

pytestmark = pytest.mark.torch

FIXTURE = Path(__file__).parents[1] / "confirm" / "fixtures" / "clip.py"
# Importing the file leaves a marker, so the test can tell whether user code ran.
MARKER = '\n\nfrom pathlib import Path\nPath(__file__).with_name("ran").touch()\n'


async def execute(session, command: str, *arguments):
    return await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments)))


async def test_confirm_flow(session):
    text = FIXTURE.read_text() + MARKER
    uri = session.open("clip.py", text)
    ran = Path(to_fs_path(uri)).with_name("ran")
    static = await session.diagnostics(uri)
    assert sorted(d.code for d in static) == ["FG101", "FG301"]
    assert not ran.exists()  # opening a file never runs user code

    lenses = await session.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    confirm_lens = [lens for lens in lenses if lens.command.title == "Confirm with Dynamo"]
    assert [(lens.range.start.line, list(lens.command.arguments)) for lens in confirm_lens] == [
        (text.splitlines().index("    def forward(self, x):"), [uri, ""])]

    before = len(session.published)
    answer = await execute(session, "fullgraph.confirm", uri)
    assert answer["ok"] and answer["replaced"] and answer["targets"][0]["graphs"] == [3, 3, 3, 2]
    assert ran.exists()
    confirmed = [p for p in session.published[before:] if p.uri == uri][-1]
    assert confirmed.version == session.version(uri)
    assert all("confirmed by Dynamo" in d.message for d in confirmed.diagnostics)
    if session.client_capabilities.window and session.client_capabilities.window.work_done_progress:
        kinds = [[r.kind for r in reports] for reports in session.client.progress_reports.values()]
        assert ["begin", "end"] in [[k for k in ks if k != "report"] for ks in kinds]

    answer = await execute(session, "fullgraph.verifiedFixAll", uri, session.version(uri))
    assert answer["applied"] and "graphs 3 → 1, outputs identical on 4 input sets" in answer["reason"]  # print deferred
    assert "torch.where(h.sum() > 0" in session.text(uri)


async def test_confirm_refuses_unsaved_changes(session):
    uri = session.open("clip.py", FIXTURE.read_text())
    await session.diagnostics(uri)
    session.replace_all(uri, FIXTURE.read_text() + "\n# edited\n")
    await session.diagnostics(uri)
    answer = await execute(session, "fullgraph.confirm", uri)
    assert not answer["ok"] and "save the file first" in answer["reason"]


async def test_confirm_can_be_turned_off(session):
    uri = session.open("clip.py", FIXTURE.read_text())
    await session.diagnostics(uri)
    off = {"fullgraph": {"confirm": {"enable": False}}}
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=off))
    try:
        answer = await execute(session, "fullgraph.confirm", uri)
        assert not answer["ok"] and "fullgraph.confirm.enable" in answer["reason"]
        lenses = await session.client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        assert not [lens for lens in lenses if lens.command.title == "Confirm with Dynamo"]
    finally:
        session.client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"fullgraph": {}}))


async def test_synthesized_inputs_become_a_factory_by_code_action(session):
    """Confirming a class without a factory synthesizes its inputs; a code action writes them as a factory."""
    text = (Path(__file__).parents[1] / "confirm" / "fixtures" / "plain_defaults.py").read_text()
    uri = session.open("plain_defaults.py", text)
    await session.diagnostics(uri)
    answer = await execute(session, "fullgraph.confirm", uri, "Tower")
    assert answer["ok"] and answer["targets"][0]["synthesized"]["description"] == "inputs synthesized: x (2, 8)"
    end = types.Position(line=len(text.splitlines()), character=0)
    actions = await session.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=end, end=end),
        context=types.CodeActionContext(diagnostics=[])))
    (write,) = [a for a in actions or [] if a.title == "fullgraph: write the synthesized inputs as fullgraph_example_Tower()"]
    assert write.kind == types.CodeActionKind.RefactorRewrite
    assert session.apply(write.edit)
    assert session.text(uri).startswith(text.rstrip("\n") + "\n\n\ndef fullgraph_example_Tower():\n")
    assert "    return model, (x,), {}\n" in session.text(uri)


async def test_a_run_that_raises_is_shown_with_where_to_edit_the_inputs(session):
    text = (Path(__file__).parents[1] / "confirm" / "fixtures" / "raises_on_none.py").read_text()
    uri = session.open("raises_on_none.py", text)
    await session.diagnostics(uri)
    shown = len(session.client.messages)
    answer = await execute(session, "fullgraph.confirm", uri, "Broken")
    assert not answer["ok"] and answer["targets"][0]["run_errors"]
    (message,) = [m.message for m in session.client.messages[shown:]]
    assert "running the target raised AttributeError" in message
    assert "write them into the file as fullgraph_example_Broken()" in message
