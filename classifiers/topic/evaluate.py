"""Stratified k-fold evaluation with confidence intervals.

MMRC reports ">95% test accuracy" on 70 held-out items; a 95% interval on 70 items is
about ±5 points, so a single split cannot support that claim. Here every labelled
dialogue is predicted exactly once by a model that did not see it (pooled out-of-fold
predictions), and the report carries a Wilson interval for accuracy and a seeded
bootstrap interval for macro-F1, besides per-fold numbers.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from builder.records import OTHER

from classifiers.topic.calibrate import calibrate

from builder.errors import ValidationError


def stratified_folds(y: np.ndarray, k: int, seed: int = 0) -> list[np.ndarray]:
    """Test-index arrays of ``k`` folds; each class is spread round-robin after a seeded shuffle."""
    y = np.asarray(y)
    if k < 2:
        raise ValidationError(f"--folds must be at least 2 (got {k})")
    if len(y) < k:
        raise ValidationError(f"{len(y)} labelled dialogues cannot be split into {k} folds; label more or lower --folds")
    rng = np.random.default_rng(seed)
    folds: list[list[int]] = [[] for _ in range(k)]
    offset = 0
    for cls in np.unique(y):
        members = np.flatnonzero(y == cls)
        rng.shuffle(members)
        for i, idx in enumerate(members):
            folds[(offset + i) % k].append(int(idx))
        offset += len(members)  # so small classes do not all start in fold 0
    return [np.array(sorted(f), dtype=np.int64) for f in folds]


def metrics(y_true: np.ndarray, y_pred: np.ndarray, labels: list[str]) -> dict:
    n_cls = len(labels)
    confusion = np.zeros((n_cls, n_cls), dtype=np.int64)
    np.add.at(confusion, (np.asarray(y_true, dtype=np.int64), np.asarray(y_pred, dtype=np.int64)), 1)
    per_class, f1s = {}, []
    for j, label in enumerate(labels):
        tp = int(confusion[j, j])
        predicted, actual = int(confusion[:, j].sum()), int(confusion[j, :].sum())
        precision = tp / predicted if predicted else 0.0
        recall = tp / actual if actual else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[label] = {"precision": round(precision, 4), "recall": round(recall, 4),
                            "f1": round(f1, 4), "support": actual}
        if actual:
            f1s.append(f1)
    n = int(confusion.sum())
    return {
        "n": n,
        "accuracy": round(float(np.trace(confusion)) / n, 4) if n else 0.0,
        "macro_f1": round(float(np.mean(f1s)), 4) if f1s else 0.0,
        "per_class": per_class,
        "confusion": {"labels": list(labels), "matrix": confusion.tolist()},
    }


def wilson_interval(correct: int, n: int, z: float = 1.959964) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    p = correct / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def bootstrap_macro_f1(y_true, y_pred, labels, rounds: int = 1000, seed: int = 0) -> list[float]:
    rng = np.random.default_rng(seed)
    n = len(y_true)
    values = []
    for _ in range(rounds):
        idx = rng.integers(0, n, n)
        values.append(metrics(y_true[idx], y_pred[idx], labels)["macro_f1"])
    return [round(float(np.percentile(values, 2.5)), 4), round(float(np.percentile(values, 97.5)), 4)]


def cross_validate(
    y: np.ndarray,
    labels: list[str],
    fit_predict: Callable[[np.ndarray, np.ndarray], np.ndarray],
    k: int = 5,
    seed: int = 0,
    folds: list[np.ndarray] | None = None,
) -> dict:
    """Run ``fit_predict(train_idx, test_idx) -> probabilities`` on each fold; pooled report."""
    y = np.asarray(y)
    folds = folds if folds is not None else stratified_folds(y, k, seed)
    pred = np.full(len(y), -1, dtype=np.int64)
    oof = np.zeros((len(y), len(labels)), dtype=np.float32)
    per_fold = []
    for test in folds:
        train = np.setdiff1d(np.arange(len(y)), test)
        probs = fit_predict(train, test)
        oof[test] = probs
        pred[test] = probs.argmax(1)
        fold = metrics(y[test], pred[test], labels)
        per_fold.append({"n_test": fold["n"], "accuracy": fold["accuracy"], "macro_f1": fold["macro_f1"]})
    pooled = metrics(y, pred, labels)
    accs = [f["accuracy"] for f in per_fold]
    return {
        "folds": len(folds),
        "seed": seed,
        **pooled,
        "accuracy_ci95": wilson_interval(int((pred == y).sum()), len(y)),
        "macro_f1_ci95": bootstrap_macro_f1(y, pred, labels, seed=seed),
        "fold_accuracy_mean": round(float(np.mean(accs)), 4),
        "fold_accuracy_std": round(float(np.std(accs)), 4),
        "per_fold": per_fold,
        # temperature + abstention threshold from these held-out folds (OTHER, when learned, never labels)
        "calibration": calibrate(y, oof, other=labels.index(OTHER) if OTHER in labels else None),
    }
