"""The default topic model on real chat: k-fold on the shipped seed, and on sources it never saw.

Data: ``classifiers/topic/seed_real/dialogues.jsonl`` (hand-labelled real dialogues, the 14
topics plus Other; what ``mmrc-build models`` trains the default model on). Settings: the default
``TrainConfig`` (all-mpnet-base-v2, user turns first, 256 tokens, a linear head over the vector, its
similarity to the topic descriptions and the dialogue's task traits, Other learned as a class,
abstention threshold calibrated out of fold for 90% accuracy on what it labels), side by side with
the same head without the task traits (``no_traits``), MMRC's head (the two-layer MLP on the vector
alone) and the descriptions alone (zero-shot, no training).

Reported, side by side in one run:

* **k-fold on the seed** (5 folds, stratified): accuracy with a Wilson 95% CI, macro-F1, F1 per
  class; at the calibrated threshold: coverage, accuracy on what it labels, topical coverage,
  Other recall (Other dialogues left without a topic). Baselines on the same folds: majority class
  and nearest centroid (the naive floor).
* **leave one source out**: train (and calibrate) on the seed without one dataset, test on that
  dataset's labelled dialogues: the figure for chat the model was not trained on (default head and
  MMRC's MLP, same split).
* **Topical-Chat's own labels** (``classifiers/topic/topical_chat.py``: the dataset's fact-section
  topics mapped sports -> Sport, movies -> Film, music -> Music, sci_tech -> Computer,
  politics -> Society, fashion -> Shopping; books and entertainment left out), on units not in
  the seed, with a model trained on the seed minus its Topical-Chat rows (needs ../shared/data;
  skipped with a note when absent).

Writes bench/results/classify_seed.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
SEED = HERE.parent / "classifiers" / "topic" / "seed_real" / "dialogues.jsonl"
TOPICAL_CAP = 60  # Topical-Chat units per mapped topic (Sport dominates the dataset)


def _apply(model, calibration: dict, vectors, y_true: list[str]) -> dict:
    """A trained model with its calibration on labelled dialogues: what it labels and how well."""
    import numpy as np

    from builder.records import OTHER
    from classifiers.topic.calibrate import apply_temperature

    probs = apply_temperature(model.predict_proba(vectors), calibration["temperature"])
    pred = [model.labels[i] for i in probs.argmax(1)]
    top = probs.max(1)
    labelled = np.array([p != OTHER and t >= calibration["threshold"] for p, t in zip(pred, top)])
    truth = np.array(y_true)
    right = np.array([p == t for p, t in zip(pred, y_true)])
    topical, other = truth != OTHER, truth == OTHER
    argmax_right = right[topical].mean() if topical.any() else None
    return {"n": len(y_true), "n_topical": int(topical.sum()), "n_other": int(other.sum()),
            "accuracy_argmax_topical": round(float(argmax_right), 4) if argmax_right is not None else None,
            "labelled": int(labelled.sum()),
            "accuracy_on_labelled": round(float(right[labelled].mean()), 4) if labelled.any() else None,
            "coverage_topical": round(float(labelled[topical].mean()), 4) if topical.any() else None,
            "other_not_labelled": round(float((~labelled[other]).mean()), 4) if other.any() else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--data", type=Path, default=None, help="shared data folder (default ../shared/data)")
    args = parser.parse_args()
    started = time.perf_counter()

    import numpy as np

    from builder.records import OTHER
    from classifiers.topic.embed import Embedder
    from classifiers.topic.mlp import MLPConfig
    from classifiers.topic.prototypes import CLASSES as PROTOTYPE_CLASSES
    from classifiers.topic.prototypes import prototype_vectors
    from classifiers.topic.evaluate import cross_validate, stratified_folds
    from classifiers.topic.real_seed import default_data_root
    from classifiers.topic.task_traits import feature_matrix
    from classifiers.topic.text import dialogue_text
    from classifiers.topic.train import TrainConfig, cross_validate_methods, encode_labels, fit_model, head_inputs

    config = TrainConfig()
    rows = [json.loads(line) for line in SEED.read_text(encoding="utf-8").splitlines() if line.strip()]
    turns = [[{**t, "images": []} for t in r["turns"]] for r in rows]
    texts = [dialogue_text(t, config.text) for t in turns]
    topics = [r["topic"] for r in rows]
    datasets = [r["dataset"] for r in rows]
    classes, y = encode_labels(topics)
    emb = Embedder(config.embedder, device=args.device)
    t0 = time.perf_counter()
    vectors = emb.embed_texts(texts, config.text).vectors
    features = feature_matrix(turns, config.traits)  # the task traits, tagged as clean tags them
    result = {"data": str(SEED.relative_to(HERE.parent)), "n": len(rows),
              "counts": {t: topics.count(t) for t in classes},
              "by_dataset": {d: datasets.count(d) for d in sorted(set(datasets))},
              "settings": {"embedder": config.embedder, "text": config.text.__dict__, "folds": config.folds,
                           "target_accuracy": 0.9},
              "embed_s": round(time.perf_counter() - t0, 1)}

    # -- k-fold on the seed, with the naive floor and the other heads on the same folds -----
    folds = stratified_folds(y, config.folds, config.seed)
    mmrc = replace(config, mlp=MLPConfig(hidden=256, prototype_weight=0.0), traits=())  # the default before
    no_traits = replace(config, traits=())  # the default head without the task traits
    heads = {"default": config, "no_traits": no_traits, "mmrc_mlp": mmrc}
    prototypes = prototype_vectors(emb, config.text)

    def majority(train, test):
        probs = np.zeros((len(test), len(classes)), dtype=np.float32)
        probs[:, np.bincount(y[train], minlength=len(classes)).argmax()] = 1
        return probs

    def softmax_rows(scores, scale=20):
        e = np.exp(scores * scale - (scores * scale).max(1, keepdims=True))
        return (e / e.sum(1, keepdims=True)).astype(np.float32)

    def centroid(train, test):
        cents = np.stack([vectors[train][y[train] == c].mean(0) if (y[train] == c).any()
                          else np.zeros(vectors.shape[1], dtype=np.float32) for c in range(len(classes))])
        return softmax_rows(vectors[test] @ cents.T)

    def descriptions_only(train, test):  # zero-shot: no label is used
        return softmax_rows(vectors[test] @ prototypes[[PROTOTYPE_CLASSES.index(c) for c in classes]].T)

    kfold = {name: cross_validate(y, classes, fn, folds=folds, seed=config.seed)
             for name, fn in (("majority", majority), ("nearest_centroid", centroid),
                              ("descriptions_only", descriptions_only))}
    for name, cfg in heads.items():
        kfold[name] = cross_validate_methods(texts, topics, emb, cfg, device=args.device, log=print,
                                             features=features)[cfg.method]
    keep = ("accuracy", "accuracy_ci95", "macro_f1", "macro_f1_ci95")
    cal_keys = ("threshold", "coverage", "accuracy_kept", "topical_coverage", "other_recall", "target_met")
    result["kfold"] = {name: {**{k: r[k] for k in keep},
                              "calibrated": {k: r["calibration"].get(k) for k in cal_keys}} for name, r in kfold.items()}
    result["settings"]["traits"] = list(config.traits)
    for name in heads:
        result["kfold"][name]["f1"] = {k: v["f1"] for k, v in kfold[name]["per_class"].items()}
    result["kfold"]["default"]["confusion"] = kfold["default"]["confusion"]
    topical = np.array([t != OTHER for t in topics])
    zero_shot = descriptions_only(None, np.arange(len(y)))[:, [c != OTHER for c in classes]].argmax(1)
    topic_classes = [c for c in classes if c != OTHER]
    result["descriptions_only_topical_argmax"] = round(float(np.mean(
        [topic_classes[p] == t for p, t, k in zip(zero_shot, topics, topical) if k])), 4)

    # -- leave one source out ----------------------------------------------------------------
    def trained_without(mask, cfg):
        idx = np.flatnonzero(mask)
        sub_texts, sub_topics = [texts[i] for i in idx], [topics[i] for i in idx]
        cv = cross_validate_methods(sub_texts, sub_topics, emb, cfg, device=args.device, features=features[idx])
        model, _ = fit_model(sub_texts, sub_topics, emb, cfg, features=features[idx])
        return model, cv[cfg.method]["calibration"]

    result["leave_one_source_out"] = {name: {} for name in heads}
    for held in sorted(set(datasets)):
        inside = np.array([d != held for d in datasets])
        out = np.flatnonzero(~inside)
        for name, cfg in heads.items():
            model, calibration = trained_without(inside, cfg)
            result["leave_one_source_out"][name][held] = {
                "trained_on": int(inside.sum()),
                **_apply(model, calibration, head_inputs(vectors[out], features[out], cfg), [topics[i] for i in out])}
            print(f"{name} without {held}: {result['leave_one_source_out'][name][held]}")

    # -- Topical-Chat's own labels, units not in the seed -----------------------------------
    root = args.data or default_data_root()
    if (root / "topics").is_dir():
        from classifiers.topic.topical_chat import TOPIC_MAP, load_units

        in_seed = {r["source_id"] for r in rows if r["dataset"] == "topical_chat"}
        units = [u for u in load_units(root / "topics", per_topic=None) if u["source_id"] not in in_seed]
        capped, seen = [], {}
        for u in units:
            if seen.get(u["topic"], 0) < TOPICAL_CAP:
                seen[u["topic"]] = seen.get(u["topic"], 0) + 1
                capped.append(u)
        unit_vectors = emb.embed_texts([dialogue_text(u["turns"], config.text) for u in capped], config.text).vectors
        unit_features = feature_matrix([u["turns"] for u in capped], config.traits)
        result["topical_chat_own_labels"] = {"mapping": TOPIC_MAP, "per_topic_cap": TOPICAL_CAP,
                                             "units": {t: seen[t] for t in sorted(seen)}}
        for name, cfg in heads.items():
            model, calibration = trained_without(np.array([d != "topical_chat" for d in datasets]), cfg)
            result["topical_chat_own_labels"][name] = _apply(model, calibration,
                                                             head_inputs(unit_vectors, unit_features, cfg),
                                                             [u["topic"] for u in capped])
    else:
        result["topical_chat_own_labels"] = f"skipped: {root / 'topics'} not present"
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    out = HERE / "results" / "classify_seed.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in ("n", "kfold", "leave_one_source_out")}, indent=1)[:4000])
    print(f"-> {out}")


if __name__ == "__main__":
    main()
