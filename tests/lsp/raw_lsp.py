"""A bare JSON-RPC client for the real `fullgraph serve`: it can send what no LSP library would
(malformed params, bodies that are not JSON) and mirrors documents as an editor does.

The editor mirror is written here on purpose, independent of the server's `fullgraph.text`:
lines break at CR, LF and CRLF only (as in LSP), columns are UTF-16 code units.
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time

SERVER = [sys.executable, "-m", "fullgraph", "serve"]
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def editor_lines(text: str) -> list[str]:
    """Lines as an LSP client counts them."""
    return LINE_BREAK.split(text)


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def editor_offset(text: str, line: int, character: int) -> int:
    """String offset of an LSP position (UTF-16), clamped as clients do."""
    starts = [0, *(m.end() for m in LINE_BREAK.finditer(text))]
    if line >= len(starts):
        return len(text)
    end = starts[line + 1] - len(LINE_BREAK.search(text, starts[line]).group()) if line + 1 < len(starts) else len(text)
    offset, units = starts[line], 0
    while offset < end and units < character:
        units += utf16(text[offset])
        offset += 1
    return offset


def apply_change(text: str, change: dict) -> str:
    """``text`` after one incremental (or full) content change."""
    if "range" not in change:
        return change["text"]
    start, end = (editor_offset(text, p["line"], p["character"]) for p in (change["range"]["start"], change["range"]["end"]))
    return text[:start] + change["text"] + text[end:]


def position(text: str, offset: int) -> dict:
    """LSP position (UTF-16) of a string offset."""
    line, start = 0, 0
    for match in LINE_BREAK.finditer(text, 0, offset):
        line, start = line + 1, match.end()
    return {"line": line, "character": utf16(text[start:offset])}


class RawServer:
    """One `fullgraph serve` process; responses by id, notifications in order."""

    def __init__(self, settings: dict | None = None, env: dict | None = None):
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.responses: dict = {}
        self.notes: queue.Queue = queue.Queue()
        self.diagnostics: dict[str, list[dict]] = {}
        self._ids = 0
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.docs: dict[str, tuple[int, str]] = {}
        self.settings = settings or {}

    # -- wire ---------------------------------------------------------------------------------
    def send_bytes(self, body: bytes) -> None:
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message) -> None:
        self.send_bytes(json.dumps(message).encode())

    def _read(self) -> None:
        stream = self.proc.stdout
        while True:
            length = None
            while (header := stream.readline()) not in (b"\r\n", b""):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            if header == b"" or length is None:
                break
            message = json.loads(stream.read(length))
            if "method" in message and "id" in message:  # a request from the server
                answer = [self.settings] if message["method"] == "workspace/configuration" else None
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": answer})
            elif "method" in message:
                if message["method"] == "textDocument/publishDiagnostics":
                    with self._cond:
                        self.diagnostics.setdefault(message["params"]["uri"], []).append(message["params"])
                        self._cond.notify_all()
                self.notes.put(message)
            else:
                with self._cond:
                    self.responses.setdefault(json.dumps(message.get("id")), []).append(message)
                    self._cond.notify_all()

    def response(self, msg_id, timeout: float = 20.0) -> dict | None:
        """The response with ``msg_id`` (None when none came within ``timeout``)."""
        key = json.dumps(msg_id)
        with self._cond:
            self._cond.wait_for(lambda: self.responses.get(key), timeout)
            found = self.responses.get(key)
            return found.pop(0) if found else None

    def request(self, method: str, params=None, timeout: float = 20.0) -> dict | None:
        self._ids += 1
        self.send({"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params})
        return self.response(self._ids, timeout)

    def notify(self, method: str, params=None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    # -- session ------------------------------------------------------------------------------
    def initialize(self) -> dict:
        answer = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                             "initializationOptions": {"settings": self.settings}})
        self.notify("initialized", {})
        return answer

    def open(self, uri: str, text: str) -> None:
        self.docs[uri] = (1, text)
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                              "text": text}})

    def change(self, uri: str, changes: list[dict]) -> int:
        version, text = self.docs[uri]
        for change in changes:
            text = apply_change(text, change)
        self.docs[uri] = (version + 1, text)
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version + 1},
                                               "contentChanges": changes})
        return version + 1

    def published(self, uri: str, version: int, timeout: float = 30.0) -> list[dict] | None:
        """The diagnostics published for ``uri`` at ``version`` (None when none came)."""
        def found():
            return next((p for p in reversed(self.diagnostics.get(uri, [])) if p.get("version") == version), None)
        with self._cond:
            self._cond.wait_for(found, timeout)
            hit = found()
        return hit["diagnostics"] if hit else None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exit(self, timeout: float = 5.0) -> float:
        """Send shutdown and exit; seconds until the process ended (``timeout`` if it did not)."""
        start = time.monotonic()
        try:
            self.request("shutdown", None, timeout)
            self.notify("exit", None)
        except (BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return timeout
        return time.monotonic() - start

    def close(self) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
