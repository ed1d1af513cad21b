"""Other input layouts to try when a synthesized model raised: those the error suggests (a width,
a rank, a length, an input it names), then guessed ones."""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import replace

from .inputs import Input, documented_input, fed_input, make_input, mask_for
from .tiny_config import LARGE_IMAGE, SEQ, Sizes

STRIDE_SUFFIXES = ("_ratios", "_strides", "_stride")  # per-layer downsampling lists (`downsampling_ratios`)
MAX_FOLD = 16  # the largest size a reshape may add to an input (codebooks, channels)


def other_layouts(inputs: list[Input], error: str, size: Sizes, accepted: set, model=None) -> list[list[Input]]:
    """Inputs to try when the first ones raised, from what the error (and the source lines it passed
    through, one per line after its first) says: each reading's layouts, in turn."""
    return [layout for reading in (added_inputs, retyped, matched_sizes, asked_sizes, reshaped_inputs)
            for layout in reading(inputs, error, size, accepted, model)]


def added_inputs(inputs: list[Input], error: str, size: Sizes, accepted: set, model) -> list[list[Input]]:
    """No cache when the cache failed; each input the error names that the forward accepts
    (``exactly one of A or B``: A, then B), then an input whose ``is None`` check in the forward led
    to the error, and an input a forward's ``**kwargs`` pass on to a layer that got None; one no
    rule knows is shaped for the layer a line feeds it to, or as the forward's docstring says."""
    have = {i.name for i in inputs}
    out = []
    if "use_cache" in accepted - have and "cache" in error.lower():
        out.append(inputs + [Input("use_cache", (), "off")])
    named = sorted((m.start(), n) for n in accepted - have if (m := re.search(rf"\b{re.escape(n)}\b", error)))
    lacking = [n for n in (*checked_inputs(error, model, accepted - have), *passed_input(error, model, accepted | have))
               if n not in {m for _, m in named}]
    for n in [*(m for _, m in named), *lacking]:
        made = make_input(n, size, accepted) or mask_for(n, inputs) or fed_input(n, error, model) \
            or documented_input(n, model, size)
        added = [i for i in made or () if i.name not in have]
        if added:
            out.append(inputs + added)
    return out


def retyped(inputs: list[Input], error: str, size: Sizes, accepted: set, model) -> list[list[Input]]:
    """Floats for integer inputs a line computes with as floats; boolean masks where a line wants them."""
    out = []
    if re.search(r"dtype must be either a floating point|same dtype, but got Long and Float|expected scalar type Float but found Long", error):
        floats = [replace(i, kind="float") if i.kind == "ids" and re.search(rf"\b{re.escape(i.name)}\b", error) else i for i in inputs]
        if floats != inputs:  # integers the failing line computes with as floats
            out.append(floats)
    if re.search(r"only supports boolean masks|expected a? ?mask .*Bool|must be a bool", error):
        flags = [replace(i, kind="flags") if i.kind == "mask" else i for i in inputs]
        if flags != inputs:  # masks the failing line wants boolean
            out.append(flags)
    return out


def matched_sizes(inputs: list[Input], error: str, size: Sizes, accepted: set, model) -> list[list[Input]]:
    """Sizes a mismatch names: token sequences of the length of the input they are tied to, features of
    the width the code adds them to (stacked frames), an axis to broadcast a per-sample value over;
    a signal long enough for the convolutions' kernels; images of the size the model names."""
    out = []
    sizes = re.search(r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\)"
                      r"(?: at non-singleton dimension (\d+))?", error)
    for was, now in ((int(sizes[1]), int(sizes[2])), (int(sizes[2]), int(sizes[1]))) if sizes else ():
        if any(i.kind in ("ids", "mask") and i.shape[1:2] == (was,) for i in inputs):  # token sequences tied to another input
            out.append([replace(i, shape=(i.shape[0], now, *i.shape[2:])) if i.kind in ("ids", "mask") and i.shape[1:2] == (was,)
                        else i for i in inputs])
        axis = int(sizes[3]) if sizes[3] else 0
        for k, i in enumerate(inputs):  # features of the width the code adds them to (stacked frames)
            if i.kind == "float" and 0 < axis == len(i.shape) - 1 and i.shape[axis] == was:
                out.append([*inputs[:k], replace(i, shape=(*i.shape[:axis], now)), *inputs[k + 1 :]])
            if i.shape == (was,):  # one value per sample, added to a sequence: an axis to broadcast over
                out.append([*inputs[:k], replace(i, shape=(was, 1)), *inputs[k + 1 :]])
    short = re.search(r"padded input size per channel: \((\d+)\)\. Kernel size: \((\d+)\)", error)
    for k, i in enumerate(inputs if short else ()):  # a signal too short for the convolutions: a few frames of all
        if i.kind == "float" and len(i.shape) > 1:  # the downsampling, or what the kernel lacked
            longer = max(i.shape[-1] * -(-int(short[2]) // int(short[1])), 2 * hop_length(size))
            out.append([*inputs[:k], replace(i, shape=(*i.shape[:-1], longer)), *inputs[k + 1 :]])
    scaled = scaled_images(inputs, error)
    if scaled != inputs:
        out.append(scaled)
    return out


def asked_sizes(inputs: list[Input], error: str, size: Sizes, accepted: set, model) -> list[list[Input]]:
    """Sizes the error asks for: the one a reshape finds missing (codebooks folded into the batch, or
    an axis of their own), an axis rounded up to the multiple it names (``length 4000 is not a
    multiple of 1920``), the width a config size named next to an input's width holds
    (``config.d_model: 32``)."""
    out = []
    reshape = re.search(r"shape '\[([-\d, ]+)\]' is invalid for input of size (\d+)", error)
    for k, i in enumerate(inputs if reshape else ()):  # a reshape names the size an input lacks
        dims = [int(d) for d in reshape[1].split(",")]
        lacking = math.prod(d for d in dims if d > 0 and d not in i.shape)
        if math.prod(i.shape) == int(reshape[2]) and 1 < lacking <= MAX_FOLD:
            out += [[*inputs[:k], replace(i, shape=shape), *inputs[k + 1 :]]
                    for shape in ((i.shape[0] * lacking, *i.shape[1:]), (*i.shape, lacking))]
    multiple = multiple_asked(error)
    if multiple:  # an axis the code wants a multiple of a size: rounded up (its mask too)
        was, step = multiple
        rounded = [replace(i, shape=tuple(-(-d // step) * step if n and d == was else d for n, d in enumerate(i.shape)))
                   for i in inputs]
        out += [rounded] if rounded != inputs else []
    for key in dict.fromkeys(re.findall(r"\bconfig\.(\w+)", error)):  # a config size the error holds an input's width to
        want = size(key, default=0)
        out += [[*inputs[:k], replace(i, shape=(*i.shape[:-1], want)), *inputs[k + 1 :]] for k, i in enumerate(inputs)
                if want and i.kind == "float" and i.shape[-1] != want and re.search(rf"\b{i.shape[-1]}\b", error)]
    return out


def reshaped_inputs(inputs: list[Input], error: str, size: Sizes, accepted: set, model) -> list[list[Input]]:
    """Each input in the shapes the error asks of it: the width a linear or norm layer asked for, the
    rank an unpacking or an axis index asked for, the channels and rank a convolution asked for, an
    axis the error spells out (``5D tensor of shape (batch_size, 2, ...)``)."""
    out = []
    widths = re.search(r"shapes cannot be multiplied \(\d+x(\d+) and (\d+)x\d+\)", error)
    norms = re.search(r"normalized_shape=\[(\d+)\], expected input with shape \[\*, \d+\], but got input of size\s*\[([\d, ]+)\]",
                      error)
    unpack = re.search(r"not enough values to unpack \(expected (\d+), got (\d+)\)", error)
    axis = re.search(r"Dimension out of range \(expected to be in range of \[-(\d+), \d+\], but got (\d+)\)", error)
    ranks = (int(unpack[1]), int(unpack[2])) if unpack else (int(axis[2]) + 1, int(axis[1])) if axis else None
    channels = re.search(r"expected input\[([\d, ]+)\] to have (\d+) channels, but got \d+ channels", error)
    named_shape = re.search(r"(\d)D tensor of shape \(([^)]*)\)", error)
    conv = re.search(r"Expected \dD \(unbatched\) or (\d)D \(batched\) input to conv\dd, but got input of size: \[([\d, ]+)\]", error)
    for k, i in enumerate(inputs):
        shapes = [*_reshaped(i, widths, norms, ranks, channels), *(_conv_ranked(i, conv, size) if conv else ())]
        parts = [p.strip() for p in named_shape[2].split(",")] if named_shape else []
        literal = next((n for n, p in enumerate(parts) if p.isdigit()), None)
        if literal is not None and i.kind == "float" and len(i.shape) + 1 == int(named_shape[1]) == len(parts):
            shapes.append((*i.shape[:literal], int(parts[literal]), *i.shape[literal:]))  # the axis the error spells out
        out += [[*inputs[:k], replace(i, shape=shape), *inputs[k + 1 :]] for shape in shapes]
    return out


def checked_inputs(error: str, model, names: set) -> list[str]:
    """Inputs among ``names`` whose absence the forward raised on: a parameter whose ``if NAME is
    None:`` block holds a line the error passed through (``if lang_ids is None: ... raise``)."""
    try:
        source = inspect.getsource(type(model).forward).splitlines() if model is not None else []
    except (OSError, TypeError):
        return []
    passed = {line.strip() for line in error.splitlines()[1:] if line.strip()}
    found = []
    for n, line in enumerate(source):
        depth = indent(line) if line.strip() in passed else 0
        for above in reversed(source[:n] if depth else ()):  # the blocks that hold the line, innermost first
            if above.strip() and indent(above) < depth:
                depth = indent(above)
                check = re.match(r"\s*(?:el)?if (\w+) is None\b", above)
                found += [check[1]] if check and check[1] in names and check[1] not in found else []
    return found


def indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def passed_input(error: str, model, names: set) -> list[str]:
    """An input a forward that takes ``**kwargs`` passes on to its layers, which one of them got as
    None: the name the outermost line of the error feeds to a layer (``self.ada_rms_norm(t_cond)``)."""
    forward = getattr(type(model), "forward", None) if model is not None else None
    try:
        kinds = [p.kind for p in inspect.signature(forward).parameters.values()] if forward else []
    except (TypeError, ValueError):
        return []
    if inspect.Parameter.VAR_KEYWORD not in kinds or "NoneType" not in error.splitlines()[0]:
        return []
    fed = [name for line in error.splitlines()[1:] for name in re.findall(r"self\.\w+\(\s*(\w+)\s*\)", line)]
    return [fed[-1]] if fed and fed[-1] not in names else []


def multiple_asked(error: str) -> tuple[int, int] | None:
    """(length, size) when an error says a length must be a multiple of a size (``length 4000 is not
    a multiple of 1920``, ``a multiple of `n_window * 2` (100), but got 256``)."""
    found = re.search(r"\b(\d+)\)? (?:is|are) not (?:a multiple of|divisible by)\D{0,40}?(\d+)", error)
    if found:
        was, step = int(found[1]), int(found[2])
    else:
        found = re.search(r"multiple of [^(]*\((\d+)\),? but got (\d+)", error)
        was, step = (int(found[2]), int(found[1])) if found else (0, 0)
    return (was, step) if step > 1 and was % step else None


def _conv_ranked(i: Input, conv, size: Sizes):
    """Input ``i`` of the rank a convolution asked for (``conv``: the batched rank it wants, the
    size it got): without the channel axis the code adds itself, or rows of flattened patches as
    small images (channels x patch x patch)."""
    wanted, seen = int(conv[1]), len(conv[2].split(","))
    patch = size("patch_size", default=14)
    pixels = size("num_channels", "in_channels", default=3) * patch * patch
    if i.kind != "float":
        return
    if seen == wanted + 1 and len(i.shape) == wanted and i.shape[1] == 1:
        yield (i.shape[0], *i.shape[2:])
    elif seen < wanted - 1 and i.shape[-1] == pixels:
        yield (*i.shape[:-1], pixels // patch ** 2, patch, patch)


def _reshaped(i: Input, widths, norms, ranks, channels):
    """Other shapes for input ``i``, from what the error matched: the width a linear or norm layer
    asked for (or features scaled by what it asked over what it got: a subsampling flattened them
    with its channels), a channel axis an unpacking, an axis index or a convolution asked for, the
    number of channels it asked for."""
    if i.kind != "float":
        return
    if widths and len(i.shape) > 1 and i.shape[-1] == int(widths[1]):
        yield (*i.shape[:-1], int(widths[2]))
    elif widths and len(i.shape) > 2 and i.shape[-1] * int(widths[2]) % int(widths[1]) == 0:
        yield (*i.shape[:-1], i.shape[-1] * int(widths[2]) // int(widths[1]))  # features a subsampling flattened
    if norms and tuple(int(d) for d in norms[2].split(",")) == i.shape:
        yield (*i.shape[:-1], int(norms[1]))
    if ranks and ranks[0] == ranks[1] + 1 and len(i.shape) in ranks:  # (rank wanted, rank seen): one axis short
        yield (i.shape[0], 1, *i.shape[1:])  # of the input, or of what the code made of it (images per sample folded)
    if channels:
        seen, want = tuple(int(d) for d in channels[1].split(",")), int(channels[2])
        if len(seen) == len(i.shape) + 1 and seen[:2] == (1, i.shape[0]):  # read unbatched: no channel axis
            yield (i.shape[0], want, *i.shape[1:])
        elif seen == i.shape and len(i.shape) > 2:
            yield (i.shape[0], want, *i.shape[2:])


def scaled_images(inputs: list[Input], error: str) -> list[Input]:
    """``inputs`` with their images scaled by the size the model wants over the size it got
    (``Input image size (1792*448) doesn't match model (896*448)``: the code may join several)."""
    image = re.search(r"[Ii]nput image size \((\d+)\s*[*x]\s*(\d+)\) doesn't match model \((\d+)\s*[*x]\s*(\d+)\)", error)
    if not image:
        return inputs
    got, want = (int(image[1]), int(image[2])), (int(image[3]), int(image[4]))
    out = []
    for i in inputs:
        fits = i.kind == "float" and len(i.shape) > 3 and all(s * w % g == 0 for s, w, g in zip(i.shape[-2:], want, got))
        out.append(replace(i, shape=(*i.shape[:-2], *(s * w // g for s, w, g in zip(i.shape[-2:], want, got)))) if fits else i)
    return out


def hop_length(size: Sizes) -> int:
    """The total downsampling of a signal: the largest product of a config's per-layer strides."""
    lists = [v for c in size.configs for k, v in vars(c).items() if k.endswith(STRIDE_SUFFIXES)
             and isinstance(v, (list, tuple)) and v and all(type(x) is int and x > 0 for x in v)]
    return max((math.prod(v) for v in lists), default=1)


def guessed_layouts(inputs: list[Input], size: Sizes) -> list[list[Input]]:
    """Inputs to try once what the errors say is spent: the frames of a video, time-major audio
    features, larger images, a series with its channel axis, a waveform with its channel axis, a
    spectrogram instead of a waveform (frames of ``max_length`` by ``num_mel_bins``)."""
    frames = size("num_frames", "frames_per_clip", default=0)
    mel = size("num_mel_bins", default=0)
    out = []
    for k, i in enumerate(inputs):
        shapes = []
        if i.kind == "float" and frames and i.name.startswith("pixel_values") and len(i.shape) == 4:
            shapes.append((i.shape[0], frames, *i.shape[1:]))
        if i.kind == "float" and i.name == "input_features" and len(i.shape) == 3:
            shapes.append((i.shape[0], i.shape[2], i.shape[1]))
        if i.kind == "float" and i.name.startswith("pixel_values") and len(i.shape) == 4 and i.shape[-1] < LARGE_IMAGE:
            shapes.append((*i.shape[:2], LARGE_IMAGE, LARGE_IMAGE))
        if i.kind == "float" and i.name in ("past_values", "input_values") and len(i.shape) == 2:
            shapes.append((*i.shape, 1) if i.name == "past_values" else (i.shape[0], 1, i.shape[1]))
        if i.kind == "float" and i.name == "input_values" and len(i.shape) == 2 and mel:
            shapes.append((i.shape[0], size("max_length", default=SEQ * 4), mel))
        out += [[*inputs[:k], replace(i, shape=shape), *inputs[k + 1 :]] for shape in shapes]
    return out


def twinned(inputs: list[Input]) -> list[Input]:
    """``inputs`` with the decoder's features (``decoder_input_values``) in the layout found for the
    encoder's (``input_values``)."""
    shapes = {i.name: i.shape for i in inputs if i.kind == "float"}
    twins = [i.name.removeprefix("decoder_") if i.name.startswith("decoder_") and i.kind == "float" else "" for i in inputs]
    return [replace(i, shape=shapes[t]) if t in shapes else i for i, t in zip(inputs, twins)]
