"""Language-server latency and memory, measured through a real `fullgraph serve` process.

didChange → publishDiagnostics (debounce 0) over 50 edits of the largest transformers
modeling file (comment lines near its top, then a statement typed into the body of the
middle `forward`), code-action and fix-all response times, and the server's RSS while 5,000
edits stream in. Prints a markdown table. Usage: python bench/lsp_latency.py [FILE] [--workspace DIR]
[--during-build] (the workspace folder: the file's own by default; transformers' whole `models/`
makes the project index read and summarise every model file; `--during-build` measures while it does).
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from process_memory import rss_mb
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path
from scaling import generated_model
from transformers_models import models_dir

SERVER = [sys.executable, "-m", "fullgraph", "serve", "--stdio"]
EDITS = 50
MEMORY_EDITS = 5000
BATCH = 250
PROGRESS_WAIT = 10.0  # seconds to wait for the index build's progress to begin


def largest_modeling_file() -> tuple[Path, str]:
    """The largest transformers ``modeling_*.py``, or a generated model file when not installed."""
    models = models_dir()
    if models is not None:
        path = max(models.rglob("modeling_*.py"), key=lambda p: p.stat().st_size)
        return path, f"transformers {path.relative_to(models.parent)}"
    path = Path(tempfile.mkdtemp()) / "generated_model.py"
    path.write_text(generated_model(1500))
    return path, "generated file (transformers not installed)"


class Bench:
    def __init__(self, path: Path, workspace: Path | None = None, during_build: bool = False):
        self.path = path
        self.workspace = workspace or path.parent
        self.during_build = during_build
        self.uri = from_fs_path(str(path))
        self.client = LanguageClient("fullgraph-bench", "1")
        self.published: dict[int, float] = {}
        self.diagnostics: list[types.Diagnostic] = []
        self.version = 1
        self.line = 0
        self.fix_all_edits: list[types.WorkspaceEdit] = []
        self.publishes = 0
        self.last_publish = self.first = self.warm_after = 0.0

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: types.PublishDiagnosticsParams):
            if params.uri == self.uri and params.version is not None:
                self.published[params.version] = self.last_publish = time.perf_counter()
                self.publishes += 1
                self.diagnostics = params.diagnostics

        self.indexing: bool | None = None  # None: the server reported no index build

        @self.client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def on_create(params: types.WorkDoneProgressCreateParams):
            return None

        @self.client.feature(types.PROGRESS)
        def on_progress(params: types.ProgressParams):
            kind = params.value.get("kind") if isinstance(params.value, dict) else getattr(params.value, "kind", None)
            if kind in ("begin", "end"):
                self.indexing = kind == "begin"

        @self.client.feature(types.WORKSPACE_APPLY_EDIT)
        def on_apply(params: types.ApplyWorkspaceEditParams):
            self.fix_all_edits.append(params.edit)
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason="benchmark keeps the text")

    async def start(self, text: str) -> None:
        await self.client.start_io(*SERVER)
        caps = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
            code_action=types.CodeActionClientCapabilities(data_support=True)),
            window=types.WindowClientCapabilities(work_done_progress=True))
        folder = from_fs_path(str(self.workspace))
        await self.client.initialize_async(types.InitializeParams(
            capabilities=caps, initialization_options={"settings": {"debounce": 0}}, root_uri=folder,
            workspace_folders=[types.WorkspaceFolder(uri=folder, name="model")]))
        self.client.initialized(types.InitializedParams())
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=self.uri, language_id="python", version=1, text=text)))
        opened = time.perf_counter()
        self.first = await self.wait(1) - opened
        self.warm_after = await self.index_warm() - opened

    async def index_warm(self, quiet: float = 3.0, timeout: float = 600) -> float:
        """When the server stopped republishing version 1 after its index build ended (the project
        index built and the files this one imports read; with ``during_build``, whether or not the
        build ended): the time of its last publish."""
        start = time.perf_counter()
        deadline = start + timeout
        while not self.during_build and time.perf_counter() < deadline and (
                self.indexing or self.indexing is None and time.perf_counter() - start < PROGRESS_WAIT):
            await asyncio.sleep(0.05)
        count = -1
        while count != self.publishes and time.perf_counter() < deadline:
            count = self.publishes
            await asyncio.sleep(quiet)
        return self.last_publish

    async def wait(self, version: int, timeout: float = 60) -> float:
        deadline = time.perf_counter() + timeout
        while version not in self.published:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no diagnostics for version {version}")
            await asyncio.sleep(0.001)
        return self.published[version]

    def edit(self, code: tuple[int, str] | None = None) -> int:
        """Insert a comment line (or with ``code``, (line, indent), a statement there), or delete
        the line inserted before (the file size stays flat)."""
        self.version += 1
        line = code[0] if code else 10 + (self.version // 2) % 200
        if self.version % 2 == 0:
            self.line = line
            text = f"{code[1]}bench_edit = {self.version}\n" if code else f"# edit {self.version}\n"
            change = types.TextDocumentContentChangePartial(range=types.Range(
                start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)),
                text=text)
        else:
            change = types.TextDocumentContentChangePartial(range=types.Range(
                start=types.Position(line=self.line, character=0), end=types.Position(line=self.line + 1, character=0)),
                text="")
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[change]))
        return self.version

    async def diagnostics_latency(self, code: tuple[int, str] | None = None) -> list[float]:
        times = []
        for _ in range(EDITS):
            sent = time.perf_counter()
            version = self.edit(code)
            times.append((await self.wait(version)) - sent)
        return times

    async def code_actions(self) -> list[float]:
        times = []
        for diag in self.diagnostics[:20]:
            sent = time.perf_counter()
            await self.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri), range=diag.range,
                context=types.CodeActionContext(diagnostics=[diag], only=[types.CodeActionKind.QuickFix])))
            times.append(time.perf_counter() - sent)
        return times

    async def fix_all(self) -> list[float]:
        """``fullgraph.applyFixAll`` round trips (the client declines the edit, so the text stays)."""
        times = []
        for _ in range(3):
            sent = time.perf_counter()
            await self.client.workspace_execute_command_async(types.ExecuteCommandParams(
                command="fullgraph.applyFixAll", arguments=[self.uri, self.version]))
            times.append(time.perf_counter() - sent)
        return times

    async def memory(self) -> list[tuple[int, float]]:
        """RSS while edits stream in batches, with the default 200 ms debounce (as an editor types)."""
        self.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"fullgraph": {"debounce": 200}}))
        pid = self.client._server.pid
        samples = [(0, rss_mb(pid))]
        for done in range(BATCH, MEMORY_EDITS + 1, BATCH):
            for _ in range(BATCH):
                version = self.edit()
            await self.wait(version, timeout=120)
            if done % 1000 == 0:
                samples.append((done, rss_mb(pid)))
        return samples

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def middle_forward(text: str) -> tuple[int, str] | None:
    """(0-based line, indent) of the first statement of the middle `forward` method of the file."""
    forwards = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef) and n.name == "forward"]
    if not forwards:
        return None
    first = sorted(forwards, key=lambda n: n.lineno)[len(forwards) // 2].body[0]
    return first.lineno - 1, " " * first.col_offset


def ms(values: list[float], q: float) -> float:
    return 1000 * statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else 1000 * values[0]


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", help="the file to open (default: the largest transformers modeling file)")
    parser.add_argument("--workspace", help="the workspace folder (default: the file's folder)")
    parser.add_argument("--during-build", action="store_true",
                        help="measure without waiting for the index build to end (a large workspace)")
    args = parser.parse_args(argv)
    path, label = (Path(args.file), args.file) if args.file else largest_modeling_file()
    text = path.read_text(encoding="utf-8")
    # The file is opened in place (its imports resolve from there); the server never writes it.
    bench = Bench(path, Path(args.workspace) if args.workspace else None, args.during_build)
    await bench.start(text)
    files = sum(1 for _ in bench.workspace.rglob("*.py"))
    print(f"File: {label} ({len(text.splitlines())} lines, {len(text) // 1024} KiB, "
          f"{len(bench.diagnostics)} diagnostics); workspace `{bench.workspace.name}/` ({files} Python files); "
          f"{os.cpu_count()} CPUs\n")
    print("| measure | value | target |\n|---|---|---|", flush=True)
    print(f"| didOpen → first publishDiagnostics (never waits for the project index) | {1000 * bench.first:.0f} ms "
          f"| |")
    print(f"| didOpen → last republish (project index built, imports read) | {1000 * bench.warm_after:.0f} ms | |")
    latency = await bench.diagnostics_latency()
    print(f"| didChange → publishDiagnostics p50 ({EDITS} edits, debounce 0, index warm) | {ms(latency, 50):.0f} ms "
          "| ≤60 ms |")
    print(f"| didChange → publishDiagnostics p95 | {ms(latency, 95):.0f} ms | ≤250 ms |", flush=True)
    code = middle_forward(text)
    if code is not None:
        typed = await bench.diagnostics_latency(code)
        print(f"| same, a statement typed into a `forward` (line {code[0] + 1}), p50 / p95 | {ms(typed, 50):.0f} / "
              f"{ms(typed, 95):.0f} ms | |", flush=True)
    actions = await bench.code_actions()
    if actions:
        print(f"| code actions p50 / max ({len(actions)} diagnostics) | {ms(actions, 50):.0f} / "
              f"{1000 * max(actions):.0f} ms | ≤200 ms |", flush=True)
    fix_all = await bench.fix_all()
    print(f"| fix-all command (`fullgraph.applyFixAll`, {len(bench.fix_all_edits)} edits sent) p50 / max | "
          f"{ms(fix_all, 50):.0f} / {1000 * max(fix_all):.0f} ms | ≤1 s |", flush=True)
    memory = await bench.memory()
    rss = " → ".join(f"{mb:.0f}" for _, mb in memory)
    print(f"| server RSS every 1,000 of {MEMORY_EDITS:,} edits (debounce 200 ms) | {rss} MB | flat |", flush=True)
    await bench.stop()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
