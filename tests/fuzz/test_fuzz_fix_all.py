"""Fuzz fix-all on generated programs and small real files (see invariants.py)."""

from conftest import budget, keep_failure, tried
from hypothesis import given
from hypothesis import strategies as st
from inputs import mutant, program
from invariants import check_fix_all

FIX_LINES = 300  # fix-all re-analyses to a fixpoint: keep each input small


@budget(25)
@given(st.one_of(program(), mutant(FIX_LINES)))
def test_fix_all_invariants(text):
    tried("fix-all")
    try:
        check_fix_all(text)
    except BaseException as error:
        keep_failure("fix-all", text, error)
        raise
