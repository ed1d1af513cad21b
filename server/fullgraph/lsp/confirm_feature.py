"""Dynamo confirmation in the language server: command, CodeLens, on-save, verified fix-all, and
the code action that writes synthesized sample inputs into the file as a factory.

User code runs only on an explicit request (the ``fullgraph.confirm`` command or its
CodeLens, ``fullgraph.verifiedFixAll``) or on save when ``confirm.onSave`` is on; never
when a document is opened. Confirmation runs on the saved file, so a document with
unsaved changes is refused.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
import uuid

from lsprotocol import types
from pygls.uris import to_fs_path

from fullgraph.confirm.client import ConfirmClient
from fullgraph.confirm.targets import PREFIX, targets_for, with_example
from fullgraph.lsp.positions import Encoder

# confirm.document, confirm.verify and lsp.actions (libcst) are imported on first use, not on the
# way to the first diagnostics.

CONFIRM = "fullgraph.confirm"
VERIFIED_FIX_ALL = "fullgraph.verifiedFixAll"
LENS_TITLE = "Confirm with Dynamo"
WRITE_EXAMPLE_TITLE = "fullgraph: write the synthesized inputs as {}()"


class Clients:
    """One warm worker per interpreter, closed when the server exits."""

    def __init__(self) -> None:
        self.by_python: dict = {}
        atexit.register(self.close)

    def get(self, confirm: dict) -> ConfirmClient:
        python = confirm.get("interpreter") or None
        client = self.by_python.get(python)
        if client is None:
            client = self.by_python[python] = ConfirmClient(python=python)
        client.timeout = float(confirm.get("timeout") or client.timeout)
        return client

    def close(self) -> None:
        for client in self.by_python.values():
            client.close()


def _saved_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


class Progress:
    """Cancellable work-done progress (when the client supports it) tied to a cancel event."""

    def __init__(self, ls, title: str):
        self.ls, self.title, self.cancel = ls, title, threading.Event()
        window = ls.client_capabilities.window
        self.token = str(uuid.uuid4()) if window and window.work_done_progress else None
        self.loop = asyncio.get_running_loop()

    async def __aenter__(self) -> "Progress":
        if self.token:
            try:
                await self.ls.work_done_progress.create_async(self.token)
            except Exception:  # a client may refuse the token: run without progress
                self.token = None
                return self
            self.ls.work_done_progress.begin(self.token, types.WorkDoneProgressBegin(
                title=self.title, cancellable=True, percentage=0))
            self.ls.work_done_progress.tokens[self.token].add_done_callback(lambda _: self.cancel.set())
        return self

    def report(self, done: int, total: int, label: str) -> None:
        """Called from the worker thread before each target."""
        if self.token:
            value = types.WorkDoneProgressReport(message=label, percentage=int(100 * done / max(total, 1)))
            self.loop.call_soon_threadsafe(self.ls.work_done_progress.report, self.token, value)

    async def __aexit__(self, *exc) -> None:
        if exc[0] is asyncio.CancelledError:
            self.cancel.set()
        if self.token:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd())


def _workspace_roots(ls) -> tuple[str, ...]:
    """The workspace folders that are on disk (for the worker's sys.path)."""
    folders = getattr(ls.workspace, "folders", {}) or {}
    return tuple(to_fs_path(f.uri) for f in folders.values() if f.uri.startswith("file:"))


def _check(ls, uri: str):
    """(analysis, path, settings) or a refusal reason for running user code on ``uri``."""
    analysis = ls.analysis(uri)
    path = ls.document_path(uri)
    if analysis is None or path is None:
        return None, "the document is not open as a file"
    settings = ls.settings.for_path(path)
    if not settings.confirm.get("enable"):
        return None, "confirmation is turned off (setting fullgraph.confirm.enable)"
    if _saved_text(path) != analysis.source:
        return None, "save the file first: confirmation runs the file on disk"
    return (analysis, path, settings), None


def register(server) -> None:
    """Add the confirm command, its CodeLens, the on-save hook and verified fix-all."""
    clients = Clients()
    synthesized: dict[str, dict[str, str]] = {}  # uri -> target -> example source, from the last confirm

    async def run_confirm(ls, uri: str, target=None) -> dict:
        checked, reason = _check(ls, uri)
        if checked is None:
            return {"ok": False, "reason": reason}
        analysis, path, settings = checked
        name, explicit = (target or None, True) if target is not None else (None, False)
        from fullgraph.confirm.document import confirm_document

        client = clients.get(settings.confirm)
        async with Progress(ls, "Confirming with Dynamo") as progress:
            done = await ls.run_in_pool(lambda: confirm_document(
                client, path, analysis.source, analysis.findings, settings.config, name=name, explicit=explicit,
                cancel=progress.cancel, progress=progress.report, roots=_workspace_roots(ls)))
        targets = [o.summary() for o in done.outcomes]
        synthesized[uri] = {t["name"]: t["synthesized"]["example"] for t in targets if "synthesized" in t}
        if not done.outcomes:
            return {"ok": False, "reason": "no sample inputs: define fullgraph_example()", "targets": []}
        replaced = ls.replace_findings(uri, analysis.version, done.findings)
        errors = [p for o in done.outcomes for p in o.problems()]
        for message in errors:
            ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                           message=f"fullgraph confirm: {message}"))
        return {"ok": not errors, "replaced": replaced, "targets": targets}

    @server.command(CONFIRM)
    async def confirm(ls, *args):
        """Arguments ``uri[, target]``: all targets, one of them, or ``""`` for the default one."""
        if not args or not isinstance(args[0], str):
            return {"ok": False, "reason": "expected the document URI as first argument"}
        return await run_confirm(ls, args[0], args[1] if len(args) > 1 else None)

    @server.command(VERIFIED_FIX_ALL)
    async def verified_fix_all(ls, *args):
        """Arguments ``uri[, version]``: fix-all, applied only when outputs stay identical."""
        if not args or not isinstance(args[0], str):
            return {"applied": False, "reason": "expected the document URI as first argument"}
        uri, version = args[0], args[1] if len(args) > 1 else None
        checked, reason = _check(ls, uri)
        if checked is None or (version is not None and not ls.is_current(uri, version)):
            return {"applied": False, "reason": reason or f"stale version {version}"}
        analysis, path, settings = checked
        from fullgraph.confirm.verify import verify_fix_all
        from fullgraph.lsp.actions import rewrite_edit

        async with Progress(ls, "Verifying fix-all with Dynamo") as progress:
            result = await ls.run_in_pool(lambda: verify_fix_all(
                clients.get(settings.confirm), path, analysis.source, settings.config, cancel=progress.cancel,
                project=ls.index.project))
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Info if result.ok else types.MessageType.Warning,
            message=f"fullgraph verified fix-all: {result.message}"))
        edit = rewrite_edit(uri, analysis.version, analysis.source, result.source,
                            ls.workspace.position_encoding) if result.ok else None
        if edit is None or not ls.is_current(uri, analysis.version):
            return {"applied": False, "reason": result.message}
        answer = await ls.apply_edit(edit, "fullgraph: verified fix-all")
        return {**answer, "reason": answer["reason"] if "edit" in answer else result.message}

    def lenses(ls, uri: str, analysis) -> list[types.CodeLens]:
        path = ls.document_path(uri)
        settings = ls.settings.for_path(path) if path is not None else None
        if settings is None or not settings.confirm.get("enable"):
            return []
        # targets_for parses the text on the protocol loop: skip that when the analysis parsed it
        # and it defines no factory (the empty text then gives the same targets).
        in_file = analysis.source if analysis.broken or PREFIX in analysis.source else ""
        targets = targets_for(path, in_file, settings.config)
        names = {t.name for t in targets}
        enc = Encoder(analysis.lines, ls.workspace.position_encoding)
        out = []
        for entry in analysis.entries:
            named = next((n for n in names if n and (entry.message == n or entry.message.startswith(n + "."))), None)
            if named is None and None not in names:
                continue
            out.append(types.CodeLens(
                range=enc.range(entry.line, entry.col, entry.line, entry.col),
                command=types.Command(title=LENS_TITLE, command=CONFIRM, arguments=[uri, named or ""])))
        return out

    def on_save(ls, uri: str) -> None:
        path = ls.document_path(uri)
        confirm = ls.settings.for_path(path).confirm if path is not None else {}
        if confirm.get("enable") and confirm.get("onSave"):
            asyncio.ensure_future(confirm_when_analysed(ls, uri))

    async def confirm_when_analysed(ls, uri: str) -> None:
        for _ in range(100):  # the save's own analysis comes first (at most ~5 s)
            if ls.fresh_analysis(uri) is not None:
                break
            await asyncio.sleep(0.05)
        await run_confirm(ls, uri)

    def write_examples(ls, uri: str, version: int | None, source: str) -> list[types.CodeAction]:
        """One action per synthesized target of the last confirm that the file does not define yet."""
        from fullgraph.lsp.actions import rewrite_edit

        out = []
        for name, example in synthesized.get(uri, {}).items():
            edit = rewrite_edit(uri, version, source, with_example(source, example), ls.workspace.position_encoding)
            if edit is not None:
                out.append(types.CodeAction(title=WRITE_EXAMPLE_TITLE.format(f"{PREFIX}_{name}"),
                                            kind=types.CodeActionKind.RefactorRewrite, edit=edit))
        return out

    server.lens_providers.append(lenses)
    server.action_providers.append(write_examples)
    server.save_hooks.append(on_save)
