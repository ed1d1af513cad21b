"""The user's-view scorer's reading of a library finding's named lines."""

from __future__ import annotations

import os

from test_ecosystem_score import bench_module


def test_a_break_in_another_package_is_named_by_the_line_the_scored_package_calls_it_from(tmp_path):
    """The truth places a break inside a package the scored one calls (pykeen calling opt_einsum) at
    the scored package's innermost frame; the finding's "through here" chain gives that line. Chains
    and breaks inside the scored package are read as they are, and lines outside site-packages are
    ignored."""
    userview = bench_module("userview")
    site = str(tmp_path)

    def at(path, line, message):
        return {"path": os.path.join(site, path), "line": line, "message": message}
    finding = {"related": [
        at("opt_einsum/sharing.py", 35, "breaks here: a call Dynamo skips"),
        at("pykeen/nn/modules.py", 2438, "through here: `TransH.forward` calls `einsum`"),
        at("opt_einsum/contract.py", 584, "through here: `contract` calls `_einsum`"),
        at("pykeen/utils.py", 535, "breaks here: `min()` over a generator of tuples"),
        at("pykeen/nn/modules.py", 10, "through here: `Interaction.forward` calls `score`"),
        {"path": "/elsewhere/user.py", "line": 3, "message": "breaks here: elsewhere"},
    ]}
    assert userview.named_lines(finding, site, {"pykeen"}) == [("pykeen/nn/modules.py", 2438), ("pykeen/utils.py", 535)]
    assert userview.named_lines(finding, site, {"opt_einsum", "pykeen"}) == [
        ("opt_einsum/sharing.py", 35), ("pykeen/utils.py", 535)]
