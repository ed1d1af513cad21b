"""Other input layouts read from the error a run raised (no torch)."""

from fullgraph.confirm.inputs import Input
from fullgraph.confirm.layouts import multiple_asked, other_layouts, twinned
from fullgraph.confirm.tiny_config import Sizes


class Config:
    def __init__(self, **values):
        self.__dict__.update(values)


def layouts(inputs, error, **config):
    return [[(i.name, i.shape) for i in layout]
            for layout in other_layouts(inputs, error, Sizes(Config(**config)), {i.name for i in inputs})]


def test_a_length_rounded_up_to_the_multiple_an_error_asks_for_with_its_mask():
    inputs = [Input("input_features", (2, 128, 256)), Input("input_features_mask", (2, 256), "mask")]
    error = "Qwen3ASREncoder expects `padded_feature_length` to be a multiple of `n_window * 2` (100), but got 256."
    assert [("input_features", (2, 128, 300)), ("input_features_mask", (2, 300))] in layouts(inputs, error)
    assert multiple_asked("`input_values` length 4000 is not a multiple of 1920.") == (4000, 1920)
    assert multiple_asked("length 3840 is not a multiple of 1920") is None  # already one: nothing to round


def test_the_width_a_config_size_named_by_the_error_holds():
    error = "Last dimension of the inputs: 1280 doesn't correspond to config.d_model: 32."
    assert [("inputs", (2, 32))] in layouts([Input("inputs", (2, 1280))], error, d_model=32)


def test_a_per_sample_value_gets_an_axis_to_broadcast_over():
    inputs = [Input("past_values", (2, 128)), Input("freq", (2,), "ids", 3)]
    error = "The size of tensor a (2) must match the size of tensor b (32) at non-singleton dimension 1"
    assert [("past_values", (2, 128)), ("freq", (2, 1))] in layouts(inputs, error)


def test_a_signal_lengthened_for_the_kernels_and_the_downsampling():
    error = "Calculated padded input size per channel: (7). Kernel size: (10). Kernel size can't be greater"
    assert [("hidden_states", (2, 1, 640))] in layouts([Input("hidden_states", (2, 1, 32))], error,
                                                          downsampling_ratios=[2, 4, 5, 8])


def test_images_scaled_to_the_size_the_model_names():
    error = "Input image size (1792*448) doesn't match model (896*448)."
    assert [("pixel_values", (2, 3, 448, 448))] in layouts([Input("pixel_values", (2, 3, 896, 448))], error)


def test_the_decoders_features_kept_in_the_layout_found_for_the_encoders():
    inputs = [Input("input_values", (2, 1, 32)), Input("decoder_input_values", (2, 4000))]
    assert [i.shape for i in twinned(inputs)] == [(2, 1, 32), (2, 1, 32)]


class Layer:
    in_features = 7


class Block:
    def modules(self):
        return [self, Layer()]


class Checked:
    def forward(self, input_ids, lang_ids=None, **kwargs):
        r"""
        lang_ids (`torch.LongTensor` of shape `(batch_size,)`):
            The language of each sample.
        """
        if lang_ids is None:
            raise ValueError("Input language unknown")
        return self.norm(kwargs["t_cond"])

    def named_modules(self):
        return [("norm", Block())]


def test_an_input_whose_none_check_raised_or_that_kwargs_pass_on_to_a_layer():
    model, inputs = Checked(), [Input("input_ids", (2, 16), "ids", 128)]
    found = other_layouts(inputs, 'ValueError: Input language unknown\nraise ValueError("Input language unknown")',
                          Sizes(Config()), {"input_ids", "lang_ids"}, model)
    assert [i.name for i in found[0]] == ["input_ids", "lang_ids"]
    error = "TypeError: linear(): argument 'input' (position 1) must be Tensor, not NoneType\nreturn self.norm(t_cond)"
    found = other_layouts(inputs, error, Sizes(Config()), {"input_ids", "lang_ids"}, model)
    assert [(i.name, i.shape) for i in found[0]] == [("input_ids", (2, 16)), ("t_cond", (2, 8, 7))]
