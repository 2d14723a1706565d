"""Topic classifier on REAL dialogues only: the hand-labelled seed (classifiers/topic/seed_real).

Rebuilds the labelled set from ../shared/data (hashes verified; mismatches reported, never
dropped silently) and measures, all on real dialogues:

* stratified k-fold (default 5) over the 14 topics (``Other`` excluded: the product has 14
  classes): accuracy with a Wilson 95% interval, macro-F1 with a bootstrap 95% interval,
  per-class precision/recall, the confusion matrix; majority class and nearest centroid on the
  same folds as naive baselines;
* the same real folds with the 210 synthetic seed dialogues added to every training fold
  (tested on real dialogues only);
* the demo model (MLP trained on the 210 hand-written raw/seed dialogues, as ``make demo``
  trains it) evaluated on every real topic-labelled dialogue;
* abstention on real data: the temperature and threshold calibrated on real out-of-fold
  probabilities (classifiers/topic/calibrate.py), what they keep of the topic dialogues and
  what share of the ``Other`` dialogues (no MMRC topic) they abstain on; the same for the
  demo model's threshold calibrated on its synthetic seed.

Writes bench/results/classify_real.json. Default embedder all-mpnet-base-v2 (the paper's; the
embedding cache makes reruns cheap), ``--embedder all-MiniLM-L6-v2`` for a fast run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
SEED = HERE.parent / "raw" / "seed" / "topics.jsonl"


def _evaluate(y, probs, classes, seed=0) -> dict:
    import numpy as np

    from classifiers.topic.evaluate import bootstrap_macro_f1, metrics, wilson_interval

    pred = probs.argmax(1)
    out = metrics(y, pred, classes)
    out["accuracy_ci95"] = wilson_interval(int((pred == y).sum()), len(y))
    out["macro_f1_ci95"] = bootstrap_macro_f1(np.asarray(y), pred, classes, seed=seed)
    return out


def _abstention(probs, y, calibration: dict, other_probs) -> dict:
    """What a temperature + threshold keeps of topic dialogues and abstains on among Other ones."""
    from classifiers.topic.calibrate import apply_temperature

    t, thr = calibration["temperature"], calibration["threshold"]
    cal, cal_other = apply_temperature(probs, t), apply_temperature(other_probs, t)
    kept = cal.max(1) >= thr
    other_kept = cal_other.max(1) >= thr
    return {"temperature": t, "threshold": thr,
            "topic_coverage": round(float(kept.mean()), 4),
            "topic_accuracy_kept": round(float((cal.argmax(1) == y)[kept].mean()), 4) if kept.any() else None,
            "other_abstained": round(float(1 - other_kept.mean()), 4) if len(other_kept) else None,
            "other_n": int(len(other_kept))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="all-mpnet-base-v2")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--data", type=Path, default=None, help="shared data folder (default ../shared/data)")
    args = parser.parse_args()
    started = time.perf_counter()

    import numpy as np

    from classifiers.topic.embed import Embedder
    from classifiers.topic.evaluate import cross_validate, stratified_folds
    from classifiers.topic.real_seed import OTHER, default_data_root, load_seed
    from classifiers.topic.text import TextConfig, dialogue_text
    from classifiers.topic.train import TrainConfig, cross_validate_methods, encode_labels, fit_model

    root = args.data or default_data_root()
    if not root.is_dir():
        sys.exit(f"{root} not present: this benchmark needs ../shared/data (see classifiers/topic/seed_real/README.md)")
    seed = load_seed(root)
    for p in seed.problems:
        print(f"seed problem: {p['source']} {p['source_id']}: {p['problem']} ({p['detail']})")
    text_config = TextConfig()
    topical = [i for i in seed.items if i.topic != OTHER]
    other = [i for i in seed.items if i.topic == OTHER]
    texts = [dialogue_text(i.turns, text_config) for i in topical]
    other_texts = [dialogue_text(i.turns, text_config) for i in other]
    topics = [i.topic for i in topical]
    classes, y = encode_labels(topics)
    result = {"embedder": args.embedder, "folds": args.folds, "device": args.device, "text": text_config.__dict__,
              "seed": {**seed.report(), "counts": seed.counts(datasets=True)},
              "n_topic_labelled": len(texts), "n_other": len(other_texts)}

    emb = Embedder(args.embedder, device=args.device)
    t0 = time.perf_counter()
    vectors = emb.embed_texts(texts, text_config).vectors
    other_vectors = emb.embed_texts(other_texts, text_config).vectors
    result["embed_s"] = round(time.perf_counter() - t0, 1)

    # -- k-fold on real data only -----------------------------------------------------
    config = TrainConfig(embedder=args.embedder, folds=args.folds, text=text_config)
    folds = stratified_folds(y, args.folds, config.seed)

    def majority(train, test):
        probs = np.zeros((len(test), len(classes)), dtype=np.float32)
        probs[:, np.bincount(y[train], minlength=len(classes)).argmax()] = 1
        return probs

    def centroid(train, test):
        present = [c for c in range(len(classes)) if (y[train] == c).any()]
        cents = np.zeros((len(classes), vectors.shape[1]), dtype=np.float32)
        for c in present:
            cents[c] = vectors[train][y[train] == c].mean(0)
        scores = vectors[test] @ cents.T
        scores[:, [c for c in range(len(classes)) if c not in present]] = -np.inf
        return scores

    kfold = {name: cross_validate(y, classes, fn, folds=folds, seed=config.seed)
             for name, fn in (("majority", majority), ("nearest_centroid", centroid))}
    kfold.update(cross_validate_methods(texts, topics, emb, config, device=args.device, log=print))
    keep = ("accuracy", "accuracy_ci95", "macro_f1", "macro_f1_ci95", "fold_accuracy_mean", "fold_accuracy_std")
    result["kfold"] = {name: {k: r[k] for k in keep} for name, r in kfold.items()}
    mlp = kfold["mlp"]
    result["kfold"]["mlp"].update({"per_class": mlp["per_class"], "confusion": mlp["confusion"],
                                   "calibration": {k: v for k, v in mlp["calibration"].items() if k != "curve"},
                                   "calibration_curve": mlp["calibration"]["curve"]})

    # -- real-data abstention: head on all real topic labels, calibrated out of fold ---------
    real_model, _ = fit_model(texts, topics, emb, config)
    result["abstention_real_calibration"] = _abstention(
        real_model.predict_proba(vectors), y, mlp["calibration"], real_model.predict_proba(other_vectors))
    result["abstention_real_calibration"]["note"] = (
        "topic_* are in-sample (the head saw these dialogues); use kfold.mlp.calibration for held-out "
        "coverage/accuracy. other_abstained is held-out: no Other dialogue is ever trained on.")

    # -- the demo model (raw/seed, hand-written) on real data ------------------------------
    demo_rows = [json.loads(line) for line in SEED.read_text().splitlines() if line.strip()]
    demo_texts = [dialogue_text(r["turns"], text_config) for r in demo_rows]
    demo_topics = [r["topic"] for r in demo_rows]
    demo_model, _ = fit_model(demo_texts, demo_topics, emb, config)
    demo_probs = demo_model.topic_scores(demo_model.predict_proba(vectors))
    from builder.records import TOPICS

    demo_probs = demo_probs[:, [TOPICS.index(c) for c in classes]]

    # -- real folds, trained on real train folds + the whole synthetic seed (tested on real only)
    from classifiers.topic.mlp import MLPConfig, fit_mlp, predict_proba

    demo_vectors = emb.embed_texts(demo_texts, text_config).vectors
    demo_y = np.array([classes.index(t) if t in classes else -1 for t in demo_topics])
    mlp_config = MLPConfig(**{**config.mlp.__dict__, "seed": config.seed})

    def combined(train, test):
        x = np.concatenate([vectors[train], demo_vectors[demo_y >= 0]])
        t = np.concatenate([y[train], demo_y[demo_y >= 0]])
        return predict_proba(fit_mlp(x, t, len(classes), mlp_config), vectors[test])

    both = cross_validate(y, classes, combined, folds=folds, seed=config.seed)
    result["kfold"]["mlp_real_plus_synthetic_seed"] = {k: both[k] for k in keep}
    result["kfold"]["mlp_real_plus_synthetic_seed"]["per_class"] = both["per_class"]
    demo = _evaluate(y, demo_probs, classes)
    result["demo_model_on_real"] = {k: demo[k] for k in ("n", "accuracy", "accuracy_ci95", "macro_f1", "macro_f1_ci95",
                                                          "per_class", "confusion")}
    result["demo_model_on_real"]["trained_on"] = f"{SEED.relative_to(HERE.parent)} ({len(demo_rows)} hand-written)"
    demo_cv = cross_validate_methods(demo_texts, demo_topics, emb, config, device=args.device)["mlp"]
    demo_other = demo_model.topic_scores(demo_model.predict_proba(other_vectors))[:, [TOPICS.index(c) for c in classes]]
    result["abstention_demo_calibration"] = _abstention(demo_probs, y, demo_cv["calibration"], demo_other)
    result["abstention_demo_calibration"]["note"] = "threshold calibrated on the synthetic seed's folds, applied to real data"

    result["total_s"] = round(time.perf_counter() - started, 1)
    out = HERE / "results" / "classify_real.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(json.dumps({"counts": {t: c["total"] for t, c in result["seed"]["counts"].items()},
                      "kfold": {k: (v["accuracy"], v["accuracy_ci95"], v["macro_f1"], v["macro_f1_ci95"])
                                for k, v in result["kfold"].items()},
                      "demo_on_real": (demo["accuracy"], demo["accuracy_ci95"], demo["macro_f1"]),
                      "abstention_real": result["abstention_real_calibration"],
                      "abstention_demo": result["abstention_demo_calibration"]}, indent=1))
    print(f"total {result['total_s']} s; wrote {out}")


if __name__ == "__main__":
    main()
