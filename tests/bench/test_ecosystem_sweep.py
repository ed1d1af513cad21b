"""The robustness sweep (check and fix-all on packages without recorded runs) on a tiny package."""

from __future__ import annotations

import sys

from test_ecosystem_score import bench_module

MODEL = '''\
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x * 2
        if y.sum() > 0:
            y = y + 1
        else:
            y = y - 1
        return y
'''


def tiny_package(root):
    (root / "tinypkg").mkdir(parents=True)
    (root / "tinypkg" / "__init__.py").write_text("from tinypkg.model import Model\n")
    (root / "tinypkg" / "model.py").write_text(MODEL)
    (root / "tinypkg" / "plain.py").write_text("def add(a, b):\n    return a + b\n")
    return root


def test_the_sweep_fixes_a_copy_and_proves_it_compiles_imports_and_settles(tmp_path):
    sweep = bench_module("sweep")
    source = tiny_package(tmp_path / "src")
    (tmp_path / "work").mkdir()
    r = sweep.sweep_package("tinypkg", source, "default", tmp_path / "work", 1, python=sys.executable)
    assert (r["files"], r["findings"], r["internal"]) == (3, 1, [])
    assert r["changed_files"] == ["tinypkg/model.py"]
    assert (r["broken_files"], r["not_idempotent"], r["import_errors"]) == ([], [], [])
    assert "torch.where" in (tmp_path / "work" / "default" / "tinypkg" / "model.py").read_text()
    assert "if y.sum() > 0:" in (source / "tinypkg" / "model.py").read_text()  # the original is left alone


def test_the_sweep_reports_a_file_that_no_longer_compiles_and_a_module_that_no_longer_imports(tmp_path):
    sweep, fixmode = bench_module("sweep"), bench_module("fixmode")
    original = tiny_package(tmp_path / "original")
    (original / "tinypkg" / "extra.py").write_text("import not_installed_anywhere\n")
    root = tiny_package(tmp_path / "fixed")
    (root / "tinypkg" / "plain.py").write_text("def add(a, b):\n    return a +\n")
    (root / "tinypkg" / "extra.py").write_text("import not_installed_anywhere\n")
    assert sweep.broken_files(root, ["tinypkg/model.py", "tinypkg/plain.py"])[0].startswith("tinypkg/plain.py: SyntaxError")
    failed = fixmode.import_check(root, original, ["tinypkg.model", "tinypkg.plain", "tinypkg.extra"], sys.executable)
    assert [f.partition(":")[0] for f in failed] == ["tinypkg.plain"]  # extra never imported: not the fix's doing
