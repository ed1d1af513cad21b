"""Where the benches find real model code: transformers' ``models/`` folder (from PyPI)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import sysconfig
from pathlib import Path


def models_dir() -> Path | None:
    """transformers' `models/` folder, found without importing transformers."""
    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "models"


def models_or_say() -> Path | None:
    """The models folder, or None after saying how to install transformers."""
    root = models_dir()
    if root is None:
        print("transformers is needed: pip install -e '.[bench]'", file=sys.stderr)
    return root


def ruff_binary() -> str | None:
    return shutil.which("ruff", path=sysconfig.get_path("scripts")) or shutil.which("ruff")


def models_and_ruff() -> tuple[Path, str] | None:
    """The models folder and the ruff binary, or None after saying how to install them."""
    root, ruff = models_dir(), ruff_binary()
    if root is None or ruff is None:
        print("transformers and ruff are needed: pip install -e '.[bench]'", file=sys.stderr)
        return None
    return root, ruff
