"""stable-baselines3: the policy of every algorithm (PPO's actor-critic, DQN, SAC, TD3), each of
its policy classes (MLP, CNN, multi-input), on every action space the algorithm supports
(discrete, continuous box, multi-discrete, multi-binary), once with defaults and once per
constructor option that defaults to off, turned on (a boolean that defaults to False set True, a
float that defaults to 0.0 set to 0.1: gSDE, squashed outputs, separate feature
extractors, ...). A combination the package rejects fails with a build error and is not counted.

Observations, batch 2: a 6-vector; 3-channel 40x40 uint8 images (CNN); a dict of both
(multi-input). The call is the policy's ``forward`` (what acting in the environment runs), with
sampled actions (seeded). Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import inspect

from builders import Case, off_options, turned_on

MODULE = "stable_baselines3"
ALGORITHMS = {"ppo": ("discrete", "box", "multidiscrete", "multibinary"), "dqn": ("discrete",),
              "sac": ("box",), "td3": ("box",)}
OBSERVATIONS = {"MlpPolicy": "vector", "CnnPolicy": "image", "MultiInputPolicy": "dict"}


def version() -> str:
    from importlib.metadata import version as installed

    return installed("stable-baselines3")


def policy(algo: str, alias: str):
    import stable_baselines3

    return getattr(stable_baselines3, algo.upper()).policy_aliases[alias]


def switches(cls) -> list[str]:
    return off_options((n, p.default) for n, p in inspect.signature(cls.__init__).parameters.items())


def models() -> list[str]:
    out = []
    for algo, actions in ALGORITHMS.items():
        for alias in OBSERVATIONS:
            for action in actions:
                out += [f"{algo}.{alias}.{action}{suffix}"
                        for suffix in ["", *(f"+{o}" for o in switches(policy(algo, alias)))]]
    return sorted(out)


def variants(model: str) -> list[str]:
    return ["base", "train"]


def spaces(observation: str, action: str):
    import numpy as np
    from gymnasium import spaces as s

    vector = s.Box(-1.0, 1.0, (6,), np.float32)
    image = s.Box(0, 255, (3, 40, 40), np.uint8)
    obs = {"vector": vector, "image": image, "dict": s.Dict({"vec": vector, "img": image})}[observation]
    act = {"discrete": s.Discrete(3), "box": s.Box(-1.0, 1.0, (2,), np.float32),
           "multidiscrete": s.MultiDiscrete([3, 2]), "multibinary": s.MultiBinary(3)}[action]
    return obs, act


def sample(observation: str):
    import torch

    vector = torch.rand(2, 6) * 2 - 1
    image = torch.randint(0, 256, (2, 3, 40, 40), dtype=torch.uint8)
    return {"vector": vector, "image": image, "dict": {"vec": vector, "img": image}}[observation]


def build(model: str, variant: str) -> Case:
    name, _, option = model.partition("+")
    algo, alias, action = name.split(".")
    obs_space, action_space = spaces(OBSERVATIONS[alias], action)
    kwargs = dict([turned_on(option)]) if option else {}
    net = policy(algo, alias)(obs_space, action_space, lambda _: 1e-3, **kwargs)
    net.train(variant == "train")
    return Case(net, (sample(OBSERVATIONS[alias]),), {}, train=variant == "train")
