"""Client settings (section ``fullgraph``) merged over ``[tool.fullgraph]``.

Precedence, lowest first: built-in defaults, the nearest pyproject.toml
(``fullgraph.config.load_config``), ``initializationOptions.settings``, then the
latest ``workspace/configuration`` or ``didChangeConfiguration`` answer.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from fullgraph.config import Config, load_config

log = logging.getLogger(__name__)

DEFAULTS = {
    "enable": True,
    "run": "onType",
    "debounce": 200,
    "confirm": {"enable": True, "onSave": False, "timeout": 120, "interpreter": None},
}

# LSP keys that [tool.fullgraph] may also set (its `confirm` table means sample inputs, not these).
PYPROJECT_KEYS = ("enable", "run", "debounce")
# Client keys that become Config overrides (camelCase in editors, snake_case in pyproject).
CONFIG_KEYS = {"select": "select", "ignore": "ignore", "severity": "severity", "assumeCompiled": "assume_compiled",
               "unsafeFixes": "unsafe_fixes"}


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        elif value is not None:
            out[key] = value
    return out


def client_section(raw) -> dict:
    """The ``fullgraph`` settings from whatever shape a client sent (dict, list, wrapped)."""
    if isinstance(raw, list):  # the Microsoft template sends one entry per workspace folder
        raw = next((r for r in raw if isinstance(r, dict)), {})
    if not isinstance(raw, dict):
        return {}
    if isinstance(raw.get("fullgraph"), dict):
        raw = raw["fullgraph"]
    if isinstance(raw.get("settings"), (dict, list)):
        return client_section(raw["settings"])
    return raw


@dataclass(frozen=True)
class Effective:
    """The settings that apply to one document."""

    config: Config
    enable: bool
    run: str
    debounce_s: float
    confirm: dict


@dataclass
class Settings:
    """Client settings plus a per-directory cache of the pyproject configuration."""

    client: dict = field(default_factory=dict)
    on_error: Callable[[str], None] = log.warning
    _configs: dict = field(default_factory=dict)

    def update(self, *layers) -> None:
        """Replace the client settings by ``layers`` merged in order; drops cached configs."""
        self.client = {}
        for raw in layers:
            self.client = _deep_merge(self.client, client_section(raw))
        self._configs.clear()

    def _project(self, path: str) -> Config:
        def skipped(reason: str) -> None:
            self.on_error(f"ignoring a setting of [tool.fullgraph]: {reason}")

        try:  # a broken pyproject must not stop the squiggles: each bad setting is left out and logged
            return load_config(path, skipped=skipped)
        except ValueError as error:  # unreadable, or not a table
            self.on_error(f"ignoring [tool.fullgraph]: {error}")
            return Config()

    def _config(self, base: Config) -> Config:
        """``base`` with each valid client override applied; each bad one is logged and skipped."""
        config = base
        for key, config_key in CONFIG_KEYS.items():
            value = self.client.get(key)
            if value is None:
                continue
            try:
                config = config.merged({config_key: value})
            except (ValueError, TypeError, AttributeError) as error:
                self.on_error(f"ignoring the setting fullgraph.{key} = {value!r}: {error}")
        return config

    def for_path(self, path: str | None) -> Effective:
        """Effective settings for a document at ``path`` (None for unsaved buffers), cached per folder."""
        directory = os.path.dirname(path) if path else os.getcwd()
        if directory not in self._configs:
            self._configs[directory] = self._effective(path or directory)
        return self._configs[directory]

    def _effective(self, path: str) -> Effective:
        base = self._project(path)
        lsp = _deep_merge(DEFAULTS, {k: v for k, v in base.extra.items() if k in PYPROJECT_KEYS})
        merged = _deep_merge(lsp, self.client)
        config = self._config(base)
        enable = self._valid(merged, "enable", lambda v: isinstance(v, bool), "true or false")
        run = self._valid(merged, "run", lambda v: v in ("onType", "onSave"), '"onType" or "onSave"')
        debounce = self._valid(merged, "debounce", _is_delay, "a number of milliseconds from 0 to 60000")
        confirm = self._valid(merged, "confirm", lambda v: isinstance(v, dict), "an object")
        return Effective(config, enable, run, float(debounce) / 1000, confirm)

    def _valid(self, merged: dict, key: str, check, expected: str):
        """``merged[key]`` when ``check`` accepts it, else the default (and the bad value is logged)."""
        value = merged[key]
        if check(value):
            return value
        self.on_error(f"ignoring the setting fullgraph.{key} = {value!r}: expected {expected}")
        return DEFAULTS[key]


def _is_delay(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 60_000
