# expect: FG411
"""`json.dumps` of a config to name a variant: Dynamo cannot make the JSON encoder's class."""
import json

import torch


@torch.compile
def tagged(x: torch.Tensor) -> torch.Tensor:
    tag = json.dumps({"heads": 2}, sort_keys=True)  # <- FG411 GB0156
    return x * len(tag)


def fullgraph_example():
    return tagged, (torch.randn(4),), {}
