"""Where the benches find real model code: transformers' ``models/`` folder (from PyPI)."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def models_dir() -> Path | None:
    """transformers' `models/` folder, found without importing transformers."""
    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "models"
