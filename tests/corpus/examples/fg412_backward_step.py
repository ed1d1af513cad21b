# expect: FG412
"""`loss.backward()` inside a compiled training step."""
import torch
import torch.nn.functional as F


@torch.compile
def step(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    loss = F.mse_loss(x * w, y)
    loss.backward()  # <- FG412 GB0123
    return loss.detach()


def fullgraph_example():
    return step, (torch.randn(4, requires_grad=True), torch.randn(4), torch.randn(4)), {}
