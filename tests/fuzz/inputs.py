"""Fuzz inputs: real files (the fixtures, the corpus, torch's own Python sources), their mutants,
generated compiled functions, and the line ends and separators that tripped us before."""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
TORCH_FOLDERS = ("nn/modules", "nn/utils", "distributions", "optim", "ao/nn/quantized/modules", "_dynamo/variables")
LINE_ENDS = ("\n", "\r\n", "\r")
SEPARATORS = ("\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
SNIPPETS = (
    "if x.sum() > 0:\n", "    print(x.item())\n", "    logger.info('a %s',\n        x)\n", "    return x\n",
    "assert x.all(), f'{x}'\n", "y = x if x.any() else -x\n", "while x.max() > 1:\n    x = x / 2\n",
    "@torch.compile\ndef f(x):\n", "class M(nn.Module):\n    def forward(self, x):\n", "\tx = 1\n",
    "(", ")", "[", "]", ":", "\\\n", "#", "# fullgraph: ignore\n", '"""', "'", "é", "😀", "猫", "\x00",
    "not " * 40, "-" * 200, " + x" * 300, "lambda: 0", "yield x\n", "await x\n", "global x\n",
    "    ", "\n\n", *LINE_ENDS, *SEPARATORS,
)


def _torch_sources() -> list[Path]:
    """Python files of the installed torch (found without importing it)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return []
    base = Path(list(spec.submodule_search_locations)[0])
    return sorted(p for folder in TORCH_FOLDERS for p in (base / folder).glob("*.py"))


@lru_cache(maxsize=None)
def seeds(max_lines: int | None = None) -> tuple[str, ...]:
    """Texts of the real files, those of at most ``max_lines`` lines when given."""
    paths = [*sorted(ROOT.glob("fixtures/**/*.py")), *sorted((ROOT / "tests" / "corpus" / "examples").glob("*.py")),
             *_torch_sources()]
    texts = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if max_lines is None or text.count("\n") <= max_lines:
            texts.append(text)
    return tuple(texts)


def with_line_ends(text: str, end: str) -> str:
    """``text`` with every line end replaced by ``end``."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", end)


@st.composite
def mutant(draw, max_lines: int | None = None) -> str:
    """A real file after a few random edits: lines deleted, duplicated, moved, re-indented,
    snippets and odd characters inserted, truncated, line ends changed."""
    text = draw(st.sampled_from(seeds(max_lines)))
    for _ in range(draw(st.integers(0, 6))):
        lines = text.split("\n")
        kind = draw(st.sampled_from(("delete", "duplicate", "move", "indent", "insert", "insert", "char", "truncate")))
        i = draw(st.integers(0, len(lines) - 1))
        j = min(len(lines), i + draw(st.integers(1, 12)))
        if kind == "delete":
            del lines[i:j]
        elif kind == "duplicate":
            lines[j:j] = lines[i:j]
        elif kind == "move":
            block = lines[i:j]
            del lines[i:j]
            k = draw(st.integers(0, len(lines)))
            lines[k:k] = block
        elif kind == "indent":
            pad = draw(st.sampled_from(("    ", "  ", "\t")))
            lines[i:j] = [pad + line if draw(st.booleans()) else line[len(pad):] for line in lines[i:j]]
        text = "\n".join(lines)
        if kind in ("insert", "char", "truncate"):
            at = draw(st.integers(0, len(text)))
            if kind == "insert":
                text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
            elif kind == "char":
                text = text[:at] + draw(st.characters(codec="utf-8")) + text[at + 1:]
            else:
                text = text[:at]
    if draw(st.integers(0, 3)) == 0:
        text = with_line_ends(text, draw(st.sampled_from(LINE_ENDS)))
    return text


NAMES = ("x", "y", "h", "self.w", "mask")
CONDITIONS = ("x.sum() > 0", "y.max() < 1", "not x.any()", "x.sum() > 0 and y.any()", "flag", "x.shape[0] > 2",
              "x.isnan().any()", "-(-x.mean()) > 0")
SIMPLE = ("y = x * 2", "y = torch.relu(x) + 1", "h = x.item()", "n = int(x.sum())", "print('v', x.item())",
          "print(f'{x.sum()}',\n      y)", "logger.info('a %s',\n            x)", "warnings.warn('w')",
          "assert x.all(), 'neg'", "x = x.clamp(0, 1)  # keep me", "y = x if x.any() else -x", "pass",
          "self.count += 1", "z = [t for t in x]", "x.add_(1)", "del h")


@st.composite
def statements(draw, depth: int = 0) -> list[str]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 9)) if depth < 2 else 0
        if kind < 6:
            out.extend(draw(st.sampled_from(SIMPLE)).split("\n"))
        elif kind < 8:
            out.append(f"if {draw(st.sampled_from(CONDITIONS))}:")
            out.extend("    " + s for s in draw(statements(depth + 1)))
            if draw(st.booleans()):
                out.append("else:")
                out.extend("    " + s for s in draw(statements(depth + 1)))
        elif kind == 8:
            out.append("for i in range(3):")
            out.extend("    " + s for s in draw(statements(depth + 1)))
        else:
            out.append(f"return {draw(st.sampled_from(NAMES))}")
    return out


@st.composite
def program(draw) -> str:
    """A module of compiled functions and modules built from statements that break graphs."""
    parts = ["import logging\nimport warnings\n\nimport torch\nfrom torch import nn\n\nlogger = logging.getLogger(__name__)\n"]
    for n in range(draw(st.integers(1, 3))):
        body = [*draw(statements()), "return x"]
        if draw(st.booleans()):
            head = f"class M{n}(nn.Module):\n    def forward(self, x, y, flag=True):\n"
            parts.append(head + "".join(f"        {line}\n" for line in body))
        else:
            head = f"@torch.compile\ndef f{n}(x, y, flag=True):\n"
            parts.append(head + "".join(f"    {line}\n" for line in body))
    text = "\n\n".join(parts)
    if draw(st.integers(0, 3)) == 0:
        text = with_line_ends(text, draw(st.sampled_from(LINE_ENDS)))
    return text


def sources(max_lines: int | None = None):
    """Any of: a mutant of a real file, a generated program, or random text."""
    return st.one_of(mutant(max_lines), program(), st.text(alphabet=st.sampled_from("if x:()\n\r\t #'\"é\x0cpr=.")))
