"""pyro-ppl: its neural-network modules, normalizing-flow transforms, Gaussian-process models and
ELBO losses of a small Bayesian regression with each autoguide (chosen over gpytorch: pyro runs on
CPU torch 2.13 with no extra dependency, and its ELBOs exercise the effect-handler machinery).

Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

from builders import Case

MODULE = "pyro"
DIM, N = 4, 16
TRANSFORMS = ("affine_autoregressive", "affine_coupling", "batchnorm", "block_autoregressive",
              "conditional_affine_autoregressive", "householder", "matrix_exponential", "neural_autoregressive", "planar", "polynomial",
              "radial", "spline", "spline_autoregressive", "spline_coupling", "sylvester")
KERNELS = ("RBF", "Matern32", "Matern52", "Exponential", "RationalQuadratic", "Periodic", "Cosine",
           "Linear", "Polynomial", "WhiteNoise")
GP_MODELS = ("GPRegression", "SparseGPRegression", "VariationalGP", "VariationalSparseGP")
NETS = ("AutoRegressiveNN", "ConditionalAutoRegressiveNN", "DenseNN", "ConditionalDenseNN")
GUIDES = ("AutoNormal", "AutoDiagonalNormal", "AutoMultivariateNormal", "AutoLowRankMultivariateNormal", "AutoDelta")
ELBOS = ("Trace_ELBO", "TraceMeanField_ELBO")


def version() -> str:
    import pyro

    return pyro.__version__


def models() -> list[str]:
    names = [f"nn.{n}" for n in NETS] + [f"transform.{t}" for t in TRANSFORMS]
    names += [f"gp.{m}" for m in GP_MODELS] + [f"kernel.{k}" for k in KERNELS]
    names += [f"elbo.Trace_ELBO.{g}" for g in GUIDES] + [f"elbo.{e}.AutoNormal" for e in ELBOS[1:]]
    return names


def variants(model: str) -> list[str]:
    return ["base", "train"]




def build(model: str, variant: str) -> Case:
    import pyro
    import torch

    pyro.clear_param_store()
    pyro.set_rng_seed(0)
    kind, _, name = model.partition(".")
    train = variant == "train"
    if kind == "nn":
        module, fn, args = net(name)
    elif kind == "transform":
        module, fn, args = transform(name)
    elif kind == "gp":
        module, fn, args = gp_model(name)
    elif kind == "kernel":
        module, fn, args = kernel(name)
    else:
        module, fn, args = elbo(*name.split("."))
    if isinstance(module, torch.nn.Module):
        module.train(train)
    reset = (lambda: clear_cache(module)) if isinstance(module, torch.nn.Module) else None
    return Case(fn, args, {}, train=train, reset=reset)


def net(name):
    import torch
    from pyro.nn import AutoRegressiveNN, ConditionalAutoRegressiveNN, ConditionalDenseNN, DenseNN

    x, ctx = torch.randn(N, DIM), torch.randn(N, 3)
    if name == "AutoRegressiveNN":
        m = AutoRegressiveNN(DIM, [8, 8])
        return m, m, (x,)
    if name == "ConditionalAutoRegressiveNN":
        m = ConditionalAutoRegressiveNN(DIM, 3, [8, 8])
        return m, m, (x, ctx)
    if name == "DenseNN":
        m = DenseNN(DIM, [8, 8], param_dims=[1, 1])
        return m, m, (x,)
    m = ConditionalDenseNN(DIM, 3, [8, 8], param_dims=[1, 1])
    return m, m, (x, ctx)


def transform(name):
    import pyro.distributions as dist
    import torch
    from pyro.distributions import transforms as T

    t = getattr(T, name)(DIM, 3) if name.startswith("conditional") else getattr(T, name)(DIM)
    base = dist.Normal(torch.zeros(DIM), torch.ones(DIM)).to_event(1)
    x, ctx = torch.randn(N, DIM), torch.randn(N, 3)

    def log_prob(x, ctx):
        chosen = t.condition(ctx) if hasattr(t, "condition") else t
        flow = dist.TransformedDistribution(base, [chosen])
        y = chosen(x)
        return flow.log_prob(y), y

    return t, log_prob, (x, ctx)


def clear_cache(module) -> None:
    """Forget the (x, y) pair a cached transform keeps, so every run computes it again."""
    for m in module.modules():
        if hasattr(m, "_cached_x_y"):
            m._cached_x_y = None, None


def data():
    import torch

    X = torch.linspace(-2, 2, N)[:, None].repeat(1, 2)
    return X, torch.sin(X[:, 0]) + 0.1 * torch.randn(N)


def gp_model(name):
    import torch
    from pyro.contrib import gp

    X, y = data()
    k = gp.kernels.RBF(input_dim=2)
    if name == "GPRegression":
        m = gp.models.GPRegression(X, y, k)
    elif name == "SparseGPRegression":
        m = gp.models.SparseGPRegression(X, y, k, Xu=X[::4].clone())
    elif name == "VariationalGP":
        m = gp.models.VariationalGP(X, y, k, likelihood=gp.likelihoods.Gaussian())
    else:
        m = gp.models.VariationalSparseGP(X, y, k, Xu=X[::4].clone(), likelihood=gp.likelihoods.Gaussian())
    Xnew = torch.randn(5, 2)

    def predict(Xnew):
        return m(Xnew, full_cov=True)

    return m, predict, (Xnew,)


def kernel(name):
    import torch
    from pyro.contrib import gp

    k = getattr(gp.kernels, name)(input_dim=2)
    X, Z = torch.randn(N, 2), torch.randn(6, 2)
    return k, k, (X, Z)


def elbo(loss_name, guide_name):
    import pyro
    import pyro.distributions as dist
    import torch
    from pyro import infer
    from pyro.infer import autoguide

    X, y = data()

    def model(X, y):
        w = pyro.sample("w", dist.Normal(torch.zeros(2), torch.ones(2)).to_event(1))
        b = pyro.sample("b", dist.Normal(0.0, 1.0))
        sigma = pyro.sample("sigma", dist.LogNormal(0.0, 1.0))
        with pyro.plate("data", X.shape[0]):
            pyro.sample("obs", dist.Normal(X @ w + b, sigma), obs=y)

    guide = getattr(autoguide, guide_name)(model)
    guide(X, y)  # creates the guide's parameters outside the compiled region
    loss = getattr(infer, loss_name)()

    def differentiable_loss(X, y):
        return loss.differentiable_loss(model, guide, X, y)

    return guide, differentiable_loss, (X, y)
