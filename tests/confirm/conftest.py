"""Shared helpers for the confirmation tests."""

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    """Absolute path of a confirm fixture file."""
    return str(FIXTURES / name)


def line_of(path: str, text: str) -> int:
    """The 1-based line of the first occurrence of ``text`` in a file."""
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


@pytest.fixture(scope="session")
def client():
    """One warm worker shared by the tests (restarted by the tests that kill it)."""
    from fullgraph.confirm.client import ConfirmClient

    with ConfirmClient(timeout=60) as c:
        yield c
