"""Fuzz `analyze`: mutants of real files, generated programs and random text (see invariants.py)."""

from fuzz_budget import budget, fuzz, keep_failure, tried
from hypothesis import given
from hypothesis import strategies as st
from inputs import sources
from invariants import check_analysis


@budget(60)
@given(sources())
def test_analysis_invariants(text):
    fuzz("analysis", check_analysis, text)


@budget(40)
@given(st.binary(max_size=400))
def test_analysis_of_any_bytes(data):
    from fullgraph.engine import analyze

    tried("analysis")
    try:
        for f in analyze(data, "fuzz.py"):
            assert f.line >= 1 and f.col >= 0 and (f.line, f.col) <= (f.end_line, f.end_col)
    except BaseException as error:
        keep_failure("bytes", data.decode("latin-1"), error)
        raise
