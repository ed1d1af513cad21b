"""Shrinking a config by key name and repairing it as errors ask (no torch): widths, layers and the
lists that follow them, rope sections, keys a default leaves unset."""

from fullgraph.confirm.tiny_config import first_of_each, fit_sections, repairs, shrunk


class Config:
    def __init__(self, **values):
        self.__dict__.update(values)

    def to_dict(self):
        return dict(vars(self))


def test_widths_layers_heads_vocab_and_token_ids():
    config = Config(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                    vocab_size=32000, eos_token_id=31999, pad_token_id=0, max_position_embeddings=4096,
                    use_cache=True)
    assert shrunk(config) == {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
                              "num_key_value_heads": 2, "max_position_embeddings": 128, "vocab_size": 128,
                              "eos_token_id": 125}


def test_per_layer_lists_keep_one_layer_of_each_kind():
    config = Config(num_hidden_layers=6, layer_types=["linear", "linear", "linear", "full", "linear", "full"])
    assert shrunk(config)["layer_types"] == ["linear", "full"]
    assert first_of_each(["a", "a", "a"], 2) == ["a", "a"]


def test_rope_sections_follow_the_head_size():
    config = Config(hidden_size=4096, num_attention_heads=64, rope_parameters={"mrope_section": [8, 12, 12]})
    assert shrunk(config)["rope_parameters"] == {"mrope_section": [1, 1, 2]}  # head size 8: sections add up to 4
    assert fit_sections([16, 24, 24], 32) == [8, 12, 12]


def test_sub_configs_are_shrunk_as_dicts():
    config = Config(text_config=Config(hidden_size=1024, num_hidden_layers=24), vision_config=None)
    assert shrunk(config) == {"text_config": {"hidden_size": 32, "num_hidden_layers": 2}}


def test_per_layer_dicts_and_per_stage_heads():
    config = Config(num_hidden_layers=30, per_layer_config={5: "a", 1: "b"}, hidden_sizes=[64, 128, 320, 512],
                    num_attention_heads=[1, 2, 5, 8])
    out = shrunk(config)
    assert out["per_layer_config"] == {1: "b"} and out["num_attention_heads"] == [1, 2, 2, 2]
    assert out["hidden_sizes"] == [32, 32, 32, 32]


def test_a_cycle_of_layer_kinds_puts_each_kind_first():
    config = Config(num_hidden_layers=26, block_types=["recurrent", "recurrent", "attention"],
                    out_features=["stage1", "stage2"])
    out = shrunk(config)
    assert out["block_types"] == ["recurrent", "attention", "recurrent"] and "out_features" not in out


def test_every_special_token_id_below_the_vocabulary():
    config = Config(vocab_size=32000, eos_token_id=2, blank_token_id=23862, image_token_index=32001)
    out = shrunk(config)
    assert out["vocab_size"] == 128 and "eos_token_id" not in out
    assert {out["blank_token_id"], out["image_token_index"]} == {119, 118}


def test_every_nested_config_is_shrunk():
    config = Config(adaptor_config=Config(hidden_size=1024), text_config=Config(hidden_size=1024))
    assert shrunk(config) == {"adaptor_config": {"hidden_size": 32}, "text_config": {"hidden_size": 32}}


def test_head_size_kept_on_request():
    config = Config(hidden_size=4096, num_attention_heads=32, text_config=Config(hidden_size=2048, num_attention_heads=8))
    assert shrunk(config, widths="head") == {"hidden_size": 512, "num_attention_heads": 4,
                                              "text_config": {"hidden_size": 1024, "num_attention_heads": 4}}


def test_rope_sections_follow_the_rotated_part_of_the_head():
    config = Config(hidden_size=4096, num_attention_heads=32, head_dim=32,
                    rope_parameters={"mrope_section": [8, 12, 12], "partial_rotary_factor": 0.5})
    assert shrunk(config)["rope_parameters"]["mrope_section"] == [2, 3, 3]


def test_kept_widths_shrink_only_depth_vocabulary_and_images():
    config = Config(hidden_size=768, num_attention_heads=12, num_key_value_heads=4, intermediate_size=3072,
                    num_hidden_layers=12, vocab_size=30000, image_size=448, patch_size=14)
    assert shrunk(config, widths="keep") == {"num_hidden_layers": 2, "vocab_size": 128, "image_size": 128}


class Backbone(Config):
    def __init__(self, hidden_size=4096, num_hidden_layers=32, out_features=("stage32",), **kwargs):
        super().__init__(hidden_size=hidden_size, num_hidden_layers=num_hidden_layers, out_features=list(out_features),
                         **kwargs)


def test_a_nested_config_keeps_what_its_parent_chose():
    """A sub-config rebuilt from overrides alone would take its class's defaults (4096 wide)."""
    config = Config(backbone_config=Backbone(hidden_size=1024, num_hidden_layers=12, out_features=["stage3", "stage12"]))
    assert shrunk(config, widths="keep") == {"backbone_config": {"hidden_size": 1024, "num_hidden_layers": 2,
                                                                 "out_features": ["stage2"]}}


def test_backbone_stages_handed_on_stay_among_the_layers_left():
    config = Config(num_hidden_layers=12, out_indices=[1, 4, 12], out_features=["stage1", "stage4", "stage12"])
    out = shrunk(config)
    assert out["out_indices"] == [1, 2] and out["out_features"] == ["stage1", "stage2"]


def test_every_group_count_is_lowered_to_one_unless_widths_are_kept():
    config = Config(hidden_size=512, num_groups=32, upsample_groups=512, num_conv_pos_embedding_groups=16)
    out = shrunk(config)
    assert (out["num_groups"], out["upsample_groups"], out["num_conv_pos_embedding_groups"]) == (1, 1, 1)
    assert "upsample_groups" not in shrunk(config, "keep")


def test_a_head_size_the_default_leaves_none_is_filled():
    config = Config(hidden_size=4096, num_attention_heads=32, head_dim=None)
    assert shrunk(config)["head_dim"] == 8
    assert "head_dim" not in shrunk(Config(hidden_size=4096, num_attention_heads=32, head_dim=128))


def test_a_part_width_named_like_hidden_size_shrinks_with_the_others():
    """sam3's `fpn_hidden_size` (256) fed a 32-wide layer norm until `*_hidden_size` keys shrank too."""
    config = Config(hidden_size=256, fpn_hidden_size=256, vision_hidden_size=24)
    out = shrunk(config)
    assert (out["hidden_size"], out["fpn_hidden_size"]) == (32, 32) and "vision_hidden_size" not in out
    assert "fpn_hidden_size" not in shrunk(config, "keep")


def test_sizes_the_default_leaves_unset_are_filled():
    """A vocabulary, feed-forward width, expert counts and key-value heads left None are sizes the
    model reads (ESM's vocabulary, DeepSeek-V2's experts per token, Nemotron's key-value heads)."""
    config = Config(hidden_size=1024, num_attention_heads=16, num_key_value_heads=None, vocab_size=None,
                    pad_token_id=None, moe_intermediate_size=None, n_routed_experts=None, n_shared_experts=None,
                    num_experts_per_tok=None, topk_group=None, num_queries=300)
    out = shrunk(config)
    assert {k: out[k] for k in ("vocab_size", "pad_token_id", "moe_intermediate_size", "n_routed_experts",
                                "n_shared_experts", "num_experts_per_tok", "topk_group", "num_key_value_heads",
                                "num_queries")} == {
        "vocab_size": 128, "pad_token_id": 1, "moe_intermediate_size": 64, "n_routed_experts": 4,
        "n_shared_experts": 1, "num_experts_per_tok": 2, "topk_group": 1, "num_key_value_heads": 4,
        "num_queries": 8}
    assert "pad_token_id" not in shrunk(Config(vocab_size=32000, pad_token_id=None))  # no padding is a choice


def test_repairs_an_error_asks_for():
    config = Config(prediction_length=None, context_length=None, rope_parameters={"rope_type": "default"},
                    text_config=Config(sliding_window=None))
    error = ("split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension -1), "
             "but got split_sizes=[8, 12, 12]\nThe `prediction_length` config needs to be specified.")
    assert repairs(error, config) == {"rope_parameters": {"rope_type": "default", "mrope_section": [1, 1, 2]},
                                      "prediction_length": 8}
    assert repairs("Could not find a `sliding_window` argument in the config", config) == {
        "text_config": {"sliding_window": 8}}
    assert repairs("`context_size` is wrong", config) == {}  # not a key the config leaves unset


def test_a_stage_count_is_no_layer_count():
    """Swin-style configs: `num_layers = len(depths)` counts stages, whose per-stage lists stay whole."""
    config = Config(depths=[2, 2, 6, 2], num_layers=4, pretrained_window_sizes=[0, 0, 0, 0], embed_dim=96)
    out = shrunk(config)
    assert out["depths"] == [1, 1, 1, 1] and "num_layers" not in out and "pretrained_window_sizes" not in out


class SharedConfig(Config):
    """Its last `num_kv_shared_layers` layers reuse earlier caches."""

    def first_shared(self):
        return self.num_hidden_layers - self.num_kv_shared_layers


def test_counts_of_a_kind_of_layer_follow_the_layer_count():
    """One sparse layer beside a dense one (a count of a kind); the last shared layers scaled with
    the stack (a count the class subtracts from the layer count), so the first layers stay."""
    out = shrunk(Config(num_layers=12, num_sparse_encoder_layers=3, num_mtp_layers=1))
    assert out["num_sparse_encoder_layers"] == 1 and "num_mtp_layers" not in out
    out = shrunk(SharedConfig(num_hidden_layers=35, num_kv_shared_layers=15))
    assert out == {"num_hidden_layers": 2, "num_kv_shared_layers": 0}
    assert "num_sparse_encoder_layers" not in shrunk(Config(num_sparse_encoder_layers=3))  # no layers cut


def test_widths_named_after_another_part_and_adapter_ends_that_match_a_width():
    config = Config(hidden_size=1024, hidden_size_global=2048, adapter_in_dim=2048, adapter_out_dim=1024,
                    vision_config=Config(hidden_size=2048), feature_out_dim=7)
    out = shrunk(config)
    assert {k: out[k] for k in ("hidden_size", "hidden_size_global", "adapter_in_dim", "adapter_out_dim")} == {
        "hidden_size": 32, "hidden_size_global": 32, "adapter_in_dim": 32, "adapter_out_dim": 32}
    assert "feature_out_dim" not in out  # not a width the model has


def test_special_tokens_left_unset_get_free_ids_when_ids_were_compared_with_none():
    config = Config(vocab_size=128, image_token_index=None, video_token_id=None, pad_token_id=None,
                    boi_token_id=127)
    assert repairs("AttributeError: 'bool' object has no attribute 'unsqueeze'", config) == {
        "image_token_index": 126, "video_token_id": 125}


def test_feature_layer_indices_index_the_layers_left():
    out = shrunk(Config(num_hidden_layers=24, vision_feature_layer=[24, 18], text_feature_layer=-2))
    assert out["vision_feature_layer"] == [1, 0] and "text_feature_layer" not in out


def test_repairs_for_keys_a_default_config_leaves_unset_or_its_class_lacks():
    class OwnConfig(Config):
        pass

    config = OwnConfig(num_hidden_layers=2, num_attention_heads=4, layer_types=None, vocab_size=128,
                       image_token_id=127)
    assert repairs("TypeError: 'NoneType' object is not subscriptable", config) == {
        "layer_types": ["full_attention", "full_attention"]}
    assert repairs("AttributeError: 'OwnConfig' object has no attribute 'num_key_value_heads'", config) == {
        "num_key_value_heads": 4}
    assert repairs("AttributeError: 'OwnConfig' object has no attribute 'vision_start_token_id'", config) == {
        "vision_start_token_id": 126}
    assert repairs("AttributeError: 'OtherConfig' object has no attribute 'num_key_value_heads'", config) == {}


def test_windowed_images_keep_a_whole_window_in_the_last_stage():
    out = shrunk(Config(image_size=224, patch_size=4, window_size=7, depths=[2, 2, 6, 2], embed_dim=96))
    assert out["image_size"] == 224 and "patch_size" not in out  # 7-patch windows after three halvings
    assert shrunk(Config(image_size=224, patch_size=16))["image_size"] == 32


def test_a_count_of_layers_that_per_layer_lists_match_stays():
    """`num_feat_extract_layers` must equal `len(conv_dim)`, and those lists are not cut."""
    out = shrunk(Config(num_hidden_layers=12, num_feat_extract_layers=7, conv_dim=[512] * 7, conv_stride=[5] + [2] * 6))
    assert "num_feat_extract_layers" not in out


def test_a_width_the_config_works_out_itself_is_left_to_it():
    class DerivedConfig(Config):
        attention_hidden_size = None  # the class leaves it unset: the config makes it 2 * hidden_size

    out = shrunk(DerivedConfig(hidden_size=1024, attention_hidden_size=2048, mamba_hidden_size=1024))
    assert out["hidden_size"] == 32 and out["mamba_hidden_size"] == 32 and "attention_hidden_size" not in out


def test_rotary_sections_a_rope_dict_lacks_and_layers_doubled_for_tied_weights():
    config = Config(hidden_size=32, num_attention_heads=4, rope_parameters={"rope_type": "default"},
                    num_hidden_layers=2, layer_types=["mamba", "hybrid"])
    error = "TypeError: object of type 'NoneType' has no len()\nsection = len(self.mrope_section)"
    assert repairs(error, config) == {"rope_parameters": {"rope_type": "default", "mrope_section": [1, 1, 2]}}
    assert repairs("ValueError: There is an issue with your definition of `tie_weights_keys`", config) == {
        "num_hidden_layers": 4, "layer_types": ["mamba", "hybrid", "mamba", "hybrid"]}
