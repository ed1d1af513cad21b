"""How analysis time grows with the file: a generated file of N module classes, each with a tensor
branch and a print (two findings each), analysed in process at growing N.

Prints, per N, the analysis time and the time per class against the smallest N in the same run
(the anchor): flat means linear; a ratio growing with N means some step is quadratic in the
file's size or its number of findings. Usage: python bench/scaling.py [--sizes 250,500,1000,1500]
"""

from __future__ import annotations

import argparse
import time

from fullgraph.config import Config
from fullgraph.engine import analyze_document

BLOCK = ("class Block{i}(nn.Module):\n    def forward(self, x):\n        if x.sum() > 0:\n"
         "            x = x * 2\n        print(x.shape)\n        return torch.relu(x) + {i}\n\n\n")


def generated_model(blocks: int) -> str:
    """A model file of `blocks` module classes, each breaking twice (a tensor `if`, a `print`)."""
    return "import torch\nimport torch.nn as nn\n\n\n" + "".join(BLOCK.format(i=i) for i in range(blocks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="250,500,1000,1500")
    sizes = [int(n) for n in parser.parse_args().sizes.split(",")]
    print("| classes | lines | findings | analysis | per class, against the first size |\n|---:|---:|---:|---:|---:|")
    analyze_document(generated_model(sizes[0]), "generated_model.py", Config())  # imports and first-use caches
    anchor = None
    for n in sizes:
        text = generated_model(n)
        start = time.perf_counter()
        findings = analyze_document(text, "generated_model.py", Config()).findings
        took = time.perf_counter() - start
        anchor = anchor or took / n
        print(f"| {n} | {len(text.splitlines())} | {len(findings)} | {took:.2f} s | {took / n / anchor:.2f}x |",
              flush=True)


if __name__ == "__main__":
    main()
