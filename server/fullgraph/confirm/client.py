"""ConfirmClient: a warm Dynamo worker process, with timeouts, cancellation and restarts.

The server never imports torch; the worker (``worker.py``) runs in the interpreter given
here (the user's project interpreter; default ``sys.executable``).
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

WORKER = Path(__file__).with_name("worker.py")
DEFAULT_TIMEOUT = 120.0
DEFAULT_RSS_CAP_MB = 3072.0
MAX_OUTPUT = 65536


class ConfirmError(Exception):
    """A confirmation that could not run; ``kind`` says why (``timeout``, ``no-torch``, ...)."""

    def __init__(self, kind: str, message: str, output: str = ""):
        super().__init__(message)
        self.kind = kind
        self.output = output


class ConfirmClient:
    """Runs requests one at a time on a warm worker, restarting it when needed."""

    def __init__(
        self,
        python: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        rss_cap_mb: float = DEFAULT_RSS_CAP_MB,
        env: dict | None = None,
    ):
        self.python = python or sys.executable
        self.timeout = timeout
        self.rss_cap_mb = rss_cap_mb
        self.env = env
        self.proc: subprocess.Popen | None = None
        self.info: dict = {}
        self._replies: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=60)
        self._user_files: dict[str, int] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    # -- lifecycle -----------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The worker's process id, when one is running."""
        return self.proc.pid if self.alive() else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float | None = None) -> dict:
        """Start the worker (if not running) and wait until torch is imported."""
        if self.alive():
            return self.info
        self._replies = queue.Queue()
        self._stderr.clear()
        env = dict(os.environ if self.env is None else self.env, PYTHONUNBUFFERED="1")
        try:
            self.proc = subprocess.Popen(
                [self.python, str(WORKER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                text=True,
                encoding="utf-8",
                errors="replace",
            )
        except OSError as e:
            raise ConfirmError("interpreter", f"cannot start the worker with {self.python}: {e}") from None
        threading.Thread(target=self._pump, args=(self.proc.stdout, self._replies.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self._stderr.append), daemon=True).start()
        ready = self._wait(None, timeout or self.timeout, None, what="starting the worker")
        if not ready.get("ready"):
            self.close()
            error = ready.get("error", {})
            kind = error.get("kind", "worker")
            hint = " Install torch there, or point the confirm interpreter at the project's Python."
            hint = hint if kind == "no-torch" else ""
            raise ConfirmError(kind, error.get("message", "the worker failed to start") + hint)
        self.info = ready
        self._user_files = {}
        return ready

    def close(self) -> None:
        """Stop the worker (politely, then by force)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write(json.dumps({"op": "exit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self) -> "ConfirmClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- requests ------------------------------------------------------------------

    def request(
        self, payload: dict, timeout: float | None = None, cancel: threading.Event | None = None
    ) -> dict:
        """Send one request and return its ``result``; raises ConfirmError on any failure."""
        with self._lock:
            if self.alive() and self._stale():
                self.close()
            payload = {**payload, "id": next(self._ids), "max_output": MAX_OUTPUT}
            if not self._send(payload):  # it died while idle: one fresh worker, one retry
                self.close()
                self._send(payload)
            what = f"running {payload.get('op')} on {os.path.basename(payload.get('path', ''))}"
            reply = self._wait(payload["id"], timeout or self.timeout, cancel, what=what)
            self._user_files.update(reply.get("user_files", {}))
            if reply.get("rss_mb", 0) > self.rss_cap_mb:
                self.close()  # memory cap passed: the next request gets a fresh worker
            if not reply.get("ok"):
                error = reply.get("error", {})
                raise ConfirmError(error.get("kind", "worker"), error.get("message", "failed"), reply.get("output", ""))
            result = reply["result"]
            result.update(output=reply.get("output", ""), output_bytes=reply.get("output_bytes", 0),
                          seconds=reply.get("seconds"))
            return result

    def _send(self, payload: dict) -> bool:
        """Start the worker if needed and write one request; False when the pipe is broken."""
        self.start()
        try:
            self.proc.stdin.write(json.dumps(payload) + "\n")
            self.proc.stdin.flush()
            return True
        except OSError:
            return False  # the worker died; _wait reports it if the retry fails too

    def _wait(self, rid, timeout: float, cancel: threading.Event | None, what: str) -> dict:
        """The reply to ``rid`` (or the ready line), handling death, timeout and cancel."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._replies.get(timeout=0.05)
            except queue.Empty:
                line = None
            if line is not None:
                reply = _decode(line)
                if reply is not None and (rid is None or reply.get("id") == rid):
                    return reply
                continue
            if cancel is not None and cancel.is_set():
                return self._cancel(rid)
            if not self.alive():
                self._raise_died(what)
            if time.monotonic() > deadline:
                self.close()
                raise ConfirmError(
                    "timeout", f"{what} did not finish within {timeout:g} s; the worker was stopped and will restart"
                )

    def _cancel(self, rid) -> dict:
        """Interrupt the running request; kill the worker if it does not answer in 2 s."""
        if rid is not None and self.alive():
            self.proc.send_signal(signal.SIGINT)
            try:
                reply = _decode(self._replies.get(timeout=2))
                if reply and reply.get("id") == rid:
                    return reply
            except queue.Empty:
                pass
        self.close()
        return {"id": rid, "ok": False, "error": {"kind": "cancelled", "message": "cancelled"}}

    def _raise_died(self, what: str):
        code = self.proc.wait() if self.proc else None
        time.sleep(0.1)  # let the stderr pump catch the last lines
        self.proc = None
        tail = "\n".join(self._stderr).strip()
        how = f"signal {signal.Signals(-code).name}" if code and code < 0 else f"exit code {code}"
        where = next((ln.strip() for ln in self._stderr if ln.strip().startswith('File "')), None)
        raise ConfirmError(
            "crashed",
            f"the worker died ({how}) while {what}" + (f", at {where}" if where else "")
            + "; it will restart on the next request",
            tail[-4000:],
        )

    def _stale(self) -> bool:
        """True when a user file the worker imported changed on disk since."""
        for file, mtime in self._user_files.items():
            try:
                if os.stat(file).st_mtime_ns != mtime:
                    return True
            except OSError:
                return True
        return False

    @staticmethod
    def _pump(stream, sink) -> None:
        for line in stream:
            sink(line.rstrip("\n"))


def _decode(line: str) -> dict | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
