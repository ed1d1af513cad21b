"""torch's getters of global state that Dynamo does not fold into a constant (torch 2.13.0),
written by `scripts/torch_state_getters.py`: a call of one breaks the graph ("torch.* op returned
non-Tensor", or a skipped function)."""

UNFOLDED_GETTERS = frozenset((
    "torch.get_autocast_cpu_dtype",
    "torch.get_autocast_ipu_dtype",
    "torch.get_autocast_xla_dtype",
    "torch.get_default_device",
    "torch.get_deterministic_debug_mode",
    "torch.get_file_path",
    "torch.get_float32_matmul_precision",
    "torch.get_num_interop_threads",
    "torch.get_num_threads",
    "torch.get_rng_state",
    "torch.is_anomaly_check_nan_enabled",
    "torch.is_anomaly_enabled",
    "torch.is_autocast_ipu_enabled",
    "torch.is_autocast_xla_enabled",
    "torch.is_deterministic_algorithms_warn_only_enabled",
    "torch.is_inference_mode_enabled",
    "torch.is_vulkan_available",
    "torch.is_warn_always_enabled",
))
