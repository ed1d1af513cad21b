"""Compare the saved outputs of an original and a fixed run (bench venv; torch).

``python compare.py ORIGINAL.pt FIXED.pt`` prints ``{"eager": ..., "compiled": ...}``: for each
mode ``true`` when every output tensor is ``torch.equal`` (NaNs at the same positions count as
equal), else a short reason.
"""

from __future__ import annotations

import json
import sys


def same(a, b) -> bool | str:
    import torch

    if a is None or b is None:
        return "missing" if (a is None) != (b is None) else True
    if len(a) != len(b):
        return f"{len(a)} vs {len(b)} output tensors"
    for i, (x, y) in enumerate(zip(a, b)):
        if x.shape != y.shape or x.dtype != y.dtype:
            return f"output {i}: {tuple(x.shape)} {x.dtype} vs {tuple(y.shape)} {y.dtype}"
        if x.is_floating_point() or x.is_complex():
            nx, ny = torch.isnan(x), torch.isnan(y)
            if not torch.equal(nx, ny) or not torch.equal(torch.where(nx, 0, x), torch.where(ny, 0, y)):
                return f"output {i} differs"
        elif not torch.equal(x, y):
            return f"output {i} differs"
    return True


def main() -> int:
    import torch

    a, b = (torch.load(p, weights_only=False) for p in sys.argv[1:3])
    print(json.dumps({mode: same(a.get(mode), b.get(mode)) for mode in ("eager", "compiled")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
