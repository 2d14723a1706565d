"""Classify modes side by side: the one-window default vs the multi-window mode (the old default).

In one run, with the paper's embedder (all-mpnet-base-v2, the stage default):

* speed on real-length dialogues (WildChat, ../shared/data/logs/wildchat): dialogues/s of
  the default (one 256-token window per dialogue, user turns first), of the multi-window mode
  (up to 16 full windows mean-pooled: the old default, the naive baseline here) and of the
  ceiling (bare ``SentenceTransformer.encode`` of the same one-window texts: no chunking, no
  cache bookkeeping), cold cache each, on the same dialogues;
* accuracy of both modes on real topic data (Topical-Chat conversations, topics from the data,
  classifiers/topic/topical_chat.py), MLP head, the same stratified folds, 95% CIs;
* the default mode's calibration: temperature, abstention threshold, coverage and accuracy
  kept, and the coverage/accuracy curve (out of fold);
* the default mode with the embedder in bfloat16 (``classify --dtype bfloat16``): speed,
  cosine of its vectors to float32's, and its accuracy on the same folds.

Writes bench/results/classify_modes.json. Usage: python bench/classify_modes.py [--speed-dialogues 80]
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
SHARED = HERE.parent.parent / "shared" / "data"


def wildchat_turns(limit: int) -> list[list[dict]]:
    out = []
    for path in sorted((SHARED / "logs" / "wildchat").glob("*.json"))[:limit]:
        record = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(record, list):  # a few files hold [record]
            record = record[0] if record and isinstance(record[0], dict) else {}
        out.append([{"role": m.get("role"), "text": m.get("content") or ""} for m in record.get("messages", [])
                    if isinstance(m.get("content"), str)])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="all-mpnet-base-v2")
    parser.add_argument("--speed-dialogues", type=int, default=80, help="WildChat dialogues for the speed race")
    parser.add_argument("--per-topic", type=int, default=25)
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    for need in (SHARED / "logs" / "wildchat", SHARED / "topics"):
        if not need.exists():
            sys.exit(f"{need} not present: this benchmark needs ../shared/data")


    from classifiers.topic.embed import Embedder
    from classifiers.topic.evaluate import cross_validate, stratified_folds
    from classifiers.topic.mlp import MLPConfig, fit_mlp, predict_proba
    from classifiers.topic.text import TextConfig, dialogue_text
    from classifiers.topic.topical_chat import load_units
    from classifiers.topic.train import encode_labels

    modes = {"default_one_window": TextConfig(), "multi_window_old_default": TextConfig(max_chunks=16, window=None)}
    result = {"embedder": args.embedder, "modes": {k: v.__dict__ for k, v in modes.items()}, "cpu_threads": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        # -- speed on real-length dialogues ------------------------------------------------
        dialogues = wildchat_turns(args.speed_dialogues)
        speed = {}
        warm = Embedder(args.embedder, cache_dir=False)
        warm.model.encode(["warm up"])  # load once; every mode below reuses the weights
        for name, config in modes.items():
            emb = Embedder(args.embedder, cache_dir=Path(tmp) / name)
            emb._model = warm.model
            texts = [dialogue_text(t, config) for t in dialogues]
            t0 = time.perf_counter()
            out = emb.embed_texts(texts, config)
            seconds = time.perf_counter() - t0
            speed[name] = {"dialogues_per_s": round(len(texts) / seconds, 2), "windows": out.stats["chunks"],
                           "seconds": round(seconds, 1)}
        one = modes["default_one_window"]
        texts = [dialogue_text(t, one) for t in dialogues]
        chunked = [warm.chunk(t, one).chunks[0] for t in texts]
        t0 = time.perf_counter()
        warm.model.encode(chunked, batch_size=32)
        bare_s = time.perf_counter() - t0
        speed["ceiling_bare_encode_one_window"] = {"dialogues_per_s": round(len(texts) / bare_s, 2)}
        speed["default_over_old_default"] = round(speed["default_one_window"]["dialogues_per_s"]
                                                  / speed["multi_window_old_default"]["dialogues_per_s"], 2)
        speed["default_share_of_ceiling"] = round(speed["default_one_window"]["dialogues_per_s"]
                                                  / speed["ceiling_bare_encode_one_window"]["dialogues_per_s"], 3)
        # -- the default mode with the embedder in bfloat16 (same texts, its own cache) --------
        bf16 = Embedder(args.embedder, cache_dir=Path(tmp) / "bf16", dtype="bfloat16")
        bf16.model.encode(["warm up"])
        fp32_vectors = Embedder(args.embedder, cache_dir=Path(tmp) / "default_one_window").embed_texts(texts, one).vectors
        t0 = time.perf_counter()
        bf16_vectors = bf16.embed_texts(texts, one).vectors
        seconds = time.perf_counter() - t0
        cosine = (fp32_vectors * bf16_vectors).sum(1)
        speed["default_one_window_bfloat16"] = {
            "dialogues_per_s": round(len(texts) / seconds, 2), "seconds": round(seconds, 1),
            "cosine_to_float32_min": round(float(cosine.min()), 5), "cosine_to_float32_mean": round(float(cosine.mean()), 6)}
        speed["bfloat16_over_float32"] = round(speed["default_one_window_bfloat16"]["dialogues_per_s"]
                                               / speed["default_one_window"]["dialogues_per_s"], 2)
        speed["dialogues"] = len(dialogues)
        result["speed_wildchat"] = speed
        print(json.dumps(speed, indent=1), flush=True)

        # -- accuracy on real topic data, same folds -----------------------------------------
        units = load_units(SHARED / "topics", per_topic=args.per_topic)
        classes, y = encode_labels([u["topic"] for u in units])
        folds = stratified_folds(y, args.folds, 0)
        accuracy = {}
        for name, config in {**modes, "default_one_window_bfloat16": one}.items():
            if name.endswith("bfloat16"):
                emb = bf16
            else:
                emb = Embedder(args.embedder, cache_dir=Path(tmp) / name)
                emb._model = warm.model
            vectors = emb.embed_texts([dialogue_text(u["turns"], config) for u in units], config).vectors

            def fit_predict(train, test, vectors=vectors):
                return predict_proba(fit_mlp(vectors[train], y[train], len(classes), MLPConfig()), vectors[test])

            report = cross_validate(y, classes, fit_predict, folds=folds)
            accuracy[name] = {k: report[k] for k in ("accuracy", "accuracy_ci95", "macro_f1", "macro_f1_ci95")}
            if name == "default_one_window":
                result["calibration_default"] = report["calibration"]
        result["accuracy_topical_chat"] = {"dialogues": len(units), "topics": classes, "folds": args.folds,
                                           **accuracy}
    out = HERE / "results" / "classify_modes.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["accuracy_topical_chat"], indent=1))
    print(json.dumps({k: v for k, v in result["calibration_default"].items() if k != "curve"}, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
