"""Settings: initializationOptions, [tool.fullgraph], workspace/configuration, didChangeConfiguration."""

from __future__ import annotations

import asyncio

import pytest
from lsp_session import Session, start_client
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_texts import MODEL


configured = start_client({"debounce": 0, "ignore": ["FG3"]})


@pytest.fixture
def session(configured: LanguageClient):
    """A server started with ``ignore = ["FG3"]``; each test leaves the settings as it found them."""
    yield configured.session
    configured.set_configuration({"fullgraph": {}})
    configured.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"fullgraph": {}}))


async def _reconfigure(session: Session, uri: str, pushed: dict | None, expected=None) -> list[types.Diagnostic]:
    """Send didChangeConfiguration and return the diagnostics ``uri`` gets republished with: the
    first republish, or with ``expected`` the first whose diagnostics it accepts (a republish the
    last test's reset of the settings caused may still arrive first); the last one on timeout."""
    count = len([p for p in session.published if p.uri == uri])
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=pushed))
    for _ in range(2000):
        mine = [p for p in session.published if p.uri == uri][count:]
        match = [p for p in mine if expected is None or expected(list(p.diagnostics))]
        if match:
            return list(match[0].diagnostics)
        await asyncio.sleep(0.01)
    if mine:
        return list(mine[-1].diagnostics)
    raise TimeoutError(uri)


async def test_initialization_options_select_rules(session):
    uri = session.open("model.py", MODEL)
    assert [d.code for d in await session.diagnostics(uri)] == ["FG101"]


async def test_pyproject_severity_applies_under_client_settings(session):
    folder = session.root / "with_pyproject"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[tool.fullgraph]\nseverity = { FG1 = "error" }\nignore = ["FG1"]\n')
    uri = session.open("model.py", MODEL, folder="with_pyproject")
    diags = await session.diagnostics(uri)
    # The client's ignore (FG3) replaces the project's (FG1); the project's severity still applies.
    assert [(d.code, d.severity) for d in diags] == [("FG101", types.DiagnosticSeverity.Error)]


async def test_pushed_configuration_change_reanalyses_open_documents(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    wanted = [("FG101", types.DiagnosticSeverity.Warning), ("FG301", types.DiagnosticSeverity.Hint)]
    diags = await _reconfigure(session, uri, {"fullgraph": {"ignore": [], "severity": {"FG3": "hint"}}},
                               lambda diags: sorted((d.code, d.severity) for d in diags) == wanted)
    assert sorted((d.code, d.severity) for d in diags) == wanted


async def test_pulled_configuration_can_disable(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri)
    session.client.set_configuration({"fullgraph": {"enable": False}})
    assert await _reconfigure(session, uri, None, lambda diags: diags == []) == []
    session.client.set_configuration({"fullgraph": {"ignore": []}})
    assert len(await _reconfigure(session, uri, None, lambda diags: len(diags) == 2)) == 2


async def test_run_on_save_waits_for_save(session):
    uri = session.open("model.py", MODEL)
    await session.diagnostics(uri, settle=1.0)  # the project index's republish too, so that the next one is the setting's
    session.client.set_configuration({"fullgraph": {"run": "onSave"}})
    await _reconfigure(session, uri, None)
    await session.diagnostics(uri, settle=1.0)  # a republish already under way when the setting arrived
    session.replace_all(uri, MODEL.replace("    if x.sum() > 0:\n        x = x * 2\n    else:\n        x = x - 1\n", ""))
    await asyncio.sleep(0.5)
    assert not [p for p in session.published if p.uri == uri and p.version == 2]
    session.client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await session.diagnostics(uri, 2) == []
