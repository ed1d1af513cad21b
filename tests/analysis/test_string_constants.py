"""A comparison with a name bound only to string literals (a module constant, a class attribute of a
constants namespace) is a Python test, in this file or through an import; a name rebound to
anything else, or a local, still takes its own fact."""

from __future__ import annotations

from fullgraph.config import Config

from workspace_files import workspace_findings

SETTINGS = '''
class METHODS:
    euler = "euler"
    heun = "heun"


MODE = "fast"
SCALE = "x"
SCALE = 2.0
'''

SELECT = '''
import torch
from .settings import METHODS, MODE, SCALE


class Local:
    fast = "fast"


def select(method, x):
    if method == METHODS.euler:
        return x
    if method != MODE:
        return x * 2
    if method == Local.fast:
        return x * 3
    if method == SCALE:
        return x * 4
    return x
'''


def test_string_constants_make_python_tests_and_other_names_do_not(tmp_path):
    found = workspace_findings(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/select.py": SELECT},
                               "pkg/select.py", Config(assume_compiled="all"))
    assert [(f.code, f.line) for f in found] == [("FG101", 17)]  # `if method == SCALE:`: rebound to a float
