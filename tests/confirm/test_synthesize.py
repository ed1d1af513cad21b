"""Confirm without a factory: files inside packages (relative imports) and synthesized sample inputs."""

import pytest

from fullgraph.confirm.client import ConfirmError
from fullgraph.confirm.targets import targets_for

from .conftest import fixture, line_of

pytestmark = pytest.mark.torch

XLM = fixture("tinyhf/models/xlm/modeling_xlm.py")
BERT = fixture("tinyhf/models/bert/modeling_bert.py")
PLAIN = fixture("plain_defaults.py")


def confirm(client, path, target):
    return client.request(targets_for(path, name=target, explicit=True)[0].payload())


def synthesized(client, path, target) -> dict:
    """What confirm synthesized for ``target``, once every input set ran without an error."""
    result = confirm(client, path, target)
    assert not any(r.get("error") for r in result["input_sets"])
    return result["synthesized"]


def test_hf_style_model_in_a_package_with_config_class(client):
    result = confirm(client, XLM, "XLMModel")
    (brk,) = result["breaks"]
    assert brk["gb_id"] == "GB0124"  # Tensor.item()
    assert (brk["frames"][-1]["file"], brk["frames"][-1]["line"]) == (XLM, line_of(XLM, ".item()"))
    assert result["synthesized"]["description"] == (
        "inputs synthesized: input_ids (2, 16) int64, attention_mask (2, 16) int64")
    example = result["synthesized"]["example"]
    assert "config = XLMConfig(emb_dim=32, n_layers=2, n_heads=4, max_position_embeddings=128, vocab_size=128)" in example


def test_hf_style_model_with_annotated_config_is_one_graph(client):
    result = confirm(client, BERT, "BertModel")
    assert result["breaks"] == [] and [r["graphs"] for r in result["input_sets"]] == [1]
    assert "hidden_size=32" in result["synthesized"]["example"]


def test_plain_module_built_from_defaults(client):
    result = confirm(client, PLAIN, "Tower")
    assert result["synthesized"]["description"] == "inputs synthesized: x (2, 8)"
    assert [r["graphs"] for r in result["input_sets"]] == [1]


def test_a_transposed_convolution_first_gets_channels_and_length(client):
    result = confirm(client, PLAIN, "Upsampler")
    assert result["synthesized"]["description"] == "inputs synthesized: latents (2, 4, 32)"
    assert [r["graphs"] for r in result["input_sets"]] == [1]


def test_nothing_to_synthesize_says_what_to_add(client):
    with pytest.raises(ConfirmError) as info:
        confirm(client, PLAIN, "NeedsArgs")
    message = str(info.value)
    assert info.value.kind == "factory" and "Traceback" not in message
    assert "NeedsArgs() needs arguments (dim)" in message
    assert "fullgraph_example_NeedsArgs()" in message and '"plain_defaults.py::NeedsArgs"' in message


def test_a_model_without_forward_is_said_so(client):
    with pytest.raises(ConfirmError) as info:
        confirm(client, SHAPES, "Quantizer")
    assert "Quantizer defines no forward to run" in str(info.value)


def test_written_example_runs_as_the_factory(client, tmp_path):
    """The synthesized factory, written into a copy of the file, is what confirm then runs."""
    example = confirm(client, PLAIN, "Tower")["synthesized"]["example"]
    copy = tmp_path / "plain_defaults.py"
    copy.write_text(open(PLAIN).read() + "\n\n" + example)
    result = confirm(client, str(copy), "Tower")
    assert "synthesized" not in result and [r["graphs"] for r in result["input_sets"]] == [1]


def test_call_site_options_are_applied(client):
    path = fixture("call_site_options.py")
    (target,) = targets_for(path)
    assert target.payload()["compile_options"] == {"dynamic": True}
    assert client.request(target.payload())["recompilations"] == []
    without = client.request({**target.payload(), "compile_options": {}})
    assert [rc["input_set"] for rc in without["recompilations"]] == [1]


def test_fullgraph_true_reports_the_raised_break(client):
    path = fixture("fullgraph_true.py")
    (target,) = targets_for(path)
    result = client.request(target.payload())
    (brk,) = result["breaks"]
    assert brk["frames"][-1]["line"] == line_of(path, 'print("y")')
    assert result["input_sets"][0]["error"] is None


def test_configured_source_folders_are_on_the_worker_path(client, tmp_path):
    from fullgraph.config import load_config

    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helpers_src_demo.py").write_text("def double(x):\n    return x * 2\n")
    (tmp_path / "app").mkdir()
    model = tmp_path / "app" / "model.py"
    model.write_text("import torch\nfrom helpers_src_demo import double\n\n\n"
                     "def fullgraph_example():\n    return double, (torch.ones(2),), {}\n")
    (tmp_path / "pyproject.toml").write_text('[tool.fullgraph.confirm]\nsrc = ["lib"]\n')
    (target,) = targets_for(str(model), config=load_config(str(model)))
    assert target.paths == (str(tmp_path / "lib"),)
    assert [r["graphs"] for r in client.request(target.payload())["input_sets"]] == [1]


SHAPES = fixture("synth_shapes.py")


def test_time_series_input_sized_from_the_config(client):
    result = confirm(client, SHAPES, "SeriesModel")
    assert result["synthesized"]["description"] == "inputs synthesized: past_values (2, 32, 3)"
    assert [r["graphs"] for r in result["input_sets"]] == [1]


def test_code_sized_for_the_default_head_keeps_the_head_size(client):
    """Tiny widths break the rotary split; the fallback keeps 128-wide heads with 4 of them."""
    made = synthesized(client, SHAPES, "RotaryModel")
    assert "RotaryConfig(hidden_size=512, num_attention_heads=4, vocab_size=128)" in made["example"]


@pytest.mark.parametrize("target, inputs", [
    # the inputs the error names, then larger images
    ("PromptedModel", "pixel_values (2, 3, 128, 128), input_ids (2, 16) int64, attention_mask (2, 16) int64"),
    ("EmbedsEncoder", "inputs_embeds (2, 16, 32), attention_mask (2, 16) int64"),  # embeddings as the main input
    # one named input at a time, and the width a linear layer asks for
    ("StackedSpeechModel", "input_ids (2, 16) int64, input_features (2, 64, 320)"),
    # the audio gives 32 frames (128 mel frames, 4 per token): the 16 tokens become 32, as a size mismatch names
    ("StreamingModel", "input_ids (2, 32) int64, attention_mask (2, 32) int64, input_features (2, 8, 128)"),
    # the rank an unpacking asks for, and the channel axis a first convolution asks for
    ("CodecModel", "input_values (2, 1, 4000)"),
    ("WaveModel", "input_values (2, 1, 4000)"),
    # an image size given as [height, width]
    ("GridModel", "pixel_values (2, 3, 48, 40)"),
    # a required mask named after the features, and the width a norm asks for
    ("MaskedAudioEncoder", "input_features (2, 64, 32), input_features_mask (2, 64) int64"),
    # an optional mask the failing line names
    ("LengthsAudioEncoder", "input_features (2, 64, 32), input_features_mask (2, 64) int64"),
    # boxes the error names, as floats once a line averages them; features sized by `visual_feat_dim`
    ("DocumentModel", "input_ids (2, 16) int64, bbox (2, 16, 4), visual_feats (2, 8, 12)"),
    # a video's frames, and an axis the error spells out
    ("ClipModel", "pixel_values (2, 4, 3, 32, 32)"),
    ("MatcherModel", "pixel_values (2, 2, 3, 32, 32)"),
    # patch rows as small images for a convolution; rows of patches with a square grid
    ("ConvPatchTower", "pixel_values (32, 3, 4, 4), grid_thw (2, 3) int64"),
    ("RowsTower", "pixel_values (2, 16, 48), spatial_shapes (2, 2) int64"),
    # the codebooks a reshape finds missing, folded into the batch
    ("CodebookDecoder", "input_ids (8, 16) int64"),
    # inputs named after another tower's or image's (`*_pixel_values`, `*_input_ids`, `*_hidden_states`)
    ("PromptedPairModel", "pixel_values (2, 3, 32, 32), prompt_pixel_values (2, 3, 32, 32), "
                          "qformer_input_ids (2, 16) int64, context_hidden_states (2, 16, 32)"),
    ("ImageGridTower", "hidden_states (32, 1176), image_grid_thw (2, 3) int64"),
])
def test_inputs_found_by_running_the_model(client, target, inputs):
    assert synthesized(client, SHAPES, target)["description"] == "inputs synthesized: " + inputs


def test_widths_tied_in_the_code_keep_the_default_widths(client):
    made = synthesized(client, SHAPES, "LayoutModel")
    assert "LayoutConfig(num_hidden_layers=2, vocab_size=128)" in made["example"]


def test_flattened_patches_with_their_grid(client):
    made = synthesized(client, SHAPES, "PatchTower")
    assert made["description"] == "inputs synthesized: hidden_states (32, 1176), grid_thw (2, 3) int64"
    assert "grid_thw = torch.tensor([[1, 4, 4], [1, 4, 4]])" in made["example"]


def test_a_sub_config_its_parent_completes_is_built_through_the_parent(client):
    made = synthesized(client, SHAPES, "EncoderPart")
    assert "config = PairConfig(encoder={'hidden_size': 32, 'vocab_size': 128}).encoder" in made["example"]


def test_an_unknown_main_input_is_shaped_for_the_first_layer(client):
    """`latents` is no input a rule names: it is shaped for the first Conv; the tiny 32-wide config
    lowers `upsample_groups` (64 does not divide 32) to 1."""
    made = synthesized(client, SHAPES, "LatentDecoder")
    assert made["description"] == "inputs synthesized: latents (2, 32, 32)"
    assert "upsample_groups=1" in made["example"]


def test_a_head_size_left_none_and_no_cache_when_the_cache_fails(client):
    made = synthesized(client, SHAPES, "HybridModel")
    assert made["description"] == (
        "inputs synthesized: input_ids (2, 16) int64, attention_mask (2, 16) int64, use_cache=False")
    assert "head_dim=8" in made["example"] and "    use_cache = False\n" in made["example"]


def test_a_config_is_repaired_as_its_errors_ask(client):
    """`prediction_length` (unset, named by the error) is filled; the code's default rotary sections
    are fitted to the size the split names."""
    made = synthesized(client, SHAPES, "ForecastModel")
    assert "prediction_length=8" in made["example"]
    assert "rope_parameters={'rope_type': 'default', 'mrope_section': [1, 1, 2]}" in made["example"]


def test_sizes_left_unset_and_an_explicit_head_size_the_width_must_hold(client):
    made = synthesized(client, SHAPES, "RouterModel")
    assert ("RouterConfig(hidden_size=512, num_attention_heads=4, n_routed_experts=4, vocab_size=128, "
            "num_experts_per_tok=2, num_key_value_heads=4)") in made["example"]


def test_a_switch_off_an_optional_library_the_environment_lacks(client):
    """The default backbone needs a library that is not installed: the config switch named after it
    is turned off, and the backbone config that comes in its place is shrunk too."""
    made = synthesized(client, SHAPES, "DetectorModel")
    assert ("DetectorConfig(d_model=32, backbone_config={'model_type': 'conv_backbone', 'hidden_sizes': [32, 32]}, "
            "use_fancylib_backbone=False)") in made["example"]


@pytest.mark.parametrize("target, inputs", [
    ("ActionModel", "states (2, 8, 5), actions (2, 8, 3)"),
    ("MelEncoder", "audio_mel (2, 64, 48), audio_mel_mask (2, 64) bool"),
    ("PositionedPatchTower", "pixel_values (2, 16, 48), pixel_position_ids (2, 16, 2) int64"),
    ("SpectrogramModel", "input_values (2, 24, 16)"),
    ("SubsampledAudioEncoder", "input_features (2, 64, 64)"),
    ("StackedFramesEncoder", "input_features (2, 64, 560)"),
])
def test_inputs_shaped_from_what_the_code_does_with_them(client, target, inputs):
    assert synthesized(client, SHAPES, target)["description"] == f"inputs synthesized: {inputs}"
