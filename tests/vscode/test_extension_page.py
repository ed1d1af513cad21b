"""The extension page (package.json and the client README) states the server's real defaults and has an icon."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

from fullgraph.lsp.settings import DEFAULTS

CLIENT = Path(__file__).resolve().parents[2] / "vscode-client"


def _contributed() -> dict:
    manifest = json.loads((CLIENT / "package.json").read_text())
    return {k.removeprefix("fullgraph."): v["default"] for k, v in manifest["contributes"]["configuration"]["properties"].items()}


def _readme_defaults() -> dict:
    """`fullgraph.a` / `.b` rows of the README's settings table, as key -> default text."""
    out = {}
    for keys, values in re.findall(r"^\| (`fullgraph\.[^|]+) \| ([^|]+) \|", (CLIENT / "README.md").read_text(), re.M):
        names = [k.strip(" `") for k in keys.split("/")]
        first = names[0].removeprefix("fullgraph.")
        prefix = first.rsplit(".", 1)[0] + "." if len(names) > 1 else ""
        full = [first] + [prefix + n.lstrip(".") for n in names[1:]]
        for name, value in zip(full, [v.strip(" `") for v in values.split("/")]):
            out[name] = value
    return out


def test_readme_and_package_json_state_the_server_defaults():
    contributed, readme = _contributed(), _readme_defaults()
    for key in ("enable", "onSave", "timeout"):
        assert contributed[f"confirm.{key}"] == DEFAULTS["confirm"][key]
        assert readme[f"confirm.{key}"] == json.dumps(DEFAULTS["confirm"][key])
    for key, value in readme.items():
        if key in contributed and not key.startswith("select"):
            assert json.dumps(contributed[key]) == value or value.strip('"') == str(contributed[key]), key


def test_the_extension_has_an_icon():
    manifest = json.loads((CLIENT / "package.json").read_text())
    png = (CLIENT / manifest["icon"]).read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", png[16:24]) == (128, 128)
    assert f"!{manifest['icon']}" in (CLIENT / ".vscodeignore").read_text().split()
