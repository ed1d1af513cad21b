"""The project index in the language server.

Built on a background thread after ``initialized`` (with ``$/progress`` when the client takes
it): the interpreter's ``sys.path`` first, then a summary of every workspace file and the
workspace's ``torch.compile`` calls; then the open documents are analysed again. Analysis
never waits for it: it runs read-only on what the index holds (``ProjectIndex.readonly``);
the files it lacked are read here (between two files of the build too: until they are, every
edit is analysed afresh), after which that document is analysed again. Buffers are
summarised here on didChange/didSave (coalesced), files on watched-file events, and every
open document that used a changed file is analysed again.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path

from fullgraph.analysis.project import ProjectIndex

if TYPE_CHECKING:
    from fullgraph.lsp.server import FullgraphServer

PROGRESS_EVERY = 100  # files between two progress reports
CHANGE_DELAY_S = 0.5  # a buffer is summarised this long after its last change


class IndexService:
    """Owns the server's ProjectIndex and the thread that fills it."""

    def __init__(self, server: FullgraphServer) -> None:
        self.server = server
        self.project: ProjectIndex | None = None
        self.ready = False
        self.deps: dict[str, set[str]] = {}  # uri -> files its last analysis used
        self.asked: dict[str, set[str]] = {}  # uri -> names whose workspace callers it asked for
        self.lacking: dict[str, set[str]] = {}  # file a fill will read -> the documents that lacked it
        self._jobs: queue.Queue = queue.Queue()
        self._fills: queue.Queue = queue.Queue()  # files analyses lacked: served first, also mid-build
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: dict[str, asyncio.TimerHandle] = {}

    # -- on the protocol loop ------------------------------------------------------------

    def start(self, roots: list[str], python: str | None) -> None:
        """Build the index for `roots` in the background (once)."""
        if self.project is not None:
            return
        self._loop = asyncio.get_running_loop()
        self.project = ProjectIndex(roots, python)
        threading.Thread(target=self._run, name="fullgraph-index", daemon=True).start()
        self._jobs.put((self._build, ()))

    def stop(self) -> None:
        self._jobs.put(None)

    def analysed(self, uri: str, state) -> None:
        """Note what an analysis of `uri` used and lacked (the record from `readonly()`)."""
        self.deps[uri] = set(state.touched)
        self.asked[uri] = set(state.names)
        if self.project is None:
            return
        if self.ready and self._outdated(state):
            self._reanalyze([uri])
        missing = set(state.missing) - self.lacking.keys()
        for path in state.missing:
            self.lacking.setdefault(path, set()).add(uri)
        if missing:
            self._fills.put(missing)
            self._jobs.put((self._drain_fills, ()))

    def _outdated(self, state) -> bool:
        """Whether the index changed, while that analysis ran, in a file it used or (when it asked
        which files call a name) anywhere: the change's own re-analysis missed it, as it had not
        yet recorded what it used."""
        changes = self.project.changed_since(state.generation)
        return changes is None or bool(changes & state.touched) or bool(changes and state.names)

    def changed(self, uri: str, text: str | None) -> None:
        """A document changed (text: its buffer) or a watched file changed on disk (None)."""
        if self.project is None or not uri.startswith("file:"):
            return
        path = to_fs_path(uri)
        if text is None:
            self._jobs.put((self._update, (path, None)))
            return
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self._pending[uri] = self._loop.call_later(
            CHANGE_DELAY_S, lambda: self._jobs.put((self._update, (path, text))))

    def forget(self, uri: str) -> None:
        self.deps.pop(uri, None)
        self.asked.pop(uri, None)

    # -- on the index thread ---------------------------------------------------------------

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, args = job
            try:
                fn(*args)
            except Exception as error:  # noqa: BLE001 - the index must outlive one bad file
                self._call(self.server.log_error, "project index", error)

    def _call(self, fn, *args) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(fn, *args)

    def _build(self) -> None:
        progress = _Progress(self) if self._wants_progress() else None
        project = self.project
        project.resolver  # noqa: B018 - asks the target interpreter for its sys.path, once
        files = project.workspace_files()
        if progress:
            progress.begin(f"indexing {len(files)} files")
        for i, path in enumerate(files):
            project.summary(path)
            self._drain_fills()  # what an open document lacks comes before the rest of the workspace
            if progress and i % PROGRESS_EVERY == 0:
                progress.report(f"{i}/{len(files)} files", 100 * i // max(len(files), 1))
        compiled = project.compile_targets()
        project.index_calls()
        self.ready = True
        if progress:
            progress.end(f"{len(files)} files indexed")
        # Documents analysed meanwhile: again if that was before the index existed, if the
        # workspace compiles something, or if the analysis asked which files call a name (no
        # file's calls are known before `index_calls`); one that lacked a file runs again when
        # its fill is done.
        self._call(lambda: self._reanalyze([u for u in self.server.workspace.text_documents
                                            if compiled or u not in self.deps or self.asked.get(u)]))

    def _drain_fills(self) -> None:
        """Read the files that analyses reported lacking, in the order they were reported."""
        while True:
            try:
                paths = self._fills.get_nowait()
            except queue.Empty:
                return
            self._fill(paths)

    def _fill(self, paths: set[str]) -> None:
        for path in paths:
            self.project.fill(path)  # reads, summarises and parses it
        self._call(self._filled, paths)

    def _filled(self, paths: set[str]) -> None:
        """On the loop: `paths` are read; analyse again the documents that lacked them. One that
        lacks a file later (changed on disk since, with or without a watched-file event) asks again."""
        uris = set().union(*(self.lacking.pop(path, set()) for path in paths))
        self._reanalyze(sorted(uris))

    def _update(self, path: str, text: str | None) -> None:
        before = self.project.called_names(path)
        if text is None:
            self.project.forget(path)
        else:
            self.project.update(path, text)
        calls = self.project.called_names(path) - before  # a new caller of what an analysis asked about
        self._call(self._file_changed, path, calls)

    def _file_changed(self, path: str, calls: frozenset[str]) -> None:
        """On the loop (where analyses note what they used): analyse again the documents that used
        `path` or asked for callers of a name it now calls."""
        self._reanalyze([u for u, used in self.deps.items() if to_fs_path(u) != path and (
            path in used or calls & self.asked.get(u, set()))])

    def _reanalyze(self, uris: list[str]) -> None:
        for uri in uris:
            if uri in self.server.workspace.text_documents:
                self.server.scheduler.schedule(uri)

    def _wants_progress(self) -> bool:
        caps = self.server.client_capabilities
        return bool(caps and caps.window and caps.window.work_done_progress)


class _Progress:
    """`$/progress` for the index build, sent from the protocol loop."""

    def __init__(self, service: IndexService) -> None:
        self.service = service
        self.token = "fullgraph-index"
        self.service._call(self._create)

    def _create(self) -> None:
        self.service.server.work_done_progress.create(self.token)

    def begin(self, message: str) -> None:
        self.service._call(self.service.server.work_done_progress.begin, self.token,
                           types.WorkDoneProgressBegin(title="fullgraph", message=message, percentage=0))

    def report(self, message: str, percentage: int) -> None:
        self.service._call(self.service.server.work_done_progress.report, self.token,
                           types.WorkDoneProgressReport(message=message, percentage=percentage))

    def end(self, message: str) -> None:
        self.service._call(self.service.server.work_done_progress.end, self.token,
                           types.WorkDoneProgressEnd(message=message))
