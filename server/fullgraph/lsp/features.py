"""LSP handlers: each one translates a request into scheduler, actions, hover or lens calls."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from functools import partial

from lsprotocol import types
from pygls.uris import to_fs_path

from fullgraph.analysis.workspace import interpreter
from fullgraph.lsp import actions
from fullgraph.lsp.hover import covers, hover_markdown
from fullgraph.lsp.lens import breaks_lenses
from fullgraph.lsp.positions import Encoder
from fullgraph.lsp.server import FullgraphServer

SECTION = "fullgraph"
CONFIRM_FEATURE = "fullgraph.lsp.confirm_feature"


def _caps(ls: FullgraphServer):
    return ls.client_capabilities


def _supports_pull(caps: types.ClientCapabilities) -> bool:
    return bool(caps.text_document and caps.text_document.diagnostic)


def _supports_lazy_edit(caps: types.ClientCapabilities) -> bool:
    action = caps.text_document.code_action if caps.text_document else None
    resolve = action.resolve_support if action else None
    return bool(action and action.data_support and resolve and "edit" in resolve.properties)


def _supports_configuration(caps: types.ClientCapabilities) -> bool:
    return bool(caps.workspace and caps.workspace.configuration)


async def pull_settings(ls: FullgraphServer) -> None:
    """Ask the client for section ``fullgraph`` and merge it over the initialization options."""
    if not _supports_configuration(_caps(ls)):
        return
    try:
        answer = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)]))
    except Exception as error:  # a client that cannot answer keeps the previous settings
        ls.log_error("workspace/configuration failed", error)
        return
    ls.settings.update(ls.init_settings, answer[0] if answer else None)


async def _register_configuration(ls: FullgraphServer) -> None:
    """Ask for didChangeConfiguration (clients using the pull model only send it when asked)."""
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[
            types.Registration(id="fullgraph-configuration", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION)]))
    except Exception as error:
        ls.log_warning(f"client/registerCapability failed: {error}")


def _start_index(ls: FullgraphServer) -> None:
    """Build the project index in the background over the workspace folders, and ask the
    client to tell us when Python files change on disk."""
    folders = [to_fs_path(f.uri) for f in ls.workspace.folders.values() if f.uri.startswith("file:")]
    if not folders and ls.workspace.root_path:
        folders = [ls.workspace.root_path]
    settings = ls.settings.client
    confirm = settings.get("confirm") if isinstance(settings.get("confirm"), dict) else {}
    python = settings.get("interpreter") or confirm.get("interpreter")
    if not isinstance(python, str) or not python:
        python = interpreter(ls.settings.for_path(folders[0] if folders else None).config)
    ls.index.start(folders, python)
    caps = _caps(ls)
    watched = caps.workspace.did_change_watched_files if caps.workspace else None
    if watched and watched.dynamic_registration:
        asyncio.ensure_future(_register_watched_files(ls))


async def _register_watched_files(ls: FullgraphServer) -> None:
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[types.Registration(
            id="fullgraph-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern="**/*.py")]))]))
    except Exception as error:
        ls.log_warning(f"client/registerCapability (watched files) failed: {error}")


def _register_documents(server: FullgraphServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: FullgraphServer, params: types.InitializeParams):
        ls.use_document_store()
        options = params.initialization_options
        ls.init_settings = options.get("settings", options) if isinstance(options, dict) else {}
        ls.settings.update(ls.init_settings)
        ls.lazy_fix_all = _supports_lazy_edit(params.capabilities)
        if _supports_pull(params.capabilities):
            ls.pull_diagnostics = True
            server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
                identifier=SECTION, inter_file_dependencies=False, workspace_diagnostics=False))(pull_diagnostics)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: FullgraphServer, params: types.InitializedParams):
        caps = _caps(ls)
        if caps.workspace and caps.workspace.did_change_configuration and \
                caps.workspace.did_change_configuration.dynamic_registration:
            asyncio.ensure_future(_register_configuration(ls))
        before = ls.settings.client
        await pull_settings(ls)
        if ls.settings.client != before:  # documents opened meanwhile used the initialization options
            ls.reanalyze_all()
        _start_index(ls)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: FullgraphServer, params: types.DidOpenTextDocumentParams):
        ls.scheduler.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: FullgraphServer, params: types.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        settings = ls.settings.for_path(ls.document_path(uri))
        if settings.run == "onType":
            ls.scheduler.schedule(uri, settings.debounce_s)
        ls.index.changed(uri, ls.workspace.get_text_document(uri).source)
        actions.forget(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: FullgraphServer, params: types.DidSaveTextDocumentParams):
        uri = params.text_document.uri
        ls.scheduler.schedule(uri)
        ls.index.changed(uri, None)  # the file on disk is the buffer now
        for hook in list(ls.save_hooks):
            hook(ls, uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: FullgraphServer, params: types.DidCloseTextDocumentParams):
        ls.scheduler.forget(params.text_document.uri)
        actions.closed(params.text_document.uri)
        ls.index.changed(params.text_document.uri, None)  # the file on disk is the truth again
        ls.index.forget(params.text_document.uri)
        ls.clear(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: FullgraphServer, params: types.DidChangeWatchedFilesParams):
        for change in params.changes:
            if change.uri.endswith(".py"):
                ls.index.changed(change.uri, None)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: FullgraphServer, params=None):
        for uri in list(ls.scheduler.states):
            ls.scheduler.forget(uri)
        ls.index.stop()
        ls.pool.shutdown(wait=False, cancel_futures=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: FullgraphServer, params: types.DidChangeConfigurationParams):
        pushed = params.settings
        if isinstance(pushed, dict) and isinstance(pushed.get(SECTION), dict):
            ls.settings.update(ls.init_settings, pushed[SECTION])
        else:  # the pull model: the notification only says that something changed
            await pull_settings(ls)
        ls.reanalyze_all()


async def pull_diagnostics(ls: FullgraphServer, params: types.DocumentDiagnosticParams):
    """``textDocument/diagnostic``: the current version's diagnostics (analysed now if needed)."""
    uri = params.text_document.uri
    analysis = ls.fresh_analysis(uri)
    if analysis is None:
        analysis = await ls.scheduler.analyze_now(uri) or ls.analysis(uri)
    state = ls.scheduler.state(uri)
    result_id = f"{analysis.version if analysis else 0}.{state.result_id}"
    if params.previous_result_id == result_id:
        return types.UnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.FullDocumentDiagnosticReport(items=ls.diagnostics(uri, analysis), result_id=result_id)


def _found_here(ls: FullgraphServer, uri: str, source: str, own: list) -> list:
    """The findings of this text of ``uri``: its own analysis's (``own``) and those other
    documents' analyses placed in it on this very text."""
    mine = {(f.line, f.col, f.code) for f in own}
    placed = [f for f in ls.elsewhere.placed(uri, source) if (f.line, f.col, f.code) not in mine]
    return sorted([*own, *placed], key=lambda f: (f.line, f.col, f.code)) if placed else list(own)


async def _fix_all_edit(ls: FullgraphServer, uri: str, version, source: str):
    """The document's fix-all edit for this text, computed in the worker pool (None: nothing to fix);
    its first round fixes what other documents' analyses placed here too."""
    path = ls.document_path(uri)
    analysis = ls.fresh_analysis(uri)  # the first round of fix-all uses its findings
    known = _found_here(ls, uri, source, analysis.findings) \
        if analysis is not None and analysis.source == source and not analysis.broken else None
    return await ls.run_in_pool(actions.fix_all_edit, uri, version, source, path or uri,
                                ls.settings.for_path(path).config, ls.workspace.position_encoding, ls.index.project,
                                known)


async def _fix_all_actions(ls: FullgraphServer, params: types.CodeActionParams, version, source: str) -> list:
    """The source.fixAll action: lazy (resolved later) when the client can, else with its edit inline."""
    uri, only = params.text_document.uri, params.context.only
    analysis = ls.fresh_analysis(uri)
    unsafe = ls.settings.for_path(ls.document_path(uri)).config.unsafe_fixes
    if not actions.wants(only, actions.FIX_ALL_KIND) or (
            analysis and not actions.has_fixable(_found_here(ls, uri, source, analysis.findings), unsafe)):
        return []
    if ls.lazy_fix_all:
        return [actions.fix_all_action(uri, version, None, lazy=True)]
    if params.context.trigger_kind == types.CodeActionTriggerKind.Automatic and not only:
        return []  # a lightbulb query: not worth computing a whole fix-all inline
    edit = await _fix_all_edit(ls, uri, version, source)
    return [actions.fix_all_action(uri, version, edit, lazy=False)] if edit else []


def _register_actions(server: FullgraphServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND, types.CodeActionKind.RefactorRewrite],
        resolve_provider=True))
    async def code_action(ls: FullgraphServer, params: types.CodeActionParams):
        uri = params.text_document.uri
        doc = ls.workspace.get_text_document(uri)
        version, source = doc.version, doc.source
        result = []
        if actions.wants(params.context.only, types.CodeActionKind.QuickFix):
            diagnostics = list(params.context.diagnostics)
            known = []
            if diagnostics:
                analysis = await _published_for_current_version(ls, uri)
                known = _found_here(ls, uri, source, analysis.findings) \
                    if analysis is not None and analysis.version == version else []
            result += await ls.run_in_pool(actions.quick_fixes, uri, version, source, diagnostics,
                                           ls.workspace.position_encoding, known, ls.parse_cache(uri),
                                           ls.settings.for_path(ls.document_path(uri)).config.unsafe_fixes)
        result += await _fix_all_actions(ls, params, version, source)
        if actions.wants(params.context.only, types.CodeActionKind.RefactorRewrite):
            for provider in list(ls.action_providers):
                result += provider(ls, uri, version, source)
        return result or None

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(ls: FullgraphServer, action: types.CodeAction):
        data = action.data if isinstance(action.data, dict) else {}
        if not data.get("fixAll") or not ls.is_current(data.get("uri", ""), data.get("version")):
            return action
        doc = ls.workspace.get_text_document(data["uri"])
        action.edit = await _fix_all_edit(ls, data["uri"], doc.version, doc.source)
        return action

    @server.command(actions.APPLY_FIX_ALL)
    async def apply_fix_all(ls: FullgraphServer, uri: str, version: int):
        """Apply the file's fix-all as one versioned edit; refuses a version that is not current."""
        if not ls.is_current(uri, version):
            return {"applied": False, "reason": f"stale version {version}"}
        edit = await _fix_all_edit(ls, uri, version, ls.workspace.get_text_document(uri).source)
        if edit is None:
            return {"applied": False, "reason": "nothing to fix"}
        if not ls.is_current(uri, version):
            return {"applied": False, "reason": f"stale version {version}"}
        return await ls.apply_edit(edit, actions.FIX_ALL_TITLE)


async def _published_for_current_version(ls: FullgraphServer, uri: str, wait_s: float = 2.0):
    """The analysis published for the document's current version, waiting briefly for a pending
    one (an editor asks for lenses right after an edit); else the last published one."""
    state = ls.scheduler.states.get(uri)
    task = state.task if state else None
    if ls.fresh_analysis(uri) is None and task is not None and not task.done():
        try:
            await asyncio.wait_for(asyncio.shield(task), wait_s)
        except (asyncio.TimeoutError, asyncio.CancelledError, Exception):  # noqa: BLE001 - the analysis reports its own errors
            pass
    return ls.analysis(uri)


def _register_views(server: FullgraphServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: FullgraphServer, params: types.HoverParams):
        uri = params.text_document.uri
        analysis = ls.fresh_analysis(uri)
        if analysis is None:
            return None
        enc = Encoder(analysis.lines, ls.workspace.position_encoding)
        line, col = enc.from_client(params.position)
        under = [f for f in analysis.findings if covers(f, line, col)]
        if not under:
            return None
        fixes_of = partial(actions.fixes_of, uri, analysis.version, analysis.source, ls.parse_cache(uri))
        text = await ls.run_in_pool(hover_markdown, analysis.source, under, fixes_of)
        first = under[0]
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
            range=enc.range(first.line, first.col, first.end_line, first.end_col))

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(ls: FullgraphServer, params: types.CodeLensParams):
        uri = params.text_document.uri
        analysis = await _published_for_current_version(ls, uri)
        if analysis is None:
            return None
        fix_all = actions.APPLY_FIX_ALL if ls.can_apply_edits else None
        lenses = breaks_lenses(uri, analysis, ls.workspace.position_encoding, fix_all)
        for provider in list(ls.lens_providers):
            lenses += provider(ls, uri, analysis) or []
        return lenses


def create_server() -> FullgraphServer:
    """A server with every feature registered (plus confirmation when that module exists)."""
    server = FullgraphServer()
    _register_documents(server)
    _register_actions(server)
    _register_views(server)
    if importlib.util.find_spec(CONFIRM_FEATURE) is not None:
        importlib.import_module(CONFIRM_FEATURE).register(server)
    return server

