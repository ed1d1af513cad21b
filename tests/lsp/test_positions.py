"""Code-point columns to UTF-8/16/32 LSP positions and back."""

from lsprotocol.types import PositionEncodingKind as Kind

from fullgraph.lsp.positions import Encoder
from fullgraph.text import split_lines

LINE = 's = "😀猫" + x.item()'  # the emoji is 2 UTF-16 units and 4 UTF-8 bytes; the CJK char 1 and 3
COL = LINE.index("x.item")


def test_split_lines_only_breaks_on_cr_lf_crlf():
    assert split_lines("a\r\nb\rc\nd\x0ce\u2028f") == ["a", "b", "c", "d\x0ce\u2028f"]


def test_position_in_each_encoding():
    lines = ["", LINE]
    assert Encoder(lines, Kind.Utf16).position(2, COL).character == COL + 1
    assert Encoder(lines, Kind.Utf8).position(2, COL).character == COL + 3 + 2
    assert Encoder(lines, Kind.Utf32).position(2, COL).character == COL


def test_round_trip_from_client_units():
    for kind in (Kind.Utf8, Kind.Utf16, Kind.Utf32):
        enc = Encoder(["", LINE], kind)
        for col in range(len(LINE) + 1):
            assert enc.from_client(enc.position(2, col)) == (2, col)


def test_positions_are_clamped_to_the_text():
    enc = Encoder(["ab", "c"])
    assert enc.position(9, 0).line == 1 and enc.position(9, 0).character == 1
    assert enc.position(1, 99).character == 2
    assert Encoder(["😀"]).from_client(enc.position(1, 0).__class__(line=5, character=9)) == (1, 1)
