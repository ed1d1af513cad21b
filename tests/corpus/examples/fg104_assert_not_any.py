# expect: FG104
"""`assert not t.any(), "literal"`: Dynamo lowers an assert by itself only when its test is a
tensor; `not` asks for the truth value first (a metric-learning loss's sanity check)."""
import torch


@torch.compile
def pair_loss(pos_mask: torch.Tensor, neg_mask: torch.Tensor) -> torch.Tensor:
    assert not torch.any((pos_mask != 0) & (neg_mask != 0)), "a pair is either positive or negative"  # <- FG104 GB0170
    return pos_mask.sum() - neg_mask.sum()


def fullgraph_example():
    return pair_loss, (torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])), {}
