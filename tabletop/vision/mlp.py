"""A small multilayer perceptron: the classifier behind the rank and suit readers.

opencv-python 5 no longer ships ``cv2.ml`` (it moved to contrib) and has no way to write a
network for ``cv2.dnn`` without extra packages, so the classifier is a two-layer perceptron
trained and run with numpy: standardise → dense(ReLU) → dense → softmax. Trained with Adam
on cross-entropy with label smoothing, from a fixed seed; saved as a plain ``.npz``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["Mlp", "train_mlp"]


@dataclass(frozen=True)
class Mlp:
    """Weights of a trained perceptron and the class labels its outputs stand for."""

    classes: tuple[str, ...]
    mean: np.ndarray = field(compare=False, repr=False)
    scale: np.ndarray = field(compare=False, repr=False)
    w1: np.ndarray = field(compare=False, repr=False)
    b1: np.ndarray = field(compare=False, repr=False)
    w2: np.ndarray = field(compare=False, repr=False)
    b2: np.ndarray = field(compare=False, repr=False)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Class probabilities, one row per feature row."""
        x = (np.atleast_2d(features).astype(np.float32) - self.mean) / self.scale
        hidden = np.maximum(x @ self.w1 + self.b1, 0)
        logits = hidden @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, classes=np.array(self.classes), mean=self.mean, scale=self.scale,
                            w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)

    @classmethod
    def load(cls, path: Path) -> "Mlp":
        with np.load(path, allow_pickle=False) as data:
            return cls(tuple(str(c) for c in data["classes"]), data["mean"], data["scale"],
                       data["w1"], data["b1"], data["w2"], data["b2"])


def train_mlp(
    features: np.ndarray,
    labels: np.ndarray,
    classes: tuple[str, ...],
    *,
    hidden: int = 96,
    epochs: int = 30,
    batch: int = 128,
    learning_rate: float = 2e-3,
    weight_decay: float = 1e-4,
    smoothing: float = 0.05,
    seed: int = 0,
) -> Mlp:
    """Train a perceptron on ``features`` (n×d float32) and integer ``labels`` (indices into ``classes``)."""
    rng = np.random.default_rng(seed)
    x = features.astype(np.float32)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    x = (x - mean) / scale
    n, d = x.shape
    k = len(classes)
    target = np.full((n, k), smoothing / k, np.float32)
    target[np.arange(n), labels] += 1 - smoothing
    params = {
        "w1": (rng.standard_normal((d, hidden)) * np.sqrt(2 / d)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, k)) * np.sqrt(1 / hidden)).astype(np.float32),
        "b2": np.zeros(k, np.float32),
    }
    moment1 = {key: np.zeros_like(v) for key, v in params.items()}
    moment2 = {key: np.zeros_like(v) for key, v in params.items()}
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        rate = learning_rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            xb, tb = x[idx], target[idx]
            pre = xb @ params["w1"] + params["b1"]
            hid = np.maximum(pre, 0)
            logits = hid @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            prob = np.exp(logits)
            prob /= prob.sum(axis=1, keepdims=True)
            grad_logits = (prob - tb) / len(idx)
            grads = {"w2": hid.T @ grad_logits, "b2": grad_logits.sum(axis=0)}
            grad_hid = grad_logits @ params["w2"].T
            grad_hid[pre <= 0] = 0
            grads["w1"] = xb.T @ grad_hid
            grads["b1"] = grad_hid.sum(axis=0)
            step += 1
            for key in params:
                g = grads[key] + (weight_decay * params[key] if key.startswith("w") else 0)
                moment1[key] = 0.9 * moment1[key] + 0.1 * g
                moment2[key] = 0.999 * moment2[key] + 0.001 * g * g
                m_hat = moment1[key] / (1 - 0.9**step)
                v_hat = moment2[key] / (1 - 0.999**step)
                params[key] -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
    return Mlp(tuple(classes), mean.astype(np.float32), scale.astype(np.float32),
               params["w1"], params["b1"], params["w2"], params["b2"])
