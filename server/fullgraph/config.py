"""`[tool.fullgraph]` settings: rule selection (per file too), severities, compiled-region mode, excludes."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath

import tomllib

from fullgraph.findings import SEVERITIES

ASSUME_COMPILED = ("modules", "decorated", "api", "all")
ASSUME_KEYS = ("training", "dtype", "device")
ASSUME_DTYPES = ("float16", "bfloat16", "float32", "float64")


# The keys `[tool.fullgraph]` takes (`-` or `_`): the checker's, the interpreter's, sample inputs
# (`confirm`) and the language server's (`enable`, `run`, `debounce`); `root` is set by the loader.
KEYS = ("select", "ignore", "extend_select", "extend_ignore", "per_file_ignores", "assume_compiled", "exclude",
        "severity", "assume", "unsafe_fixes", "python", "confirm", "enable", "run", "debounce", "root")


def _codes(value, key: str) -> tuple[str, ...]:
    """A code list from a TOML list or a comma-separated string, upper-cased; each a prefix of a
    rule code (`FG`, `FG3`, `FG301`), else ValueError."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key} must be a list of rule codes or prefixes, not {value!r}")
    codes = tuple("FG" if v.strip().upper() == "ALL" else v.strip().upper() for v in value if v.strip())  # (as ruff's ALL)
    unknown = [c for c in codes if not any(code.startswith(c) for code in _rule_codes())]
    if unknown:
        raise ValueError(f"{key}: unknown rule code or prefix {', '.join(map(repr, unknown))} "
                         "(`fullgraph rules` lists the codes)")
    return codes


def _rule_codes() -> tuple[str, ...]:
    from fullgraph.rules.catalog import RULES  # (the catalog imports the rules, which need no config)

    return tuple(RULES)


@dataclass(frozen=True)
class Config:
    """What to report and where; every field has a working default."""

    select: tuple[str, ...] = ("FG",)
    ignore: tuple[str, ...] = ()
    assume_compiled: str = "modules"
    severity: dict = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, codes): ignored in the files it matches
    assume: dict = field(default_factory=dict)  # what the project compiles: {"training": False, "dtype": "float32", "device": "cuda"}
    unsafe_fixes: bool = False  # fix-all applies the unsafe fixes too; the editor offers them, marked
    extra: dict = field(default_factory=dict)
    root: str | None = None  # folder of the pyproject.toml it came from (exclude globs are relative to it)

    def selects(self, code: str) -> bool:
        """True when the most specific matching prefix is in `select` rather than `ignore`."""
        sel = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        ign = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return sel >= 0 and sel > ign

    def severity_for(self, code: str, default: str) -> str:
        """The configured severity for `code` (longest matching prefix), else `default`."""
        best = max((p for p in self.severity if code.startswith(p)), key=len, default=None)
        return self.severity[best] if best is not None else default

    def excludes(self, path: str) -> bool:
        """True when `path` (or one of its folders) matches an `exclude` glob."""
        return bool(self.exclude) and self._matches(path, self.exclude)

    def ignored_in(self, path: str, code: str) -> bool:
        """True when a `per-file-ignores` glob matching `path` (as `exclude` globs match) lists a
        prefix of `code`."""
        return any(any(code.startswith(c) for c in codes) and self._matches(path, (pattern,))
                   for pattern, codes in self.per_file_ignores)

    def _matches(self, path: str, patterns) -> bool:
        """Whether `path` or one of its folders matches a glob of `patterns` (relative to the folder of
        the pyproject.toml, wherever fullgraph runs; a glob without `/` matches any one name)."""
        p = PurePath(path)
        if self.root:
            try:
                p = PurePath(os.path.abspath(path)).relative_to(self.root)
            except ValueError:
                pass
        parts = p.as_posix()
        names = p.parts
        for pattern in patterns:
            pat = pattern.rstrip("/")
            if fnmatch.fnmatch(parts, pat) or fnmatch.fnmatch(parts, pat + "/*"):
                return True
            if "/" not in pat and any(fnmatch.fnmatch(n, pat) for n in names):
                return True
        return False

    def merged(self, overrides: dict) -> Config:
        """A copy with `overrides` applied (keys as in pyproject; `-` or `_`)."""
        changes: dict = {}
        extra = dict(self.extra)
        for key, value in _in_order(overrides):
            name = key.replace("-", "_")
            if value is None:
                continue
            if name not in KEYS:
                raise ValueError(f"unknown setting {key!r} (settings: {', '.join(k for k in KEYS if k != 'root')})")
            if name in ("select", "ignore"):
                changes[name] = _codes(value, key)
            elif name in ("extend_select", "extend_ignore"):  # added to what is selected or ignored (as ruff's)
                kept = name.removeprefix("extend_")
                changes[kept] = (*changes.get(kept, getattr(self, kept)), *_codes(value, key))
            elif name == "exclude":
                value = [value] if isinstance(value, str) else value
                if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                    raise ValueError(f"exclude must be a list of glob patterns, not {value!r}")
                changes[name] = tuple(value)
            elif name == "per_file_ignores":
                if not isinstance(value, dict):
                    raise ValueError(f"{key} must be a table of glob = [rule codes], not {value!r}")
                changes[name] = tuple((str(glob), _codes(codes, f"{key}.{glob}")) for glob, codes in value.items())
            elif name == "assume_compiled":
                if value not in ASSUME_COMPILED:
                    raise ValueError(f"assume_compiled must be one of {', '.join(ASSUME_COMPILED)}, not {value!r}")
                changes[name] = value
            elif name == "severity":
                if not isinstance(value, dict):
                    raise ValueError("severity must be a table of CODE = severity")
                wrong = [f"{k} = {v!r}" for k, v in value.items() if v not in SEVERITIES]
                if wrong:
                    raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}: {', '.join(wrong)}")
                _codes(list(value), "severity")
                changes[name] = {**self.severity, **{k.upper(): str(v) for k, v in value.items()}}
            elif name == "assume":
                changes[name] = _assume(value)
            elif name == "unsafe_fixes":
                if not isinstance(value, bool):
                    raise ValueError(f"unsafe-fixes must be true or false, not {value!r}")
                changes[name] = value
            elif name == "root":
                changes[name] = str(value)
            else:
                extra[key] = value
        return replace(self, extra=extra, **changes)


def _in_order(settings: dict) -> list[tuple]:
    """The settings with the `extend-` ones last: they add to what `select`/`ignore` set."""
    return sorted(settings.items(), key=lambda item: item[0].replace("-", "_").startswith("extend_"))


def _assume(value) -> dict:
    """`assume = { training = false, dtype = "float32", device = "cuda" }`, checked."""
    if not isinstance(value, dict) or set(value) - set(ASSUME_KEYS):
        raise ValueError(f"assume must be a table with keys among {', '.join(ASSUME_KEYS)}")
    if "training" in value and not isinstance(value["training"], bool):
        raise ValueError("assume.training must be true or false")
    if "dtype" in value and value["dtype"] not in ASSUME_DTYPES:
        raise ValueError(f"assume.dtype must be one of {', '.join(ASSUME_DTYPES)}")
    if "device" in value and not (isinstance(value["device"], str) and value["device"].isidentifier()):
        raise ValueError('assume.device must be a device type such as "cpu" or "cuda"')
    return dict(value)


def find_pyproject(start_path: str | Path) -> Path | None:
    """The nearest `pyproject.toml` at or above `start_path` that has a `[tool.fullgraph]` table (as
    ruff skips one without its own; `start_path` itself if a .toml file), looked up along the path
    as given (a linked-in folder belongs to the project that links it)."""
    p = Path(os.path.abspath(start_path))
    if p.suffix == ".toml" and p.is_file():
        return p
    for folder in [p, *p.parents] if p.is_dir() else p.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _configures(candidate):
            return candidate
    return None


def _configures(pyproject: Path) -> bool:
    """Whether a pyproject.toml has a `[tool.fullgraph]` table (an unreadable one says so when loaded)."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True
    tool = data.get("tool")
    return "fullgraph" in tool if isinstance(tool, dict) else tool is not None  # (a malformed `tool` is reported)


def load_config(start_path: str | Path = ".", skipped=None) -> Config:
    """`Config` from the nearest pyproject's `[tool.fullgraph]`; defaults if none.

    Raises ValueError on an unreadable file or a bad setting (front ends report it); with
    ``skipped`` (the editor's), a bad setting is left out and ``skipped(reason)`` told instead.
    """
    pyproject = find_pyproject(start_path)
    if pyproject is None:
        return Config()
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{pyproject}: {exc}") from exc
    tool = data.get("tool", {})
    table = tool.get("fullgraph", {}) if isinstance(tool, dict) else None
    if not isinstance(table, dict):
        raise ValueError(f"{pyproject}: [tool.fullgraph] must be a table")
    if pyproject.name != "pyproject.toml" and "tool" not in data:
        table = data  # a file of fullgraph's own (`--config fullgraph.toml`): its keys at the top level
    config = Config(root=str(pyproject.parent))
    if skipped is None:
        try:
            return config.merged(table)
        except ValueError as exc:
            raise ValueError(f"{pyproject}: {exc}") from exc
    for key, value in _in_order(table):
        try:
            config = config.merged({key: value})
        except ValueError as exc:
            skipped(f"{pyproject}: {exc}")
    return config


def load_config_file(path: str) -> Config:
    """`Config` from the file `--config` names: a `.toml` file that exists, else ValueError."""
    if not path.endswith(".toml") or not os.path.isfile(path):
        raise ValueError(f"--config {path}: no such .toml file")
    return load_config(path)
