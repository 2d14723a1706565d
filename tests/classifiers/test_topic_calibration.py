"""Temperature and abstention threshold chosen on out-of-fold probabilities."""

from __future__ import annotations

import numpy as np

from classifiers.topic.calibrate import apply_temperature, calibrate


def _overconfident(n=400, seed=0):
    """Three classes; the head says 0.97 for its guess, but only 70% of guesses are right."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    guess = np.where(rng.random(n) < 0.7, y, (y + 1) % 3)
    confidence = np.where(guess == y, rng.uniform(0.9, 0.99, n), rng.uniform(0.6, 0.95, n))
    probs = np.full((n, 3), 0.0)
    probs[np.arange(n), guess] = confidence
    for k in range(n):
        others = [c for c in range(3) if c != guess[k]]
        probs[k, others] = (1 - confidence[k]) / 2
    return y, probs


def test_overconfident_heads_are_softened_and_the_threshold_meets_the_target():
    y, probs = _overconfident()
    report = calibrate(y, probs, target_accuracy=0.9)
    assert report["temperature"] > 1.0 and report["nll"]["calibrated"] < report["nll"]["uncalibrated"]
    assert report["target_met"] and report["accuracy_kept"] >= 0.9 and 0 < report["coverage"] < 1
    assert report["accuracy_all"] < 0.75
    assert report["ece"]["calibrated"] < report["ece"]["uncalibrated"]  # softening closes the gap
    table = report["reliability"]
    assert len(table) == 10 and sum(row["n"] for row in table) == len(y)
    assert all(row["bin"][0] <= row["confidence"] <= row["bin"][1] for row in table if row["n"])
    curve = report["curve"]
    assert curve[0]["threshold"] == 0.0 and curve[0]["coverage"] == 1.0
    assert all(a["coverage"] >= b["coverage"] for a, b in zip(curve, curve[1:]))


def test_an_unreachable_target_is_said_not_hidden():
    _, probs = _overconfident()
    y = np.random.default_rng(1).integers(0, 3, len(probs))  # labels the head knows nothing about
    report = calibrate(y, probs, target_accuracy=0.9)
    assert report["target_met"] is False and report["coverage"] >= 0.5


def test_a_perfectly_calibrated_head_has_no_calibration_error():
    from classifiers.topic.calibrate import ece

    top = np.array([0.95] * 20 + [0.55] * 20)
    correct = np.array([True] * 19 + [False] + [True] * 11 + [False] * 9)  # 95% and 55% right
    assert ece(top, correct) == 0.0
    assert ece(top, ~correct) > 0.4


def test_temperature_keeps_the_argmax_and_rows_sum_to_one():
    _, probs = _overconfident(50)
    soft = apply_temperature(probs, 3.0)
    assert (soft.argmax(1) == probs.argmax(1)).all()
    np.testing.assert_allclose(soft.sum(1), 1.0, rtol=1e-5)


def test_other_is_never_a_label_and_its_recall_is_counted_by_hand():
    """Class 2 is Other. Six dialogues, probabilities chosen so every count is known:
    0: topic 0, right, 0.9   1: topic 0, right, 0.8   2: topic 1, right, 0.7
    3: truth Other, predicted Other 0.9   4: truth Other, predicted topic 1 at 0.6 (wrong)
    5: truth topic 1, predicted Other 0.8 (not labelled, so it costs coverage, not accuracy).
    Each is repeated 3 times (a threshold must keep at least 5). At target 0.75 every topic
    prediction is kept: labelled = {0, 1, 2, 4} x 3, 9 right of 12."""
    y = np.repeat([0, 0, 1, 2, 2, 1], 3)
    probs = np.repeat([[0.9, 0.05, 0.05], [0.8, 0.1, 0.1], [0.15, 0.7, 0.15],
                       [0.05, 0.05, 0.9], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8]], 3, axis=0)
    report = calibrate(y, probs, target_accuracy=0.75, other=2)
    assert report["target_met"] and report["threshold"] == 0.0
    assert report["coverage"] == round(4 / 6, 4) and report["accuracy_kept"] == 0.75
    # at 0.9 the wrong 0.6 predictions fall below the threshold: 9 of 9 right, Other recall 1.0
    strict = calibrate(y, probs, target_accuracy=0.9, other=2)
    assert strict["target_met"] and strict["accuracy_kept"] == 1.0 and strict["coverage"] == 0.5
    assert strict["other_recall"] == 1.0 and strict["topical_coverage"] == 0.75
    assert report["topical_coverage"] == 0.75  # 3 of the 4 topical dialogues got a topic
    assert report["other_recall"] == 0.5 and report["other_labelled_other"] == 0.5
