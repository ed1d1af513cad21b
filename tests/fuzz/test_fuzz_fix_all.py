"""Fuzz fix-all and --add-noqa on generated programs and small real files (see invariants.py)."""

from fuzz_budget import budget, fuzz
from hypothesis import given
from hypothesis import strategies as st
from inputs import mutant, program
from invariants import check_add_noqa, check_fix_all

FIX_LINES = 300  # fix-all re-analyses to a fixpoint: keep each input small


@budget(25)
@given(st.one_of(program(), mutant(FIX_LINES)))
def test_fix_all_invariants(text):
    fuzz("fix-all", check_fix_all, text)


@budget(25)
@given(st.one_of(program(), mutant(FIX_LINES)))
def test_add_noqa_invariants(text):
    fuzz("add-noqa", check_add_noqa, text)
