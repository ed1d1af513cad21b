"""pytorch-metric-learning: what a training step compiles, every loss of ``losses`` called as
``loss(embeddings, labels)`` and every miner of ``miners`` called as ``miner(embeddings, labels)``
(one name per class), with defaults and once per constructor option that defaults to off, turned on
(``swap``, ``smooth_loss``, ``learn_beta``), once with ``collect_stats`` (the package's global
``COLLECT_STATS``, False: every loss, miner, distance and reducer built after it records statistics),
and, for each loss that accepts mined indices, once after ``MultiSimilarityMiner`` as the package's
example does (``loss(embeddings, labels, miner(embeddings, labels))``, ``Loss+MultiSimilarityMiner``).

Required arguments, and those left None, are given by name: 4 classes, width 8, ``RankedListLoss``'s
margin 0.4 and Tn 1; ``ManifoldLoss`` gets 4 proxies (its 50 are more than the batch). The wrappers
wrap ``TripletMarginLoss`` (``MultipleLosses``: it and ``ContrastiveLoss``). Left out: the base
classes, ``GenericPairLoss`` (it needs a loss function) and ``EmbeddingsAlreadyPackagedAsTriplets``
(it needs a batch in multiples of 3). Inputs: 16 embeddings of width 8, labels 0-3 four times each,
grouped by class as ``MPerClassSampler`` gives them (``SmoothAPLoss`` requires it); a loss that takes
no labels is called on the first argument tuple it accepts: the embeddings and a second view of them
(``SelfSupervisedLoss``, ``VICRegLoss``), or the embeddings alone (``ManifoldLoss``). Variants:
``base`` (eval, embeddings without gradients) and, for losses, ``train`` (forward and backward);
miners run under ``no_grad``. Before every call the tensors a module keeps from the last one are
detached (``DynamicSoftMarginLoss``'s histogram holds the last batch's graph: a second training
step fails even eagerly).
"""

from __future__ import annotations

import inspect

from builders import Case, first_accepted, module_classes, off_options, sized, turned_on

MODULE = "pytorch_metric_learning"
SIZES = {"num_classes": 4, "embedding_size": 8, "l": 8, "descriptors_dim": 8, "margin": 0.4, "Tn": 1.0}
SMALLER = {"ManifoldLoss": {"K": 4}}
LEFT_OUT = ("EmbeddingsAlreadyPackagedAsTriplets",)
MINER = "MultiSimilarityMiner"
STATS = "collect_stats"
NO_MINER = ("InstanceLoss", "ManifoldLoss", "P2SGradLoss", "PNPLoss", "RankedListLoss",
            "SelfSupervisedLoss", "VICRegLoss")  # they reject mined indices (or labels)
N, WIDTH, CLASSES = 16, 8, 4


def version() -> str:
    import pytorch_metric_learning

    return pytorch_metric_learning.__version__


def known() -> dict:
    """The sizes, and the losses a wrapper takes."""
    from pytorch_metric_learning.losses import ContrastiveLoss, TripletMarginLoss

    return dict(SIZES, loss=TripletMarginLoss(), losses=[TripletMarginLoss(), ContrastiveLoss()])


def classes() -> dict:
    from pytorch_metric_learning import losses, miners

    sizes = known()
    return module_classes((losses, miners), lambda name, cls: not name.startswith("Base")
                          and name not in LEFT_OUT and sized(cls, sizes) is not None)


def is_miner(cls) -> bool:
    from pytorch_metric_learning.miners import BaseMiner

    return issubclass(cls, BaseMiner)


def options(cls) -> list[str]:
    """The constructor's options that default to off, then the global ``collect_stats``."""
    return [*off_options((p.name, p.default) for p in inspect.signature(cls.__init__).parameters.values()),
            STATS]


def models() -> list[str]:
    out = []
    for name, cls in classes().items():
        out += [name, *(f"{name}+{o}" for o in options(cls))]
        if not is_miner(cls) and name not in NO_MINER:
            out.append(f"{name}+{MINER}")
    return sorted(out)


def variants(model: str) -> list[str]:
    return ["base"] if is_miner(classes()[model.partition("+")[0]]) else ["base", "train"]


def construct_named(name: str, option: str = ""):
    """The class ``name`` built with the known sizes (its base's too when it passes ``*args`` on to
    it: ``CosFaceLoss``, ``SubCenterArcFaceLoss``), and the constructor ``option`` turned on."""
    cls = classes()[name]
    sizes = known()
    kwargs = dict(sized(cls, sizes), **SMALLER.get(name, {}))
    if any(p.kind == p.VAR_POSITIONAL for p in inspect.signature(cls.__init__).parameters.values()):
        kwargs = dict(sized(cls.__mro__[1], sizes), **kwargs)
    kwargs.update([turned_on(option)] if option else [])
    return cls(**kwargs)


def inputs(train: bool) -> tuple:
    """Embeddings, labels grouped by class, a second view of the embeddings."""
    import torch

    embeddings = torch.randn(N, WIDTH, requires_grad=train)
    view = (embeddings + 0.5 * torch.randn(N, WIDTH)).detach().requires_grad_(train)
    return embeddings, torch.arange(CLASSES).repeat_interleave(N // CLASSES), view


def detacher(module):
    """A reset that detaches the tensor attributes of ``module`` and its children."""
    import torch

    def reset():
        for child in module.modules():
            for key, value in list(vars(child).items()):
                if isinstance(value, torch.Tensor) and value.grad_fn is not None:
                    setattr(child, key, value.detach())

    return reset


def build(model: str, variant: str) -> Case:
    from pytorch_metric_learning.utils import common_functions

    name, _, option = model.partition("+")
    train = variant == "train"
    common_functions.COLLECT_STATS = option == STATS
    embeddings, labels, view = inputs(train)
    if option == MINER:
        loss, miner = construct_named(name), construct_named(MINER)
        loss.train(train)
        miner.train(train)

        def step(embeddings, labels):
            return loss(embeddings, labels, miner(embeddings, labels))

        return Case(step, (embeddings, labels), {}, train=train, reset=detacher(loss))
    candidates = [(embeddings, labels), (embeddings, view), (embeddings, None, None, view), (embeddings,)]
    module = construct_named(name, "" if option == STATS else option)
    case = first_accepted(module, candidates, model, train)
    case.reset = detacher(module)
    return case
