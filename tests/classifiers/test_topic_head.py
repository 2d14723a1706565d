"""The MLP head, its save/load, and the k-fold evaluation - on synthetic vectors (no embedder)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from builder.errors import ModelError, ValidationError
from builder.records import TOPICS
from classifiers.topic.evaluate import cross_validate, stratified_folds, wilson_interval
from classifiers.topic.mlp import MLPConfig, fit_mlp, predict_proba
from classifiers.topic.model import TopicModel

LABELS = ["Travel", "Food", "Computer"]


def blobs(n_per: int = 12, dim: int = 16, seed: int = 0):
    """Three separable clusters, normalised like real embeddings."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(3, dim)) * 3
    x = np.concatenate([c + rng.normal(size=(n_per, dim)) for c in centres]).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x, np.repeat(np.arange(3), n_per)


def trained(seed: int = 0):
    x, y = blobs()
    net = fit_mlp(x, y, 3, MLPConfig(hidden=32, epochs=20, seed=seed))
    return TopicModel(LABELS, net, {"name": "fake", "hash": "ab" * 32}, mlp=MLPConfig(hidden=32, epochs=20, seed=seed)), x


def test_save_load_round_trip_gives_identical_probabilities(tmp_path):
    model, x = trained()
    model.save(tmp_path / "m")
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["config.json", "labels.json", "model.safetensors"]
    loaded = TopicModel.load(tmp_path / "m")
    assert loaded.labels == LABELS
    assert loaded.embedder["hash"] == "ab" * 32
    np.testing.assert_array_equal(model.predict_proba(x), loaded.predict_proba(x))


def test_same_seed_same_weights_other_seed_differs():
    (a, x), (b, _), (c, _) = trained(0), trained(0), trained(1)
    np.testing.assert_array_equal(a.predict_proba(x), b.predict_proba(x))
    assert not np.array_equal(a.predict_proba(x), c.predict_proba(x))


def test_head_learns_separable_data():
    model, x = trained()
    _, y = blobs()
    assert (model.predict_proba(x).argmax(1) == y).mean() == 1.0


def test_topic_scores_are_laid_out_over_all_14_topics():
    model, x = trained()
    probs = model.predict_proba(x[:2])
    scores = model.topic_scores(probs)
    assert scores.shape == (2, 14)
    assert scores[:, TOPICS.index("Food")].tolist() == probs[:, 1].tolist()
    assert scores[:, TOPICS.index("Music")].tolist() == [0.0, 0.0]
    np.testing.assert_allclose(scores.sum(1), 1.0, rtol=1e-5)


def test_load_refuses_a_head_that_does_not_match_its_config(tmp_path):
    model, _ = trained()
    model.save(tmp_path / "m")
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    config["head"]["hidden"] = 64
    (tmp_path / "m" / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelError, match="retrain"):
        TopicModel.load(tmp_path / "m")
    (tmp_path / "m" / "model.safetensors").unlink()
    with pytest.raises(ModelError, match="missing model.safetensors"):
        TopicModel.load(tmp_path / "m")


def test_stratified_folds_partition_and_spread_every_class():
    y = np.array([0] * 10 + [1] * 6 + [2] * 3)
    folds = stratified_folds(y, 3, seed=0)
    assert sorted(np.concatenate(folds).tolist()) == list(range(len(y)))
    for fold in folds:
        assert set(y[fold]) == {0, 1, 2}
    assert [f.tolist() for f in folds] == [f.tolist() for f in stratified_folds(y, 3, seed=0)]
    with pytest.raises(ValidationError, match="folds"):
        stratified_folds(y[:2], 3)


def test_kfold_report_shape():
    x, y = blobs(n_per=10)
    cfg = MLPConfig(hidden=32, epochs=15)

    def fit_predict(train, test):
        return predict_proba(fit_mlp(x[train], y[train], 3, cfg), x[test])

    report = cross_validate(y, LABELS, fit_predict, k=5, seed=0)
    assert report["folds"] == 5 and report["n"] == 30 and len(report["per_fold"]) == 5
    assert sum(f["n_test"] for f in report["per_fold"]) == 30
    assert set(report["per_class"]) == set(LABELS)
    assert all(set(row) == {"precision", "recall", "f1", "support"} for row in report["per_class"].values())
    matrix = np.array(report["confusion"]["matrix"])
    assert matrix.shape == (3, 3) and matrix.sum() == 30 and matrix.sum(1).tolist() == [10, 10, 10]
    lo, hi = report["accuracy_ci95"]
    assert lo <= report["accuracy"] <= hi
    flo, fhi = report["macro_f1_ci95"]
    assert flo <= report["macro_f1"] <= fhi
    assert report["accuracy"] >= 0.9


def test_wilson_interval_is_honest_about_70_items():
    lo, hi = wilson_interval(67, 70)  # "95.7%" on MMRC's 70 test items
    assert lo < 0.89 and hi > 0.98


# -- the linear head and the topic descriptions ------------------------------------------------

def test_linear_head_reaches_the_logistic_regression_optimum():
    """Known answer: the same objective scikit-learn minimises (class-weighted "balanced", L2 with C,
    intercept unpenalised) has one optimum; our L-BFGS fit must land on it."""
    sklearn = pytest.importorskip("sklearn.linear_model", reason="scikit-learn is the reference, not a dependency")
    rng = np.random.default_rng(3)
    x = rng.normal(size=(60, 8)).astype(np.float32)
    y = np.array([0] * 30 + [1] * 20 + [2] * 10)
    x[y == 1] += 0.7
    x[y == 2] -= 0.5
    ours = predict_proba(fit_mlp(x, y, 3, MLPConfig(hidden=0, c=2.0, prototype_weight=0.0)), x)
    ref = sklearn.LogisticRegression(C=2.0, class_weight="balanced", max_iter=10_000, tol=1e-10).fit(x, y)
    np.testing.assert_allclose(ours, ref.predict_proba(x), atol=2e-4)


def test_prototype_features_are_the_scaled_cosines_and_survive_save_load(tmp_path):
    x, y = blobs()
    prototypes = np.eye(16, dtype=np.float32)[:4]  # four "descriptions": the first four axes
    config = MLPConfig(hidden=0, prototype_weight=3.0)
    net = fit_mlp(x, y, 3, config, prototypes)
    import torch

    with torch.no_grad():
        features = net[0](torch.from_numpy(x[:2])).numpy()
    np.testing.assert_allclose(features[:, 16:], 3.0 * x[:2, :4], rtol=1e-6)  # cos with an axis = that coordinate
    model = TopicModel(LABELS, net, {"name": "fake", "hash": "ab" * 32}, mlp=config)
    model.save(tmp_path / "m")
    head = json.loads((tmp_path / "m" / "config.json").read_text())["head"]
    assert (head["prototypes"], head["prototype_weight"], head["hidden"]) == (4, 3.0, 0)
    loaded = TopicModel.load(tmp_path / "m")
    np.testing.assert_array_equal(loaded.predict_proba(x), model.predict_proba(x))


CODE_TURNS = [{"role": "user", "text": "why does this fail?\n```python\nprint(1/0)\n```"},
              {"role": "assistant", "text": "Dividing by zero raises ZeroDivisionError."}]
PROSE_TURNS = [{"role": "user", "text": "What should I see in Lisbon?"}, {"role": "assistant", "text": "The Alfama."}]


def test_task_trait_features_are_the_share_of_turns_where_each_holds():
    from classifiers.topic.task_traits import TASK_TRAITS, feature_matrix

    features = feature_matrix([CODE_TURNS, PROSE_TURNS, None], TASK_TRAITS)  # a row with null turns: no traits
    assert features.shape == (3, len(TASK_TRAITS)) and features.dtype == np.float32
    expected = np.zeros((3, len(TASK_TRAITS)), dtype=np.float32)
    expected[0, TASK_TRAITS.index("code")] = 0.5  # the user's turn of two
    np.testing.assert_array_equal(features, expected)
    # the traits column, when clean wrote it, is what is read (here it says the answer held code too)
    column = [[{"name": "code", "turns": [0, 1]}], [], None]
    read = feature_matrix([CODE_TURNS, PROSE_TURNS, []], TASK_TRAITS, column)
    assert read[0, TASK_TRAITS.index("code")] == 1.0 and not read[1:].any()
    # people chatting with people ask no task: a word-problem phrase there is no exercise
    peers = [{"role": "user", "text": "In the 60s top bowlers made twice as much as football stars!"},
             {"role": "assistant", "text": "haha no way, my dad used to bowl. how many games did he win?"}]
    assert feature_matrix([peers], TASK_TRAITS, [[{"name": "exercise", "turns": [0, 1]},
                                                 {"name": "peer_chat", "turns": []}]]).sum() == 0


def test_a_head_with_task_traits_reads_them_after_the_vector_and_survives_save_load(tmp_path):
    """Vectors that say nothing (noise) and a code trait that says Computer: the head learns the trait,
    and the saved model builds the same inputs from the turns."""
    from classifiers.topic.task_traits import TASK_TRAITS, feature_matrix
    from classifiers.topic.train import TrainConfig, head_inputs

    rng = np.random.default_rng(0)
    dialogues = [CODE_TURNS if i % 2 else PROSE_TURNS for i in range(40)]
    vectors = rng.normal(size=(40, 16)).astype(np.float32) * 0.01
    y = np.array([2 if i % 2 else 0 for i in range(40)])  # Computer / Travel
    config = TrainConfig(traits=TASK_TRAITS)
    x = head_inputs(vectors, feature_matrix(dialogues, config.traits), config)
    assert x.shape == (40, 16 + len(TASK_TRAITS))
    prototypes = np.eye(16, dtype=np.float32)[:4]
    mlp = MLPConfig(hidden=0, prototype_weight=3.0)
    net = fit_mlp(x, y, 3, mlp, prototypes, n_traits=len(TASK_TRAITS))
    model = TopicModel(LABELS, net, {"name": "fake", "hash": "ab" * 32}, mlp=mlp, traits=TASK_TRAITS)
    assert "7 task traits" in model.describe()
    model.save(tmp_path / "m")
    loaded = TopicModel.load(tmp_path / "m")
    assert loaded.traits == TASK_TRAITS
    fresh = loaded.inputs(vectors[:2], dialogues[:2])  # tagged afresh from the turns
    np.testing.assert_array_equal(fresh, x[:2])
    assert list(loaded.predict_proba(fresh).argmax(1)) == [0, 2]
    with pytest.raises(Exception, match="pass them as features"):
        head_inputs(vectors, None, config)


def test_a_model_saved_before_prototypes_still_loads(tmp_path):
    model, x = trained()
    model.save(tmp_path / "m")
    config_path = tmp_path / "m" / "config.json"
    config = json.loads(config_path.read_text())
    for key in ("prototypes", "prototype_weight"):
        config["head"].pop(key)
    for key in ("c", "prototype_weight"):
        config["train"].pop(key)
    config["format_version"] = 1
    config_path.write_text(json.dumps(config))
    loaded = TopicModel.load(tmp_path / "m")
    assert loaded.prototypes() == 0 and loaded.mlp.prototype_weight == 0.0
    np.testing.assert_array_equal(loaded.predict_proba(x), model.predict_proba(x))


@pytest.mark.parametrize("change, says", [
    (lambda c: c.update(format_version=4), "version this mmrc-build reads"),
    (lambda c: c["head"].update(traits=["astrology"]), "reads traits this mmrc-build does not tag .astrology."),
    (lambda c: c["train"].update(temperature=2.0), "settings this mmrc-build does not know .temperature."),
])
def test_a_model_from_a_newer_version_is_one_clear_error(tmp_path, change, says):
    """A model a newer mmrc-build wrote (a shared model cache) says so and asks for a retrain."""
    model, _ = trained()
    model.save(tmp_path / "m")
    config_path = tmp_path / "m" / "config.json"
    config = json.loads(config_path.read_text())
    change(config)
    config_path.write_text(json.dumps(config))
    with pytest.raises(ModelError, match=says):
        TopicModel.load(tmp_path / "m")
