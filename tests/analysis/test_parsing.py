"""Every parse of the server's code goes through `parse_tree`, which lets one thread parse at a
time (CPython 3.11's parser shares the depth of the tree it builds between threads: the
language server parsed in two at once and a request failed with "SystemError: AST
constructor recursion depth mismatch")."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import fullgraph
from fullgraph.analysis import parsing

SERVER = Path(fullgraph.__file__).parent


def test_no_module_of_the_server_calls_ast_parse_itself():
    direct = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "parse" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "ast":
                direct.append(str(path.relative_to(SERVER)))
    assert direct == ["analysis/parsing.py"]


def test_a_parse_waits_for_another_threads_parse(monkeypatch):
    inside = threading.Event()
    release = threading.Event()
    done = []

    class Slow(str):  # a source whose parse blocks until released
        pass

    real = ast.parse

    def blocking(source, filename="<unknown>", mode="exec"):
        if isinstance(source, Slow):
            inside.set()
            release.wait(5)
        return real(source, filename=filename, mode=mode)

    monkeypatch.setattr(ast, "parse", blocking)
    first = threading.Thread(target=lambda: done.append(parsing.parse_tree(Slow("x = 1"))))
    first.start()
    assert inside.wait(5)
    second = threading.Thread(target=lambda: done.append(parsing.parse_tree("y = 2")))
    second.start()
    second.join(0.2)
    assert second.is_alive() and done == []  # the second parse waits for the first
    release.set()
    first.join(5), second.join(5)
    assert [ast.dump(t) for t in done] == [ast.dump(real("x = 1")), ast.dump(real("y = 2"))]
