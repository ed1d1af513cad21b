"""`fullgraph.text`: lines break at CR, LF and CRLF only; offsets, positions and columns."""

from hypothesis import given
from hypothesis import strategies as st

from fullgraph.text import Text, code_point_col, col_from_units, line_starts, split_lines, split_lines_keepends, units

ODD = "a\r\nb\rc\nd\x0ce\u2028f\x85g\x0bh\x1ci"


def test_only_cr_lf_and_crlf_break_lines():
    assert split_lines(ODD) == ["a", "b", "c", "d\x0ce\u2028f\x85g\x0bh\x1ci"]
    assert split_lines_keepends(ODD) == ["a\r\n", "b\r", "c\n", "d\x0ce\u2028f\x85g\x0bh\x1ci"]
    assert split_lines_keepends("a\n") == ["a\n"] and split_lines("a\n") == ["a", ""]
    assert line_starts(ODD) == [0, 3, 5, 7]


def test_offsets_are_clamped_to_their_line():
    text = Text("ab\r\ncd\ref")
    assert [text.offset(1, 9), text.offset(2, 1), text.offset(3, 5), text.offset(4, 0), text.offset(0, 3)] == [2, 5, 9, 9, 0]
    assert [text.line(1), text.line(2), text.line(3), text.line(4)] == ["ab", "cd", "ef", ""]
    assert text.position(5) == (2, 1) and text.position(99) == (3, 2)


def test_columns_in_bytes_code_points_and_code_units():
    line = 's = "😀猫" + x'
    col = line.index("x")
    assert code_point_col(line, len(line[:col].encode())) == col
    assert units(line[:col], "utf-16") == col + 1 and units(line[:col], "utf-8") == col + 5
    for encoding in ("utf-8", "utf-16", "utf-32"):
        assert col_from_units(line, units(line[:col], encoding), encoding) == col


@given(st.text(alphabet=st.sampled_from("ab\r\n\x0c\u2028é😀")))
def test_offsets_and_positions_round_trip(source):
    text = Text(source)
    assert "".join(split_lines_keepends(source)) == source
    assert len(split_lines(source)) == text.line_count
    for offset in range(len(source) + 1):
        line, col = text.position(offset)
        if source[offset - 1:offset + 1] != "\r\n":  # inside a CRLF is not a position
            assert text.offset(line, col) == offset
