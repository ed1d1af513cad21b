"""Failures of user code or setup each give their message, and the worker carries on."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from fullgraph.confirm.client import ConfirmClient, ConfirmError
from fullgraph.confirm.targets import targets_for

from .conftest import fixture

pytestmark = pytest.mark.torch


def payload(name):
    return targets_for(fixture(name))[0].payload()


def error_of(client, name, **kw) -> ConfirmError:
    with pytest.raises(ConfirmError) as info:
        client.request(payload(name), **kw)
    return info.value


def test_factory_error(client):
    e = error_of(client, "factory_raises.py")
    assert e.kind == "factory" and "RuntimeError: checkpoint not found" in str(e)


def test_syntax_error(client):
    e = error_of(client, "broken_syntax.py")
    assert e.kind == "syntax" and "broken_syntax.py:3" in str(e)


def test_megabytes_of_output_are_capped(client):
    result = client.request(payload("chatty.py"))
    assert result["output_bytes"] > 4_000_000
    assert len(result["output"]) <= 65536


def test_worker_is_reused_then_restarted_after_kill(client):
    client.request(payload("print_first.py"))
    pid = client.pid
    client.request(payload("print_first.py"))
    assert client.pid == pid
    os.kill(pid, signal.SIGKILL)
    client.proc.wait()
    assert client.request(payload("print_first.py"))["breaks"]
    assert client.pid not in (None, pid)


def test_abort_in_user_code(client):
    e = error_of(client, "aborts.py")
    assert e.kind == "crashed" and "SIGABRT" in str(e) and "aborts.py\", line 9 in boom" in str(e)
    assert "aborts.py" in e.output  # faulthandler's traceback of the user frame
    assert client.request(payload("print_first.py"))["breaks"]


def test_cancel_keeps_the_worker(client):
    client.start()
    pid = client.pid
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    e = error_of(client, "hangs.py", cancel=cancel)
    assert e.kind == "cancelled" and client.pid == pid


def test_timeout_stops_and_restarts(client):
    e = error_of(client, "hangs.py", timeout=2)
    assert e.kind == "timeout" and "2 s" in str(e)
    assert client.request(payload("print_first.py"))["breaks"]


def test_edited_user_file_restarts_the_worker(client, tmp_path):
    path = tmp_path / "model.py"
    path.write_text(open(fixture("print_first.py")).read())
    target = targets_for(str(path))[0]
    client.request(target.payload())
    pid = client.pid
    path.write_text(path.read_text().replace('"scaling"', '"rescaling"'))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert client.request(target.payload())["output"].startswith("rescaling")
    assert client.pid != pid


def test_interpreter_without_torch(tmp_path):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    with ConfirmClient(python=str(python), timeout=30) as bare:
        with pytest.raises(ConfirmError) as info:
            bare.request(payload("print_first.py"))
    assert info.value.kind == "no-torch" and "cannot import torch" in str(info.value)
