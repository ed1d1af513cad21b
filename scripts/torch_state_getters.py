"""Write `server/fullgraph/rules/state_getters.py`: torch's argument-free getters of global state
(`torch.get_*()`, `torch.is_*()`, `torch.are_*()`) that Dynamo does not fold into a constant, found
by compiling a call of each one in the installed torch. Run with the interpreter that has torch."""

import sys
from pathlib import Path

import torch
import torch._dynamo
from torch._dynamo.testing import CompileCounter
from torch._dynamo.utils import counters

TARGET = Path(__file__).resolve().parent.parent / "server" / "fullgraph" / "rules" / "state_getters.py"


def getters() -> list[str]:
    """The getters a call without arguments answers (the others need an argument)."""
    names = []
    for name in sorted(n for n in dir(torch) if n.startswith(("get_", "is_", "are_"))):
        fn = getattr(torch, name)
        try:
            if callable(fn):
                fn()
                names.append(name)
        except Exception:  # needs an argument, or the platform lacks it
            continue
    return names


def breaks(name: str) -> bool:
    """Whether Dynamo breaks (or skips the frame) on a call of ``torch.<name>()``."""
    fn = getattr(torch, name)

    def probe(x):
        return x + 1, fn()

    torch._dynamo.reset()
    counters.clear()
    counter = CompileCounter()
    torch.compile(probe, backend=counter)(torch.ones(2))
    return bool(counters["graph_break"]) or counter.frame_count == 0


def render(names: list[str]) -> str:
    body = "\n".join(f'    "torch.{n}",' for n in names)
    return (f'"""torch\'s getters of global state that Dynamo does not fold into a constant (torch '
            f'{torch.__version__.split("+")[0]}),\nwritten by `scripts/torch_state_getters.py`: a call of one '
            f'breaks the graph ("torch.* op returned\nnon-Tensor", or a skipped function)."""\n\n'
            f'UNFOLDED_GETTERS = frozenset((\n{body}\n))\n')


if __name__ == "__main__":
    found = [n for n in getters() if breaks(n)]
    TARGET.write_text(render(found), encoding="utf-8")
    print(f"{TARGET.name}: {len(found)} getters Dynamo does not fold", file=sys.stderr)
