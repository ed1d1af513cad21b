"""Fuzz the language server with editor sessions (see server_session.py)."""

import itertools

import pytest
from conftest import budget, keep_failure, tried
from hypothesis import given
from raw_lsp import RawServer
from server_session import run_session, session

_URIS = itertools.count()


@pytest.fixture(scope="module")
def server():
    raw = RawServer({"debounce": 0})
    raw.initialize()
    yield raw
    assert raw.alive()
    raw.close()


@budget(8)
@given(script=session())
def test_server_invariants(server, script):
    tried("server sessions")
    try:
        tried("server messages", run_session(server, f"untitled:fuzz{next(_URIS)}.py", script))
    except BaseException as error:
        keep_failure("server", script, error)
        raise
