"""The corpus reader rejects malformed examples instead of silently expecting nothing."""

from __future__ import annotations

import pytest

from corpus_format import parse_example, rule_of


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_markers_and_header(tmp_path):
    path = _write(tmp_path, "fg101_x.py", "# expect: FG101, FG301\nif t:  # <- FG101 GB0170 GB7000\nprint(t)  # <- FG301\n")
    example = parse_example(path)
    assert example.expected_findings() == {(2, "FG101"), (3, "FG301")}
    assert example.markers[0].gb_ids == {"GB0170", "GB7000"}
    assert rule_of(example) == "FG101" and not example.clean


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n",  # no header
        "# expect: FG101\nx = 1\n",  # header code without a marker
        "# expect: clean\nprint(x)  # <- FG301\n",  # counter-example with a marker
    ],
)
def test_rejects_inconsistent_files(tmp_path, text):
    with pytest.raises(ValueError):
        parse_example(_write(tmp_path, "fg101_bad.py", text))
