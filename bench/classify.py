"""Topic classifier benchmark: embedding throughput, training time, Topical-Chat accuracy.

Measured side by side in one run on Topical-Chat units (../shared/data/topics, see
classifiers/topic/topical_chat.py):

* embedding, dialogues/s: bare ``SentenceTransformer.encode`` on the same dialogue texts
  (naive baseline: it silently truncates every dialogue at the model length) vs ours cold
  (chunk-and-pool every window, fill the cache) vs ours warm (rerun: all from the cache);
* training seconds: the MLP head on frozen embeddings vs one SetFit-style fold
  (contrastive fine-tuning + re-embedding + head);
* accuracy / macro-F1 with 95% intervals on the same stratified folds: majority class and
  nearest-centroid (naive baselines on the same embeddings), MLP (MMRC), SetFit-style.

Writes bench/results/classify.json. Default embedder all-MiniLM-L6-v2 (fast on CPU);
``--embedder all-mpnet-base-v2`` for the paper's model (slower).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
DATA = HERE.parent.parent / "shared" / "data" / "topics"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="all-MiniLM-L6-v2")
    parser.add_argument("--per-topic", type=int, default=10, help="cap per topic (Society has 6, Computer 12)")
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=2, help="contrastive pairs per dialogue")
    parser.add_argument("--tune-length", type=int, default=64,
                        help="tokens per dialogue while fine-tuning (CPU cost grows linearly)")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--max-chunks", type=int, default=4)
    args = parser.parse_args()
    started = time.perf_counter()
    if not DATA.exists():
        sys.exit(f"{DATA} not present: this benchmark needs ../shared/data/topics")

    import numpy as np
    from sentence_transformers import SentenceTransformer

    from classifiers.topic.contrastive import ContrastiveConfig
    from classifiers.topic.embed import Embedder
    from classifiers.topic.evaluate import cross_validate, stratified_folds
    from classifiers.topic.mlp import MLPConfig, fit_mlp
    from classifiers.topic.text import TextConfig, dialogue_text
    from classifiers.topic.topical_chat import load_units
    from classifiers.topic.task_traits import feature_matrix
    from classifiers.topic.train import TrainConfig, cross_validate_methods, encode_labels

    units = load_units(DATA, per_topic=args.per_topic)
    text_config = TextConfig(max_chunks=args.max_chunks)
    texts = [dialogue_text(u["turns"], text_config) for u in units]
    topics = [u["topic"] for u in units]
    classes, y = encode_labels(topics)
    result = {"embedder": args.embedder, "dialogues": len(texts),
              "label_counts": {c: topics.count(c) for c in classes}, "folds": args.folds,
              "text": text_config.__dict__, "device": args.device}

    with tempfile.TemporaryDirectory() as tmp:
        # -- embedding throughput -------------------------------------------------
        emb = Embedder(args.embedder, device=args.device, cache_dir=Path(tmp) / "cache")
        bare = SentenceTransformer(str(emb.path), device=args.device, local_files_only=True)
        bare.encode(texts[:2])  # warm-up for both (same weights in memory afterwards)
        emb.model.encode(texts[:2])
        t0 = time.perf_counter()
        bare.encode(texts, batch_size=32)
        bare_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        cold = emb.embed_texts(texts, text_config)
        cold_s = time.perf_counter() - t0
        warm_emb = Embedder(args.embedder, device=args.device, cache_dir=Path(tmp) / "cache")
        t0 = time.perf_counter()
        warm = warm_emb.embed_texts(texts, text_config)
        warm_s = time.perf_counter() - t0
        n = len(texts)
        result["embedding"] = {
            "bare_encode_dialogues_per_s": round(n / bare_s, 2),
            "ours_cold_dialogues_per_s": round(n / cold_s, 2),
            "ours_warm_cache_dialogues_per_s": round(n / warm_s, 2),
            "cold_vs_bare": round(bare_s / cold_s, 3),
            "warm_vs_bare": round(bare_s / warm_s, 2),
            "windows_embedded": cold.stats["chunks"],
            "dialogues_longer_than_model": sum(1 for c in cold.chunks if c > 1),
            "tokens_beyond_max_chunks": int(sum(cold.truncated_tokens)),
            "warm_model_loaded": warm_emb._model is not None,
            "note": "bare encode truncates each dialogue to one window; ours embeds every window",
        }
        vectors = warm.vectors

        # -- training time (MLP on everything; SetFit's comes from its folds below) ----
        t0 = time.perf_counter()
        fit_mlp(vectors, y, len(classes), MLPConfig())
        mlp_s = time.perf_counter() - t0
        contrastive = ContrastiveConfig(pairs_per_item=args.pairs, max_seq_length=args.tune_length)

        # -- accuracy on the same folds ---------------------------------------------
        folds = stratified_folds(y, args.folds, 0)

        def majority(train, test):
            probs = np.zeros((len(test), len(classes)), dtype=np.float32)
            probs[:, np.bincount(y[train], minlength=len(classes)).argmax()] = 1
            return probs

        def centroid(train, test):
            cents = np.stack([vectors[train][y[train] == c].mean(0) for c in range(len(classes))])
            return vectors[test] @ cents.T

        accuracy = {name: cross_validate(y, classes, fn, folds=folds)
                    for name, fn in (("majority", majority), ("nearest_centroid", centroid))}
        config = TrainConfig(embedder=args.embedder, folds=args.folds, compare=True, text=text_config,
                             contrastive=contrastive)
        features = feature_matrix([u["turns"] for u in units], config.traits)
        accuracy.update(cross_validate_methods(texts, topics, warm_emb, config, device=args.device, log=print,
                                               features=features))
        keep = ("accuracy", "accuracy_ci95", "macro_f1", "macro_f1_ci95", "fold_accuracy_mean",
                "fold_accuracy_std", "seconds")
        result["accuracy"] = {name: {k: r[k] for k in keep if k in r} for name, r in accuracy.items()}
        result["accuracy"]["mlp"]["per_class"] = accuracy["mlp"]["per_class"]
        result["accuracy"]["setfit"]["per_class"] = accuracy["setfit"]["per_class"]
        result["contrastive"] = contrastive.__dict__
        per_fold = accuracy["setfit"]["seconds"] / args.folds
        result["training_s"] = {
            "mlp_head_all": round(mlp_s, 2),
            "setfit_per_fold": round(per_fold, 2),  # fine-tune + re-embed + head, on (k-1)/k of the data
            "setfit_vs_mlp": round(per_fold / mlp_s, 1),
        }

    result["total_s"] = round(time.perf_counter() - started, 1)
    out = HERE / "results" / "classify.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(json.dumps({k: result[k] for k in ("embedding", "training_s")}, indent=1))
    print({k: (v["accuracy"], v["macro_f1"]) for k, v in result["accuracy"].items()})
    print(f"total {time.perf_counter() - started:.0f} s")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
