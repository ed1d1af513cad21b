"""Per-document debounced analysis off the protocol loop, never published for a stale version."""

from __future__ import annotations

import asyncio
import logging
from contextlib import nullcontext
from typing import TYPE_CHECKING

from fullgraph.analysis.incremental import ParseCache
from fullgraph.analysis.project import ProjectIndex
from fullgraph.analysis.walk_cache import WalkCache
from fullgraph.engine import analyze_document
from fullgraph.lsp.convert import to_diagnostic
from fullgraph.lsp.documents import Analysis, DocumentState, carry_over
from fullgraph.lsp.positions import Encoder
from fullgraph.text import split_lines

if TYPE_CHECKING:
    from fullgraph.lsp.server import FullgraphServer

log = logging.getLogger(__name__)


def analyze_snapshot(uri: str, version: int | None, source: str, path: str | None, config, encoding: str,
                     good: Analysis | None, cache: ParseCache, wanted, project: ProjectIndex | None = None,
                     walks: WalkCache | None = None) -> Analysis | None:
    """Analyse one snapshot (runs in a worker thread); keeps last good findings on syntax errors.

    Returns None without analysing when ``wanted()`` says a newer version has arrived meanwhile.
    ``project`` is used read-only: the analysis never waits for the index to read a file.
    """
    if not wanted():
        return None
    lines = split_lines(source)
    with project.readonly() if project is not None else nullcontext() as used:
        report = analyze_document(source, path or uri, config, cache, project, walks)
    findings, entries = list(report.findings), list(report.entries)
    analysis = Analysis(version, source, lines, findings, entries, [], used, list(report.elsewhere))
    if analysis.broken and good is not None:
        analysis.findings, analysis.entries = carry_over(good, lines, findings)
        analysis.elsewhere = good.elsewhere
    enc = Encoder(lines, encoding)
    analysis.diagnostics = [to_diagnostic(f, uri, version, path, enc) for f in analysis.findings]
    return analysis


class Scheduler:
    """Debounces analysis per URI and publishes only results for the document's current version."""

    def __init__(self, server: "FullgraphServer"):
        self.server = server
        self.states: dict[str, DocumentState] = {}

    def state(self, uri: str) -> DocumentState:
        """The state of ``uri``, created on first use."""
        return self.states.setdefault(uri, DocumentState(uri))

    def schedule(self, uri: str, delay: float = 0.0) -> asyncio.Task:
        """(Re)start the analysis of ``uri`` after ``delay`` seconds, cancelling a pending one."""
        state = self.state(uri)
        if state.task is not None and not state.task.done():
            state.task.cancel()
        state.task = asyncio.ensure_future(self._run(state, delay))
        state.task.add_done_callback(self._report)
        return state.task

    def _report(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.server.log_error("analysis failed", task.exception())

    def forget(self, uri: str) -> None:
        """Drop a closed document's state and pending work."""
        state = self.states.pop(uri, None)
        if state is not None and state.task is not None:
            state.task.cancel()

    async def _run(self, state: DocumentState, delay: float) -> Analysis | None:
        if delay:
            await asyncio.sleep(delay)
            if self.server.fresh_analysis(state.uri) is not None:  # a diagnostic pull analysed it meanwhile
                return state.current
        return await self.analyze_now(state.uri)

    async def analyze_now(self, uri: str) -> Analysis | None:
        """Analyse the current text of ``uri`` in the thread pool and publish it if still current."""
        server = self.server
        doc = server.workspace.get_text_document(uri)
        version, source, path = doc.version, doc.source, server.document_path(uri)
        state = self.state(uri)
        settings = server.settings.for_path(path)
        if not settings.enable or settings.config.excludes(path or uri):
            state.current = Analysis(version, source, split_lines(source), [], [], [])
            server.publish(uri, state.current)
            return state.current
        loop = asyncio.get_running_loop()
        analysis = await loop.run_in_executor(
            server.pool, analyze_snapshot, uri, version, source, path, settings.config,
            server.workspace.position_encoding, state.good, state.parse_cache,
            lambda: server.is_current(uri, version), server.index.project, state.walk_cache)
        if analysis is not None and analysis.index_use is not None:
            server.index.analysed(uri, analysis.index_use)
        if analysis is None or not server.is_current(uri, version, source):
            log.debug("dropping stale analysis of %s v%s", uri, version)
            return None
        state.current = analysis
        if not analysis.broken:
            state.good = analysis
        server.publish(uri, analysis)
        return analysis
