"""The ``editor`` client (VS Code and Neovim capability sets) and its ``session``.

The clients are module-scoped (one server process per module and client kind), so every
async test here runs on the module's event loop.
"""

import inspect
from pathlib import Path

import pytest
from lsp_session import Session, start_client
from pytest_lsp import LanguageClient

HERE = Path(__file__).parent
editor = start_client({"debounce": 20})


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    """Run this folder's async tests on their module's loop, where the module's client lives."""
    if isinstance(collector, pytest.Module) and inspect.iscoroutinefunction(obj) \
            and collector.path.parent == HERE and not collector.get_closest_marker("asyncio"):
        collector.add_marker(pytest.mark.asyncio(loop_scope="module"))


@pytest.fixture
def session(editor: LanguageClient) -> Session:
    """The ``editor`` client's session."""
    return editor.session
