"""Write `server/fullgraph/analysis/tensor_methods.py`: the callables of `torch.Tensor` in the
installed torch (the engine never imports torch). Run with the interpreter that has torch."""

import sys
from pathlib import Path

import torch

TARGET = Path(__file__).resolve().parent.parent / "server" / "fullgraph" / "analysis" / "tensor_methods.py"


def methods() -> list[str]:
    return sorted(n for n in dir(torch.Tensor) if callable(getattr(torch.Tensor, n, None)))


def render(names: list[str]) -> str:
    lines, line = [], "   "
    for name in names:
        item = f' "{name}",'
        if len(line) + len(item) > 110:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    body = "\n".join(lines)
    return (f'"""The callables of `torch.Tensor` (torch {torch.__version__.split("+")[0]}), written by '
            f'`scripts/tensor_methods.py`:\na method outside this set, called on a value known to be a '
            f'tensor, belongs to a subclass."""\n\nTENSOR_METHODS = frozenset((\n{body}\n))\n')


if __name__ == "__main__":
    TARGET.write_text(render(methods()), encoding="utf-8")
    print(f"{TARGET.name}: {len(methods())} methods", file=sys.stderr)
