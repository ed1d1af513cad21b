"""Source texts the LSP tests open."""

MODEL = '''import torch


@torch.compile
def step(x: torch.Tensor):
    print("step", x.shape)
    if x.sum() > 0:
        x = x * 2
    else:
        x = x - 1
    return x
'''

# The flagged `.item()` comes after an emoji (2 UTF-16 units) and CJK text (1 unit each).
WIDE = '''import torch


@torch.compile
def step(x: torch.Tensor):
    label = "😀 猫の名前"; s = x.item()
    return x * s
'''

CLEAN = '''import torch


@torch.compile
def step(x: torch.Tensor):
    return x * 2
'''
