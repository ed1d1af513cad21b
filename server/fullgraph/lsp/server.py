"""The fullgraph language server object: state, publishing, and the extension point.

Extension point (used by ``fullgraph.lsp.confirm_feature``):

* ``server.analysis(uri)`` is the last published :class:`~fullgraph.lsp.documents.Analysis`
  of an open document (``version``, ``source``, ``findings``, ``entries``).
* ``server.replace_findings(uri, version, findings)`` swaps in other findings (for example
  static findings merged with Dynamo-confirmed ones) for that exact document version and
  republishes them; it returns False and changes nothing when the document has moved on.
* ``server.lens_providers`` is a list of ``provider(server, uri, analysis) -> list[CodeLens]``;
  each is called on ``textDocument/codeLens`` after the built-in breaks lens.
* ``server.save_hooks`` is a list of ``hook(server, uri)`` called after ``didSave``.
* ``server.action_providers`` is a list of ``provider(server, uri, version, source) -> list[CodeAction]``;
  each is called on ``textDocument/codeAction`` after the quick fixes.
* ``server.settings.for_path(path).confirm`` holds the ``confirm.*`` settings;
  ``server.pool`` is the worker thread pool for CPU or blocking work.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import traceback
from urllib.parse import unquote

from lsprotocol import converters, types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from fullgraph import __version__
from fullgraph.analysis.incremental import ParseCache
from fullgraph.lsp.convert import to_diagnostic
from fullgraph.lsp.documents import Analysis, DocumentStore
from fullgraph.lsp.elsewhere import Elsewhere, disk_lines
from fullgraph.lsp.index_feature import IndexService
from fullgraph.lsp.lens import lens_counts
from fullgraph.lsp.pool import DaemonPool
from fullgraph.lsp.positions import Encoder
from fullgraph.lsp.protocol import FullgraphProtocol
from fullgraph.lsp.scheduler import Scheduler
from fullgraph.lsp.settings import Settings
from fullgraph.text import split_lines

log = logging.getLogger(__name__)
# Modules the first publish does not need: libcst (code actions and hover previews), confirmation.
WARM_AFTER_FIRST_PUBLISH = ("fullgraph.fixes.dispatch", "fullgraph.confirm.document", "fullgraph.confirm.verify")
NO_APPLY_EDIT = "the client does not apply workspace edits (applyEdit: false); the edit is in this answer"


class FullgraphServer(LanguageServer):
    """pygls server holding per-document analyses and the merged settings."""

    def __init__(self):
        super().__init__("fullgraph", __version__, protocol_cls=FullgraphProtocol)
        self.settings = Settings(on_error=self.log_warning)
        self.init_settings: dict = {}
        self.scheduler = Scheduler(self)
        self.index = IndexService(self)
        self.pool = DaemonPool(2, "fullgraph")
        self._thread_pool = DaemonPool(2, "fullgraph-io")  # pygls' own pool (it reads stdin there)
        self.lens_providers: list = []
        self.save_hooks: list = []
        self.action_providers: list = []
        self.pull_diagnostics = False
        self.lazy_fix_all = False
        self.lens_keys: dict[str, list] = {}  # what the lenses of each document said last
        self.elsewhere = Elsewhere()  # what each document's analysis found in other files
        self.warmed = False

    # -- client capabilities ----------------------------------------------------------------
    @property
    def can_apply_edits(self) -> bool:
        """Whether the client accepts ``workspace/applyEdit`` (it declared ``applyEdit: true``)."""
        workspace = self.client_capabilities.workspace
        return bool(workspace and workspace.apply_edit)

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> dict:
        """Ask the client to apply ``edit``; a client that cannot gets the edit back in the answer."""
        if not self.can_apply_edits:
            return {"applied": False, "reason": NO_APPLY_EDIT, "edit": converters.get_converter().unstructure(edit)}
        answer = await self.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
        return {"applied": answer.applied, "reason": answer.failure_reason}

    def shutdown(self):
        """End of the stdio loop: stop reading and abandon running work instead of waiting for it."""
        if self._stop_event is not None:
            self._stop_event.set()
        for pool in (self.pool, self._thread_pool):
            pool.shutdown(wait=False, cancel_futures=True)

    def use_document_store(self) -> None:
        """Keep documents in a :class:`DocumentStore` (called once the client has initialized)."""
        self.protocol._workspace = DocumentStore.like(self.workspace)

    # -- documents -------------------------------------------------------------------
    def document_path(self, uri: str) -> str | None:
        """File-system path of ``uri`` (None for unsaved buffers and other schemes)."""
        return to_fs_path(uri) if uri.startswith("file:") else None

    def is_current(self, uri: str, version: int | None, source: str | None = None) -> bool:
        """Whether ``uri`` is still open at ``version`` (and, if given, with that text)."""
        doc = self.workspace.text_documents.get(unquote(uri))
        return doc is not None and doc.version == version and (source is None or doc.source == source)

    def analysis(self, uri: str) -> Analysis | None:
        """The last published analysis of ``uri``."""
        state = self.scheduler.states.get(uri)
        return state.current if state else None

    def parse_cache(self, uri: str) -> ParseCache | None:
        """The parse cache of an open document (its tree is the last analysed text's)."""
        state = self.scheduler.states.get(uri)
        return state.parse_cache if state else None

    def fresh_analysis(self, uri: str) -> Analysis | None:
        """The last analysis, only if it describes the document's current version."""
        current = self.analysis(uri)
        return current if current is not None and self.is_current(uri, current.version) else None

    # -- publishing --------------------------------------------------------------------
    def publish(self, uri: str, analysis: Analysis) -> None:
        """Push ``analysis``'s diagnostics with what other documents found in this file (always;
        pull clients also get them on request), and the files whose findings from it changed."""
        diagnostics = self._changed(uri, self.diagnostics(uri, analysis))
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=analysis.version, diagnostics=diagnostics))
        for target in self.elsewhere.update(uri, analysis.elsewhere, self._lines_of, self.workspace.position_encoding):
            self.publish_elsewhere(target)
        self.refresh_lenses(uri, analysis)
        if not self.warmed:  # after the first squiggles, not competing with them for the CPU
            self.warmed = True
            for module in WARM_AFTER_FIRST_PUBLISH:
                self.pool.submit(importlib.import_module, module)

    def diagnostics(self, uri: str, analysis: Analysis | None) -> list[types.Diagnostic]:
        """A document's own diagnostics and those other documents' analyses placed in it, each place
        and code once (its own analysis may find what a model's analysis placed there: a helper that
        compiled code calls is an entry of its file too); none placed where the settings disable
        fullgraph or exclude the file."""
        path = self.document_path(uri)
        settings = self.settings.for_path(path)
        shown = settings.enable and not settings.config.excludes(path or uri)
        own = analysis.diagnostics if analysis else []
        mine = {(d.range.start.line, d.range.start.character, d.code) for d in own}
        return [*own, *(d for d in (self.elsewhere.of(uri) if shown else [])
                        if (d.range.start.line, d.range.start.character, d.code) not in mine)]

    def publish_elsewhere(self, target: str) -> None:
        """Re-publish a file whose findings from other documents changed (open or not)."""
        analysis = self.fresh_analysis(target)
        diagnostics = self.diagnostics(target, analysis)
        if analysis is not None:
            self._changed(target, diagnostics)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=target, version=analysis.version if analysis else None, diagnostics=diagnostics))

    def _changed(self, uri: str, diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
        """Give ``uri``'s diagnostics a new result id for pull clients when they differ from those
        last published (a republish of the same ones, as when the project index arrives, keeps it)."""
        state = self.scheduler.state(uri)
        if diagnostics != state.published:
            state.result_id += 1
            state.published = diagnostics
        return diagnostics

    def _lines_of(self, uri: str, path: str) -> list[str]:
        doc = self.workspace.text_documents.get(unquote(uri))
        return split_lines(doc.source) if doc is not None else disk_lines(path)

    def refresh_lenses(self, uri: str, analysis: Analysis) -> None:
        """Ask the client to re-read CodeLenses when their counts or places changed with this publish
        (an editor asks for lenses on each edit, often before the new diagnostics exist)."""
        key = [(e.line, e.message, n, m) for e, n, m in lens_counts(analysis)]
        if self.lens_keys.get(uri) == key:
            return
        self.lens_keys[uri] = key
        workspace = self.client_capabilities.workspace
        if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
            asyncio.ensure_future(self._refresh_lenses())

    async def _refresh_lenses(self) -> None:
        try:
            await self.workspace_code_lens_refresh_async(None)
        except Exception as error:  # a client that declared the refresh but fails it keeps its lenses
            log.info("workspace/codeLens/refresh failed: %s", error)

    def clear(self, uri: str) -> None:
        """Remove a closed document's own diagnostics and what it found in other files (what
        other documents found in it stays)."""
        self.lens_keys.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=self.diagnostics(uri, None)))
        for target in self.elsewhere.drop(uri):
            self.publish_elsewhere(target)

    def replace_findings(self, uri: str, version: int | None, findings) -> bool:
        """Publish ``findings`` for ``uri`` at ``version``; False when that version is gone."""
        current = self.analysis(uri)
        if current is None or current.version != version or not self.is_current(uri, version):
            return False
        path = self.document_path(uri)
        enc = Encoder(current.lines, self.workspace.position_encoding)
        current.findings = sorted(findings, key=lambda f: (f.line, f.col, f.code))
        current.diagnostics = [to_diagnostic(f, uri, version, path, enc) for f in current.findings]
        self.publish(uri, current)
        return True

    def reanalyze_all(self) -> None:
        """Re-analyse every open document now (after a configuration change)."""
        for uri in list(self.workspace.text_documents):
            self.scheduler.schedule(uri)

    async def run_in_pool(self, fn, *args):
        """Run ``fn(*args)`` in the worker pool, off the protocol loop."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    # -- errors --------------------------------------------------------------------------
    def log_error(self, what: str, error: BaseException) -> None:
        """Send an error to the client's log (never a pop-up)."""
        detail = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        log.error("%s: %s", what, detail)
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"{what}: {detail}"))

    def log_warning(self, message: str) -> None:
        """Send a warning to the client's log."""
        log.warning("%s", message)
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=message))

    def report_server_error(self, error: Exception, source) -> None:
        """pygls' default pops up a message; we log instead (and answer a body that is not JSON)."""
        try:
            if self.protocol.reject_unparsable(error):
                return
            self.log_error("fullgraph server error", error)
        except Exception:  # the transport itself may be what failed
            log.exception("could not report a server error")
