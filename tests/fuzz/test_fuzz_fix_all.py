"""Fuzz fix-all and --add-noqa on generated programs and small real files (see invariants.py)."""

from fuzz_budget import budget, keep_failure, tried
from hypothesis import given
from hypothesis import strategies as st
from inputs import mutant, program
from invariants import check_add_noqa, check_fix_all

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


@budget(25)
@given(st.one_of(program(), mutant(FIX_LINES)))
def test_add_noqa_invariants(text):
    tried("add-noqa")
    try:
        check_add_noqa(text)
    except BaseException as error:
        keep_failure("add-noqa", text, error)
        raise
