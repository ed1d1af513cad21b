"""Inputs made by name and sized from a config (torch only where a tensor is made)."""

import pytest

from fullgraph.confirm.inputs import Input, documented_input, make_input, mask_for
from fullgraph.confirm.tiny_config import Sizes


class Config:
    def __init__(self, **values):
        self.__dict__.update(values)


class Documented:
    def forward(self, past_values, freq=None):
        r"""
        freq (`torch.LongTensor` of shape `(batch_size,)`):
            Frequency indices of the series.
        """


def test_masks_named_after_another_towers_ids_and_over_the_frames_of_a_spectrogram():
    ids = [Input("classes_input_ids", (2, 16), "ids", 128)]
    assert mask_for("classes_attention_mask", ids) == [Input("classes_attention_mask", (2, 16), "mask")]
    made = make_input("input_features", Sizes(Config(num_mel_bins=80, max_source_positions=64)),
                      {"input_features", "input_features_mask"})
    assert [(i.name, i.shape) for i in made] == [("input_features", (2, 80, 128)), ("input_features_mask", (2, 128))]


def test_an_input_no_rule_knows_made_as_the_forward_documents_it():
    made = documented_input("freq", Documented(), Sizes(Config(freq_size=3)))
    assert made == [Input("freq", (2,), "ids", 3)]
    assert documented_input("past_values", Documented(), Sizes(Config())) is None  # not documented
    assert documented_input("freq", None, Sizes(Config())) is None  # no model to read


def test_the_decoders_features_made_like_the_encoders():
    assert make_input("decoder_input_values", Sizes(Config()), set()) == [Input("decoder_input_values", (2, 4000))]


@pytest.mark.torch
def test_patch_positions_on_a_square_grid_row_by_row():
    import torch

    made = make_input("pixel_position_ids", Sizes(Config(pooling_kernel_size=1)), {"pixel_values", "pixel_position_ids"})
    grid = [[0, 0], [1, 0], [0, 1], [1, 1]]
    assert torch.equal(made[0].make(torch), torch.tensor([grid, grid]))
    scope = {"torch": torch}
    exec("\n".join(made[0].source()), scope)  # the example's lines make the same tensor
    assert torch.equal(scope["pixel_position_ids"], torch.tensor([grid, grid]))
