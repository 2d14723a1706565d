"""Fit and cross-validate topic classifiers: frozen embeddings + MLP, or SetFit-style.

The API works on plain (text, topic) lists so that the CLI, the tests and the benchmark
share one code path; :mod:`builder.classify.training` turns stage folders and label
files into those lists.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from builder.errors import ConfigError, ValidationError
from builder.models import MPNET
from builder.records import OTHER, TOPICS
from classifiers.topic.contrastive import ContrastiveConfig, fine_tune
from classifiers.topic.embed import Embedder
from classifiers.topic.evaluate import cross_validate, stratified_folds
from classifiers.topic.mlp import MLPConfig, fit_mlp, predict_proba
from classifiers.topic.model import BUNDLED_EMBEDDER, TopicModel
from classifiers.topic.prototypes import prototype_vectors
from classifiers.topic.task_traits import TASK_TRAITS
from classifiers.topic.text import TextConfig

METHODS = ("mlp", "setfit")


@dataclass(frozen=True)
class TrainConfig:
    embedder: str = MPNET
    method: str = "mlp"
    folds: int = 5
    seed: int = 0
    compare: bool = False  # also cross-validate the other method on the same folds
    text: TextConfig = field(default_factory=TextConfig)
    mlp: MLPConfig = field(default_factory=MLPConfig)
    contrastive: ContrastiveConfig = field(default_factory=ContrastiveConfig)
    languages: tuple[str, ...] = ("en",)  # what the embedder reads; other languages get language_unsupported
    traits: tuple[str, ...] = TASK_TRAITS  # the task traits the head reads beside the vector (task_traits.py)

    def __post_init__(self):
        if self.method not in METHODS:
            raise ConfigError(f"unknown method {self.method!r}; available: {', '.join(METHODS)}")

    def methods(self) -> list[str]:
        return list(METHODS) if self.compare else [self.method]


def encode_labels(topics: list[str]) -> tuple[list[str], np.ndarray]:
    """Classes in records.TOPICS order, then OTHER (only those present), and the integer targets."""
    unknown = sorted({t for t in topics if t not in TOPICS and t != OTHER})
    if unknown:
        raise ValidationError(f"unknown topic(s) {unknown}; valid topics are: {', '.join(TOPICS)} (or {OTHER})")
    classes = [t for t in (*TOPICS, OTHER) if t in set(topics)]
    if len([c for c in classes if c != OTHER]) < 2:
        raise ValidationError(f"training needs at least two topics; the labels only hold {classes}")
    return classes, np.array([classes.index(t) for t in topics], dtype=np.int64)


def _prototypes(embedder: Embedder, config: TrainConfig) -> np.ndarray | None:
    """The topic descriptions' vectors by this embedder, when the head reads them."""
    return prototype_vectors(embedder, config.text) if config.mlp.prototype_weight else None


def _mlp_config(config: TrainConfig) -> MLPConfig:
    return MLPConfig(**{**config.mlp.__dict__, "seed": config.seed})


def head_inputs(vectors: np.ndarray, features: np.ndarray | None, config: TrainConfig) -> np.ndarray:
    """What the head reads: the dialogue vectors, then its task-trait features (``config.traits``,
    from :func:`classifiers.topic.task_traits.feature_matrix`)."""
    if not config.traits:
        return vectors
    if features is None or features.shape != (len(vectors), len(config.traits)):
        got = None if features is None else features.shape
        raise ConfigError(f"the head reads {len(config.traits)} task traits ({', '.join(config.traits)}) beside the "
                          f"vector: pass them as features of shape ({len(vectors)}, {len(config.traits)}), not {got}")
    return np.hstack([vectors, features.astype(np.float32)])


def _fold_predictor(method: str, texts: list[str], y: np.ndarray, n_cls: int, embedder: Embedder,
                    config: TrainConfig, device: str, log: Callable[[str], None], features: np.ndarray | None):
    """``fit_predict(train_idx, test_idx) -> probabilities`` for one method."""
    mlp = _mlp_config(config)
    n_traits = len(config.traits)
    if method == "mlp":
        vectors = head_inputs(embedder.embed_texts(texts, config.text).vectors, features, config)
        prototypes = _prototypes(embedder, config)

        def fit_predict(train, test):
            return predict_proba(fit_mlp(vectors[train], y[train], n_cls, mlp, prototypes, n_traits), vectors[test])

        return fit_predict

    def fit_predict_setfit(train, test):
        tuned = fine_tune(embedder.path, [texts[i] for i in train], y[train], config.contrastive,
                          seed=config.seed, device=device)
        tag = hashlib.sha256(",".join(map(str, train)).encode()).hexdigest()
        fold_embedder = Embedder.from_model(tuned, f"{embedder.name}+setfit", f"{embedder.hash}:{tag}")
        vectors = head_inputs(fold_embedder.embed_texts(texts, config.text).vectors, features, config)
        log(f"setfit fold: fine-tuned on {len(train)} dialogues")
        return predict_proba(fit_mlp(vectors[train], y[train], n_cls, mlp, _prototypes(fold_embedder, config),
                                     n_traits), vectors[test])

    return fit_predict_setfit


def cross_validate_methods(texts: list[str], topics: list[str], embedder: Embedder, config: TrainConfig,
                           device: str = "cpu", log: Callable[[str], None] = lambda m: None,
                           features: np.ndarray | None = None) -> dict:
    """k-fold report per method, every method on the very same folds. ``features``: the dialogues'
    task traits (see :func:`head_inputs`)."""
    classes, y = encode_labels(topics)
    folds = stratified_folds(y, config.folds, config.seed)
    reports = {}
    for method in config.methods():
        t0 = time.perf_counter()
        fit_predict = _fold_predictor(method, texts, y, len(classes), embedder, config, device, log, features)
        reports[method] = cross_validate(y, classes, fit_predict, seed=config.seed, folds=folds)
        reports[method]["seconds"] = round(time.perf_counter() - t0, 2)
        log(f"{method}: {config.folds}-fold accuracy {reports[method]['accuracy']:.3f} "
            f"(95% CI {reports[method]['accuracy_ci95'][0]:.3f}-{reports[method]['accuracy_ci95'][1]:.3f}), "
            f"macro-F1 {reports[method]['macro_f1']:.3f}")
    return reports


def fit_model(texts: list[str], topics: list[str], embedder: Embedder, config: TrainConfig,
              folder: Path | None = None, device: str = "cpu",
              features: np.ndarray | None = None) -> tuple[TopicModel, Embedder]:
    """Train on everything. ``setfit`` saves its tuned embedder into ``folder/embedder``. ``features``:
    the dialogues' task traits (see :func:`head_inputs`)."""
    classes, y = encode_labels(topics)
    mlp = _mlp_config(config)
    info: dict[str, Any] = {"name": embedder.name, "hash": embedder.hash, "files": embedder.files}
    if config.method == "setfit":
        if folder is None:
            raise ConfigError("a setfit model needs a folder to keep its fine-tuned embedder")
        assert embedder.path is not None  # a folder's embedder, never an in-memory fold model
        tuned = fine_tune(embedder.path, texts, y, config.contrastive, seed=config.seed, device=device)
        tuned.save(str(Path(folder) / BUNDLED_EMBEDDER), create_model_card=False, safe_serialization=True)
        _drop_unsafe(Path(folder) / BUNDLED_EMBEDDER)
        embedder = Embedder(str(Path(folder) / BUNDLED_EMBEDDER), device=device,
                            cache_dir=embedder.cache.folder.parent if embedder.cache.folder else False)
        info = {"name": f"{info['name']}+setfit", "hash": embedder.hash, "files": embedder.files,
                "bundled": True, "base": {"name": info["name"], "hash": info["hash"]}}
    vectors = head_inputs(embedder.embed_texts(texts, config.text).vectors, features, config)
    net = fit_mlp(vectors, y, len(classes), mlp, _prototypes(embedder, config), len(config.traits))
    extra: dict[str, Any] = {"contrastive": config.contrastive.__dict__} if config.method == "setfit" else {}
    extra["languages"] = list(config.languages)
    base = info.pop("base", None)
    if base:
        extra["base_embedder"] = base
    model = TopicModel(classes, net, info, config.text, mlp, config.method, extra, traits=tuple(config.traits))
    return model, embedder


def _drop_unsafe(folder: Path) -> None:
    """Keep saved embedders to safetensors + JSON/text files (no pickled weights)."""
    for p in folder.rglob("*"):
        if p.is_file() and p.suffix in (".bin", ".pt", ".pth", ".pkl"):
            p.unlink()
