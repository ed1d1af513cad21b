"""The ``editor`` client (VS Code and Neovim capability sets) and its ``session``.

The clients are module-scoped (one server process per module and client kind), so every
async test here runs on the module's event loop.
"""

import inspect

import pytest
from lsp_session import Session, start_client
from pytest_lsp import LanguageClient

editor = start_client({"debounce": 20})


def pytest_collection_modifyitems(items):
    """Run the async tests of this folder on their module's loop, where the client lives."""
    for item in items:
        if "tests/lsp/" in item.nodeid and inspect.iscoroutinefunction(getattr(item, "function", None)):
            item.add_marker(pytest.mark.asyncio(loop_scope="module"))


@pytest.fixture
def session(editor: LanguageClient) -> Session:
    """The ``editor`` client's session."""
    return editor.session
