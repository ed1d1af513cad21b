# expect: FG411
"""`pack_padded_sequence` is on Dynamo's skip list: packing variable-length sequences for an RNN
breaks the graph at the call. Padding them (`pad_sequence`) traces."""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x, lengths):
        h = self.proj(x)
        padded = pad_sequence([h[0], h[1]], batch_first=True)
        packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)  # <- FG411 GB0007
        return packed.data.sum()


def fullgraph_example():
    return Encoder(), (torch.randn(2, 5, 3), torch.tensor([5, 3])), {}
