"""pytest-lsp session helpers: the real `fullgraph serve` process driven over stdio.

``editor`` is parametrised over the VS Code 1.65 and Neovim 0.11 capability sets. Its
``Session`` mirrors every open document on the client side (a pygls ``TextDocument``) so
that edits from code actions and ``workspace/applyEdit`` are applied exactly as an editor
would apply them, then sent back as incremental ``didChange`` events.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "fullgraph", "serve", "--stdio"]
TIMEOUT = 20.0


class Session:
    """Client-side document mirror plus helpers to wait for versioned diagnostics."""

    def __init__(self, client: LanguageClient, root: Path):
        self.client = client
        self.root = root
        self.docs: dict[str, TextDocument] = {}
        self.published: list[types.PublishDiagnosticsParams] = []
        self.applied: list[types.ApplyWorkspaceEditParams] = []
        self.registrations: list[types.Registration] = []
        self.lens_refreshes = 0
        self.accept_edits = True
        self.server_capabilities = types.ServerCapabilities()
        self.client_capabilities = types.ClientCapabilities()
        original = client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def record(params: types.PublishDiagnosticsParams):
            self.published.append(params)
            return original(params)

        client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record

        @client.feature(types.WORKSPACE_APPLY_EDIT)
        def apply_edit(params: types.ApplyWorkspaceEditParams):
            self.applied.append(params)
            if not self.accept_edits:
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="declined by test")
            ok = self.apply(params.edit)
            return types.ApplyWorkspaceEditResult(applied=ok, failure_reason=None if ok else "stale version")

        @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
        def refresh_lenses(params=None):
            self.lens_refreshes += 1

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams):
            self.registrations.extend(params.registrations)

    @property
    def encoding(self) -> str:
        return self.server_capabilities.position_encoding or types.PositionEncodingKind.Utf16

    def open(self, name: str, text: str, folder: str | None = None) -> str:
        """Write ``name`` under ``folder`` (default: a new one) and open it with ``text``; returns its URI."""
        path = self.root / (folder or f"d{len(self.docs)}") / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        uri = from_fs_path(str(path))
        self.docs[uri] = TextDocument(uri, text, version=1, language_id="python",
                                      position_codec=PositionCodec(self.encoding))
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        return uri

    def text(self, uri: str) -> str:
        return self.docs[uri].source

    def version(self, uri: str) -> int:
        return self.docs[uri].version

    def change(self, uri: str, changes: list[types.TextDocumentContentChangeEvent]) -> int:
        """Apply incremental ``changes`` locally and send them as one didChange; returns the new version."""
        doc = self.docs[uri]
        for change in changes:
            doc.apply_change(change)
        doc.version += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=doc.version),
            content_changes=changes))
        return doc.version

    def replace_all(self, uri: str, text: str) -> int:
        """Replace the whole text through an incremental range change."""
        lines = self.docs[uri].lines
        end = types.Position(line=len(lines), character=0)
        return self.change(uri, [types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=0), end=end), text=text)])

    def apply(self, edit: types.WorkspaceEdit) -> bool:
        """Apply a WorkspaceEdit like an editor: refuse a stale version, else one didChange per document."""
        per_uri = dict(edit.changes or {})
        for change in edit.document_changes or []:
            uri = change.text_document.uri
            if change.text_document.version is not None and change.text_document.version != self.version(uri):
                return False
            per_uri[uri] = change.edits
        for uri, edits in per_uri.items():
            ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
            self.change(uri, [types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
                              for e in ordered])
        return True

    async def diagnostics(self, uri: str, version: int | None = None, settle: float = 0.0) -> list[types.Diagnostic]:
        """The diagnostics published for ``uri`` at ``version`` (default: the current one)."""
        version = self.version(uri) if version is None else version
        deadline = time.monotonic() + TIMEOUT
        while True:
            mine = [p for p in self.published if p.uri == uri and p.version == version]
            if mine:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"no diagnostics for {uri} v{version}; got {[(p.uri, p.version) for p in self.published]}")
            await asyncio.sleep(0.01)
        if settle:
            await asyncio.sleep(settle)
        return list([p for p in self.published if p.uri == uri][-1].diagnostics)

    async def actions(self, uri: str, diagnostics: list[types.Diagnostic], only=None) -> list[types.CodeAction]:
        rng = diagnostics[0].range if diagnostics else types.Range(start=types.Position(line=0, character=0),
                                                                   end=types.Position(line=0, character=0))
        result = await self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only)))
        return result or []


def summary(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    """(code, start line, start char, end line, end char) of each diagnostic, sorted."""
    return sorted((d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
                  for d in diagnostics)


def start_client(settings: dict, capabilities: types.ClientCapabilities | None = None):
    """A module-scoped pytest-lsp fixture: one server per client kind, initialised with ``settings``
    (the VS Code and Neovim capability sets, or only ``capabilities`` when given)."""

    @pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                        params=["given"] if capabilities else ["visual_studio_code", "neovim"])
    async def fixture(lsp_client: LanguageClient, request, tmp_path_factory):
        tmp_path = tmp_path_factory.mktemp("ws")
        lsp_client.session = Session(lsp_client, tmp_path)
        lsp_client.set_configuration({"fullgraph": {}})
        caps = capabilities if capabilities else client_capabilities(request.param)
        lsp_client.session.client_capabilities = caps
        result = await lsp_client.initialize_session(types.InitializeParams(
            capabilities=caps,
            root_uri=from_fs_path(str(tmp_path)),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(tmp_path)), name="ws")],
            initialization_options={"settings": settings}))
        lsp_client.session.server_capabilities = result.capabilities
        yield
        await lsp_client.shutdown_session()

    return fixture
