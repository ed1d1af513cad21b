# expect: FG105
"""A chained comparison of tensors (an adaptive solver's "is the grid point inside this step")
takes the truth value of the first comparison to go on."""
import torch


@torch.compile
def step_to(t0: torch.Tensor, dt: torch.Tensor, grid: torch.Tensor) -> torch.Tensor:
    next_t = grid[1]
    on_grid = t0 < next_t < t0 + dt  # <- FG105 GB0170
    return t0 + dt * on_grid


def fullgraph_example():
    return step_to, (torch.tensor(0.0), torch.tensor(0.5), torch.tensor([0.0, 0.25, 1.0])), {}
