"""Language-server cold start: spawn `fullgraph serve` -> first publishDiagnostics of an opened file.

Speaks JSON-RPC over the pipes by hand (no client library to import in this process), sends
initialize, initialized and didOpen of the VS Code e2e model right away (as an editor does
when a file opens before the server runs) and stops the clock at the first publishDiagnostics
with findings. Also times the case the VS Code extension aims for (it starts the server when
a folder with Python files opens): the file opens `OPEN_AFTER_S` after `initialized`, and the
clock runs from didOpen. The anchor is `python -c pass` spawned in the same run, so the ratio
is comparable across loaded and idle machines. Also prints what the server's imports cost
(lsprotocol's types alone, pygls and lsprotocol, the engine, the whole module).
Usage: python bench/server_cold_start.py [RUNS]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODEL = REPO / "vscode-client" / "e2e" / "workspace" / "model.py"
SERVER = [sys.executable, "-m", "fullgraph", "serve"]
OPEN_AFTER_S = 1.0  # the user opens the first file this long after the server started


def _send(proc: subprocess.Popen, message: dict) -> None:
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def _read(proc: subprocess.Popen) -> dict:
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def cold_start(open_after: float | None = None) -> float:
    """Seconds from spawn to the first non-empty publishDiagnostics; with `open_after`, from
    the didOpen sent that long after the initialize answer and `initialized`."""
    uri = MODEL.as_uri()
    start = time.perf_counter()
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": MODEL.parent.as_uri(), "capabilities": {}}})
        if open_after is not None:
            while _read(proc).get("id") != 1:
                pass
        _send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        if open_after is not None:
            time.sleep(open_after)
            start = time.perf_counter()
        _send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": MODEL.read_text()}}})
        while True:
            message = _read(proc)
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["diagnostics"]:
                elapsed = time.perf_counter() - start
                break
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        _send(proc, {"jsonrpc": "2.0", "method": "exit"})
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    return elapsed


def anchor() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


IMPORTS = {"lsprotocol's types": "import lsprotocol.types", "pygls + lsprotocol": "import pygls.lsp.server", "the engine (ast rules)": "import fullgraph.engine",
           "the whole server module": "import fullgraph.lsp.features"}


def import_time(statement: str) -> float:
    """Seconds `python -c <statement>` takes beyond the anchor's `pass`."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    cold_start()  # warm the page cache and the .pyc files
    starts, anchors, opened = [], [], []
    for _ in range(runs):
        anchors.append(anchor())
        starts.append(cold_start())
        opened.append(cold_start(OPEN_AFTER_S))
    median, base = statistics.median(starts), statistics.median(anchors)
    print(f"server cold start over {runs} runs on {os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.2f})\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| spawn → first publishDiagnostics, median | {median * 1000:.0f} ms |")
    print(f"| same, min / max | {min(starts) * 1000:.0f} / {max(starts) * 1000:.0f} ms |")
    print(f"| anchor `python -c pass`, median | {base * 1000:.0f} ms |")
    print(f"| ratio to the anchor | {median / base:.1f}x |")
    print(f"| server already running (file opened {OPEN_AFTER_S:.0f} s after it started): didOpen → first publishDiagnostics, median "
          f"| {statistics.median(opened) * 1000:.0f} ms |")
    for label, statement in IMPORTS.items():
        spent = statistics.median(import_time(statement) for _ in range(3)) - base
        print(f"| import {label} (`{statement}`), beyond the anchor | {spent * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
