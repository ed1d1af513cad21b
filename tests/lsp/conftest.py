"""The ``editor`` client (VS Code and Neovim capability sets) and its ``session``."""

import pytest
from lsp_session import Session, start_client
from pytest_lsp import LanguageClient

editor = start_client({"debounce": 20})


@pytest.fixture
def session(editor: LanguageClient) -> Session:
    """The ``editor`` client's session."""
    return editor.session
