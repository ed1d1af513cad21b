"""torchmetrics: every metric class of ``torchmetrics.classification`` and
``torchmetrics.regression`` (the task wrappers such as ``Accuracy(task=...)`` are left out: they
build the task classes listed here), called as a module: ``metric(preds, target)`` runs its
``forward`` (update the state, compute the batch value), what a training step that logs metrics
compiles.

Required arguments, and those left None, are given by name (3 classes or labels, thresholds and targets of 0.5, beta 1,
2 groups). Inputs are chosen by running the metric once eagerly on candidate inputs, in order,
and keeping the first it accepts: for ``Binary*`` probabilities and 0/1 targets, ``Multiclass*``
class probabilities and class targets, ``Multilabel*`` probabilities and 0/1 label targets, all for
16 samples; then (regression) two vectors of 16 normal values, of 16 values in (0, 1), two 16x3
matrices. Variant: ``base`` only (metrics have no training mode and no backward).
"""

from __future__ import annotations

import inspect

from builders import Case, construct, first_accepted, module_classes, sized

MODULE = "torchmetrics"
REQUIRED = {"num_classes": 3, "num_labels": 3, "beta": 1.0, "min_recall": 0.5, "min_precision": 0.5,
            "min_specificity": 0.5, "min_sensitivity": 0.5, "num_groups": 2, "threshold": 0.5, "p": 2}
N, K = 16, 3


def version() -> str:
    import torchmetrics

    return torchmetrics.__version__


def buildable(cls) -> dict | None:
    """The arguments to build a metric with; None for a task wrapper or an unknown required one."""
    if any(p.name == "task" for p in inspect.signature(cls).parameters.values()):
        return None
    return sized(cls, REQUIRED)


def classes() -> dict:
    import torchmetrics.classification as classification
    import torchmetrics.regression as regression

    return module_classes((classification, regression),
                          lambda name, cls: not name.startswith("_") and buildable(cls) is not None)


def models() -> list[str]:
    return sorted(classes())


def variants(model: str) -> list[str]:
    return ["base"]


def candidates(model: str) -> list[tuple]:
    import torch

    if model.startswith("Binary"):
        return [(torch.rand(N), torch.randint(0, 2, (N,)))]
    if model.startswith("Multiclass"):
        return [(torch.randn(N, K).softmax(-1), torch.randint(0, K, (N,)))]
    if model.startswith("Multilabel"):
        return [(torch.rand(N, K), torch.randint(0, 2, (N, K)))]
    return [(torch.randn(N), torch.randn(N)), (torch.rand(N), torch.rand(N)), (torch.randn(N, K), torch.randn(N, K))]


def build(model: str, variant: str) -> Case:
    cls = classes()[model]
    metric, _ = construct(cls, buildable(cls), REQUIRED)
    return first_accepted(metric, candidates(model), model, train=False)
