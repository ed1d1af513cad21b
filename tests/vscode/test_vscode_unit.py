"""The extension's mocha unit tests (settings, launch arguments, status text) pass."""

from __future__ import annotations

import re
import subprocess


def test_mocha_unit_tests_pass(client_dir):
    done = subprocess.run(["npm", "test", "--", "--reporter", "spec"], cwd=client_dir, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    passing = re.search(r"(\d+) passing", output)
    assert passing and int(passing.group(1)) >= 20, output[-4000:]
    assert "failing" not in output


def test_extension_typechecks(client_dir):
    """The whole extension (not only the unit-tested modules) compiles under `strict`."""
    done = subprocess.run(["npm", "run", "-s", "typecheck"], cwd=client_dir, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
