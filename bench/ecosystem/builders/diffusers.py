"""diffusers: UNets, autoencoders and the transformer-based image/video models, tiny configs.

Variants: ``base`` (eval, fp32), ``fp16`` (model and float inputs in half), ``train`` (train
mode, forward and backward).
"""

from __future__ import annotations

from builders import Case, half_inputs

MODULE = "diffusers"
B = 2


def version() -> str:
    import diffusers

    return diffusers.__version__


def _t(*shape):
    import torch

    return torch.randn(*shape)


def _steps():
    import torch

    return torch.tensor([10, 500])


# model name -> (class name, constructor kwargs, inputs factory)
def specs() -> dict:
    import torch

    return {
        "UNet2DModel": ("UNet2DModel", dict(
            sample_size=16, in_channels=3, out_channels=3, layers_per_block=1, block_out_channels=(16, 32),
            down_block_types=("DownBlock2D", "AttnDownBlock2D"), up_block_types=("AttnUpBlock2D", "UpBlock2D"),
            norm_num_groups=8, attention_head_dim=8),
            lambda: dict(sample=_t(B, 3, 16, 16), timestep=_steps())),
        "UNet2DConditionModel": ("UNet2DConditionModel", dict(
            sample_size=16, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(16, 32),
            down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"), up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
            cross_attention_dim=16, attention_head_dim=8, norm_num_groups=8),
            lambda: dict(sample=_t(B, 4, 16, 16), timestep=_steps(), encoder_hidden_states=_t(B, 6, 16))),
        "UNet3DConditionModel": ("UNet3DConditionModel", dict(
            sample_size=8, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(16, 32),
            down_block_types=("CrossAttnDownBlock3D", "DownBlock3D"), up_block_types=("UpBlock3D", "CrossAttnUpBlock3D"),
            cross_attention_dim=16, attention_head_dim=8, norm_num_groups=8),
            lambda: dict(sample=_t(B, 4, 2, 8, 8), timestep=_steps(), encoder_hidden_states=_t(B, 6, 16))),
        "UNet1DModel": ("UNet1DModel", dict(
            sample_size=32, in_channels=2, out_channels=2, block_out_channels=(16, 32, 32),
            down_block_types=("DownBlock1DNoSkip", "DownBlock1D", "AttnDownBlock1D"),
            up_block_types=("AttnUpBlock1D", "UpBlock1D", "UpBlock1DNoSkip"), mid_block_type="UNetMidBlock1D",
            extra_in_channels=32, use_timestep_embedding=False, flip_sin_to_cos=True, time_embedding_type="fourier"),
            lambda: dict(sample=_t(B, 2, 32), timestep=_steps())),
        "AutoencoderKL": ("AutoencoderKL", dict(
            in_channels=3, out_channels=3, down_block_types=("DownEncoderBlock2D",) * 2,
            up_block_types=("UpDecoderBlock2D",) * 2, block_out_channels=(16, 32), latent_channels=4,
            norm_num_groups=8, sample_size=16),
            lambda: dict(sample=_t(B, 3, 16, 16))),
        "VQModel": ("VQModel", dict(
            in_channels=3, out_channels=3, down_block_types=("DownEncoderBlock2D",) * 2,
            up_block_types=("UpDecoderBlock2D",) * 2, block_out_channels=(16, 32), latent_channels=4,
            norm_num_groups=8, sample_size=16, num_vq_embeddings=32, vq_embed_dim=4),
            lambda: dict(sample=_t(B, 3, 16, 16))),
        "DiTTransformer2DModel": ("DiTTransformer2DModel", dict(
            num_attention_heads=2, attention_head_dim=8, in_channels=4, out_channels=8, num_layers=2,
            sample_size=8, patch_size=2, num_embeds_ada_norm=1000),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), timestep=_steps(), class_labels=torch.tensor([1, 2]))),
        "PixArtTransformer2DModel": ("PixArtTransformer2DModel", dict(
            num_attention_heads=2, attention_head_dim=8, in_channels=4, out_channels=8, num_layers=2,
            sample_size=8, patch_size=2, cross_attention_dim=16, caption_channels=16, use_additional_conditions=False),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps(),
                         added_cond_kwargs={"resolution": None, "aspect_ratio": None})),
        "SD3Transformer2DModel": ("SD3Transformer2DModel", dict(
            sample_size=8, patch_size=2, in_channels=4, num_layers=2, attention_head_dim=8, num_attention_heads=2,
            joint_attention_dim=16, caption_projection_dim=16, pooled_projection_dim=16, out_channels=4,
            pos_embed_max_size=16),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), encoder_hidden_states=_t(B, 6, 16),
                         pooled_projections=_t(B, 16), timestep=_steps())),
        "FluxTransformer2DModel": ("FluxTransformer2DModel", dict(
            patch_size=1, in_channels=4, num_layers=1, num_single_layers=1, attention_head_dim=16,
            num_attention_heads=2, joint_attention_dim=16, pooled_projection_dim=16, axes_dims_rope=(4, 4, 8)),
            lambda: dict(hidden_states=_t(B, 16, 4), encoder_hidden_states=_t(B, 6, 16), pooled_projections=_t(B, 16),
                         timestep=torch.tensor([0.1, 0.5]), img_ids=torch.zeros(16, 3), txt_ids=torch.zeros(6, 3))),
        "HunyuanDiT2DModel": ("HunyuanDiT2DModel", dict(
            sample_size=8, patch_size=2, in_channels=4, num_layers=2, attention_head_dim=8, num_attention_heads=2,
            cross_attention_dim=16, cross_attention_dim_t5=16, pooled_projection_dim=8, hidden_size=16,
            text_len=6, text_len_t5=6, use_style_cond_and_image_meta_size=False),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), timestep=_steps().float(), encoder_hidden_states=_t(B, 6, 16),
                         text_embedding_mask=torch.ones(B, 6), encoder_hidden_states_t5=_t(B, 6, 16),
                         text_embedding_mask_t5=torch.ones(B, 6),
                         image_rotary_emb=(torch.ones(16, 8), torch.zeros(16, 8)))),
        "SanaTransformer2DModel": ("SanaTransformer2DModel", dict(
            in_channels=4, out_channels=4, num_attention_heads=2, attention_head_dim=8, num_layers=2,
            num_cross_attention_heads=2, cross_attention_head_dim=8, cross_attention_dim=16, caption_channels=16,
            sample_size=8, patch_size=1),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps())),
        "AuraFlowTransformer2DModel": ("AuraFlowTransformer2DModel", dict(
            sample_size=8, patch_size=2, in_channels=4, num_mmdit_layers=1, num_single_dit_layers=1,
            attention_head_dim=8, num_attention_heads=2, joint_attention_dim=16, caption_projection_dim=16,
            out_channels=4, pos_embed_max_size=64),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps())),
        "Lumina2Transformer2DModel": ("Lumina2Transformer2DModel", dict(
            sample_size=8, patch_size=2, in_channels=4, hidden_size=16, num_layers=2, num_refiner_layers=1,
            num_attention_heads=2, num_kv_heads=2, multiple_of=8, cap_feat_dim=16, axes_dim_rope=(2, 2, 4),
            axes_lens=(32, 32, 32)),
            lambda: dict(hidden_states=_t(B, 4, 8, 8), timestep=torch.tensor([0.1, 0.5]),
                         encoder_hidden_states=_t(B, 6, 16), encoder_attention_mask=torch.ones(B, 6, dtype=torch.bool))),
        "CogVideoXTransformer3DModel": ("CogVideoXTransformer3DModel", dict(
            num_attention_heads=2, attention_head_dim=8, in_channels=4, out_channels=4, time_embed_dim=4,
            text_embed_dim=16, num_layers=1, sample_width=8, sample_height=8, sample_frames=9, patch_size=2,
            temporal_compression_ratio=4, max_text_seq_length=6),
            lambda: dict(hidden_states=_t(B, 3, 4, 8, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps())),
        "WanTransformer3DModel": ("WanTransformer3DModel", dict(
            patch_size=(1, 2, 2), num_attention_heads=2, attention_head_dim=12, in_channels=4, out_channels=4,
            text_dim=16, freq_dim=32, ffn_dim=32, num_layers=2, cross_attn_norm=True,
            qk_norm="rms_norm_across_heads", rope_max_seq_len=32),
            lambda: dict(hidden_states=_t(B, 4, 2, 8, 8), timestep=_steps(), encoder_hidden_states=_t(B, 6, 16))),
        "LTXVideoTransformer3DModel": ("LTXVideoTransformer3DModel", dict(
            in_channels=8, out_channels=8, patch_size=1, patch_size_t=1, num_attention_heads=2, attention_head_dim=8,
            cross_attention_dim=16, num_layers=1, caption_channels=16),
            lambda: dict(hidden_states=_t(B, 2 * 4 * 4, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps(),
                         encoder_attention_mask=torch.ones(B, 6), num_frames=2, height=4, width=4)),
        "MochiTransformer3DModel": ("MochiTransformer3DModel", dict(
            patch_size=2, num_attention_heads=2, attention_head_dim=8, num_layers=2, pooled_projection_dim=16,
            in_channels=4, out_channels=None, qk_norm="rms_norm", text_embed_dim=16, time_embed_dim=4,
            activation_fn="swiglu", max_sequence_length=16),
            lambda: dict(hidden_states=_t(B, 4, 2, 8, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps(),
                         encoder_attention_mask=torch.ones(B, 6, dtype=torch.bool))),
        "HunyuanVideoTransformer3DModel": ("HunyuanVideoTransformer3DModel", dict(
            in_channels=4, out_channels=4, num_attention_heads=2, attention_head_dim=10, num_layers=1,
            num_single_layers=1, num_refiner_layers=1, patch_size=1, patch_size_t=1, guidance_embeds=True,
            text_embed_dim=16, pooled_projection_dim=8, rope_axes_dim=(2, 4, 4)),
            lambda: dict(hidden_states=_t(B, 4, 1, 8, 8), timestep=_steps(), encoder_hidden_states=_t(B, 6, 16),
                         encoder_attention_mask=torch.ones(B, 6), pooled_projections=_t(B, 8),
                         guidance=torch.tensor([3.0, 3.0]))),
        "LatteTransformer3DModel": ("LatteTransformer3DModel", dict(
            sample_size=8, num_layers=1, patch_size=2, attention_head_dim=8, num_attention_heads=2,
            caption_channels=16, in_channels=4, cross_attention_dim=16, out_channels=8, num_embeds_ada_norm=1000,
            norm_type="ada_norm_single", video_length=2),
            lambda: dict(hidden_states=_t(B, 4, 2, 8, 8), encoder_hidden_states=_t(B, 6, 16), timestep=_steps(),
                         enable_temporal_attentions=True)),
        "PriorTransformer": ("PriorTransformer", dict(
            num_attention_heads=2, attention_head_dim=8, num_layers=2, embedding_dim=16, num_embeddings=4,
            additional_embeddings=4),
            lambda: dict(hidden_states=_t(B, 16), timestep=_steps(), proj_embedding=_t(B, 16),
                         encoder_hidden_states=_t(B, 4, 16), attention_mask=torch.ones(B, 4, dtype=torch.bool))),
    }


def models() -> list[str]:
    return sorted(specs())


def variants(model: str) -> list[str]:
    return ["base", "fp16", "train"]


def build(model: str, variant: str) -> Case:
    import diffusers

    cls_name, config, make_inputs = specs()[model]
    module = getattr(diffusers, cls_name)(**config)
    module.train(variant == "train")
    kwargs = make_inputs()
    if variant == "fp16":
        module = module.half()
        kwargs = half_inputs(kwargs)
    return Case(module, (), kwargs, train=variant == "train")
