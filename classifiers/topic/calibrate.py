"""Calibrated topic probabilities and the abstention threshold, both chosen on held-out data.

The k-fold run gives every labelled dialogue a probability vector from a head that never saw
it (out of fold). On those:

* **temperature** ``T`` (1 to 8): probabilities become ``softmax(log p / T)``; ``T`` minimises
  the out-of-fold negative log-likelihood (a grid search, so no optimiser state to record);
* **threshold**: the smallest top probability (after calibration) at which the dialogues kept
  reach ``target_accuracy`` out of fold, keeping at least 10% of them; below it ``predict``
  abstains (topic left empty, ``low_confidence``). If no threshold reaches the target, the one
  with the best accuracy at ≥ 50% coverage is taken and the report says the target was not
  reached.
* **curve**: coverage and accuracy at thresholds 0.0, 0.05, …, 0.95 — the trade-off a user
  moves along with ``--abstain-below``;
* **how well calibrated**: the expected calibration error (ECE: the mean gap between top
  probability and accuracy over 10 equal-width confidence bins, weighted by their size) before
  and after the temperature, and the reliability table of the calibrated probabilities (per bin:
  dialogues, mean confidence, accuracy).
"""

from __future__ import annotations

import numpy as np

# Softening only (T >= 1): a head trained on a few hundred dialogues is over- rather than
# under-confident, and sharpening on separable folds would push every score to 1 and make the
# threshold meaningless.
TEMPERATURES = np.round(np.exp(np.linspace(0.0, np.log(8.0), 31)), 4)
TARGET_ACCURACY = 0.9
MIN_COVERAGE = 0.1


def apply_temperature(probs: np.ndarray, temperature: float) -> np.ndarray:
    logits = np.log(np.clip(np.asarray(probs, dtype=np.float64), 1e-12, 1.0)) / temperature
    logits -= logits.max(axis=1, keepdims=True)
    out = np.exp(logits)
    return (out / out.sum(axis=1, keepdims=True)).astype(np.float32)


def _nll(probs: np.ndarray, y: np.ndarray) -> float:
    return float(-np.log(np.clip(probs[np.arange(len(y)), y], 1e-12, 1.0)).mean())


RELIABILITY_BINS = 10


def reliability(top: np.ndarray, correct: np.ndarray, bins: int = RELIABILITY_BINS) -> list[dict]:
    """Per equal-width confidence bin (the last one includes 1.0): dialogues, mean top probability, accuracy."""
    which = np.minimum((np.asarray(top, dtype=np.float64) * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        inside = which == b
        n = int(inside.sum())
        out.append({"bin": [round(b / bins, 2), round((b + 1) / bins, 2)], "n": n,
                    "confidence": round(float(top[inside].mean()), 4) if n else None,
                    "accuracy": round(float(correct[inside].mean()), 4) if n else None})
    return out


def ece(top: np.ndarray, correct: np.ndarray, bins: int = RELIABILITY_BINS) -> float:
    """Expected calibration error: sum over bins of (share of dialogues) x |accuracy - mean confidence|."""
    table = reliability(top, correct, bins)
    total = sum(row["n"] for row in table)
    return round(sum(row["n"] / total * abs(row["accuracy"] - row["confidence"]) for row in table if row["n"]), 4) \
        if total else 0.0


def curve(top: np.ndarray, correct: np.ndarray) -> list[dict]:
    out = []
    for threshold in np.round(np.arange(0.0, 1.0, 0.05), 2):
        kept = top >= threshold
        n = int(kept.sum())
        out.append({"threshold": float(threshold), "coverage": round(n / len(top), 4) if len(top) else 0.0,
                    "accuracy": round(float(correct[kept].mean()), 4) if n else None, "kept": n})
    return out


def calibrate(y: np.ndarray, oof: np.ndarray, target_accuracy: float = TARGET_ACCURACY,
              other: int | None = None) -> dict:
    """Temperature, abstention threshold and the coverage/accuracy curve from out-of-fold probabilities.

    ``other``: the class index of records.OTHER when the model learned it. A dialogue is *labelled*
    when its best class is a topic (not OTHER) scoring at least the threshold; the threshold is the
    lowest at which the labelled dialogues reach ``target_accuracy`` out of fold (a true-Other
    dialogue given a topic counts as wrong). Reported: ``coverage`` (labelled share of all),
    ``topical_coverage`` (of the dialogues whose truth is a topic) and ``other_recall`` (true-Other
    dialogues left without a topic: predicted Other or below the threshold).
    """
    y = np.asarray(y)
    temperature = float(min(TEMPERATURES, key=lambda t: _nll(apply_temperature(oof, t), y)))
    calibrated = apply_temperature(oof, temperature)
    top, pred = calibrated.max(axis=1), calibrated.argmax(axis=1)
    correct = pred == y
    names_topic = pred != other if other is not None else np.ones(len(y), dtype=bool)
    pool = np.flatnonzero(names_topic)  # only these can be labelled
    order = pool[np.argsort(-top[pool], kind="stable")]
    # accuracy of the k most confident topic predictions, for every k: the threshold is the k-th confidence
    running = np.cumsum(correct[order]) / np.arange(1, len(order) + 1) if len(order) else np.zeros(0)
    min_keep = max(5, int(np.ceil(MIN_COVERAGE * len(order))))  # a threshold kept by a handful proves nothing
    # a cut can only fall between two different confidences: a threshold keeps every tie of its value
    ranked = top[order]
    cut = np.r_[ranked[:-1] > ranked[1:], True] if len(order) else np.zeros(0, dtype=bool)
    reached = np.flatnonzero((running >= target_accuracy) & (np.arange(1, len(order) + 1) >= min_keep) & cut)
    if reached.size:
        k = int(reached.max()) + 1
        met = True
    elif len(order):
        half = max(1, len(order) // 2)
        k = int(np.argmax(np.where(cut[half - 1:], running[half - 1:], -1.0))) + half
        met = False
    else:
        k, met = 0, False
    threshold = float(top[order][k - 1]) if 0 < k < len(order) else 0.0
    kept = names_topic & (top >= threshold)
    out = {"temperature": round(temperature, 4), "threshold": round(threshold, 4),
           "target_accuracy": target_accuracy, "target_met": met,
           "coverage": round(float(kept.mean()), 4),
           "accuracy_kept": round(float(correct[kept].mean()), 4) if kept.any() else None,
           "accuracy_all": round(float(correct.mean()), 4),
           "nll": {"uncalibrated": round(_nll(np.asarray(oof, dtype=np.float64), y), 4),
                   "calibrated": round(_nll(calibrated, y), 4)},
           "ece": {"uncalibrated": ece(np.asarray(oof).max(axis=1), np.asarray(oof).argmax(axis=1) == y),
                   "calibrated": ece(top, correct)},
           "reliability": reliability(top, correct),
           "curve": curve(top, correct)}
    if other is not None:
        topical, is_other = y != other, y == other
        out["topical_coverage"] = round(float(kept[topical].mean()), 4) if topical.any() else None
        out["other_recall"] = round(float((~kept[is_other]).mean()), 4) if is_other.any() else None
        out["other_labelled_other"] = round(float((pred[is_other] == other).mean()), 4) if is_other.any() else None
    return out
