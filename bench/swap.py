"""Modality swap: retrieval precision on the shared Flickr8k bank, and variants per second.

1. Retrieval precision. For each of the 500 images of ../shared/data/image_bank, its first
   caption is held out as the query and the bank keeps the other four; does retrieval
   return the query's own image at rank 1 / within the top 5? Top-1 precision among the
   queries whose best score clears each threshold is listed too.
2. Throughput. `mmrc-build swap --count 100` (CLI, in process) over a generated corpus of
   400 four-turn dialogues that name everyday things, against the whole bank (caption
   embeddings cached by step 1): the first run (loads spaCy + the embedder) and a second
   one with the models loaded; variants/s = variants / stage time.
Writes bench/results/swap.json. Needs ../shared/data/image_bank.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED_BANK = REPO.parent / "shared" / "data" / "image_bank"
THINGS = ["my dog", "the beach", "a horse", "my bicycle", "the mountain", "a skateboard", "the lake",
          "a black dog", "the snowy hill", "a football", "the waterfall", "a surfboard", "the fountain",
          "my puppy", "a motorcycle", "the river", "a kayak", "the playground", "a tent", "the stadium"]
TEMPLATES = ["I took a picture of {x} on day {i}.", "Yesterday {x} was the highlight of our trip number {i}.",
             "Can you tell me more about {x}? I saw it on walk {i}.", "We spent hour {i} looking at {x}."]
FILLER = ["How do I budget for retirement?", "What is a good interview answer?", "Explain recursion please."]


def retrieval(embedder_name: str) -> dict:
    """Held-out-caption retrieval over the whole bank's cached caption matrix.

    The held-out caption's own row is the query vector (the same text embeds the same),
    and every held-out row is masked out of the bank, so each image is represented by its
    other four captions only.
    """
    import numpy as np

    from classifiers.topic.embed import Embedder
    from builder.swap.sources.bank import ImageBank

    bank = ImageBank(SHARED_BANK, span_weight=1.0, top_k=5, max_pixels=40_000_000, max_bytes=20 << 20)
    t0 = time.perf_counter()
    bank.setup("cpu", Embedder(embedder_name, "cpu", cache_dir=False))
    embed_s = time.perf_counter() - t0
    held = bank.starts  # the first caption of each image (captions are grouped by image)
    t0 = time.perf_counter()
    scores = bank.matrix[held] @ bank.matrix.T  # (queries x captions)
    scores[:, held] = -np.inf
    per_image = np.maximum.reduceat(scores, bank.starts, axis=1)
    order = np.argsort(-per_image, axis=1, kind="stable")[:, :5]
    query_s = time.perf_counter() - t0
    own = np.arange(len(held))
    top1_hit = order[:, 0] == own
    top5_hit = (order == own[:, None]).any(axis=1)
    best = per_image[own, order[:, 0]]
    right, wrong = best[top1_hit], best[~top1_hit]
    by_threshold = {}
    for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
        accepted = int((best >= t).sum())
        by_threshold[str(t)] = {"accepted": accepted,
                                "precision_top1": round(float((right >= t).sum()) / accepted, 4) if accepted else None}
    return {"embedder": embedder_name, "queries": len(held), "images": len(bank.images),
            "bank_captions_per_image": 4, "top1": round(float(top1_hit.mean()), 4),
            "top5": round(float(top5_hit.mean()), 4),
            "median_score_correct": round(float(np.median(right)), 4) if len(right) else None,
            "median_score_wrong": round(float(np.median(wrong)), 4) if len(wrong) else None,
            "by_threshold": by_threshold, "caption_embedding_s": round(embed_s, 2),
            "captions_per_s": round(len(bank.captions) / embed_s, 1), "query_s": round(query_s, 3)}


def corpus(n: int) -> list[dict]:
    sys.path.insert(0, str(REPO / "tests"))
    from conftest import dialogue

    rng = random.Random(0)
    rows = []
    for i in range(n):
        text = rng.choice(TEMPLATES).format(x=rng.choice(THINGS), i=i) if i % 5 else f"{rng.choice(FILLER)} ({i})"
        rows.append(dialogue([("user", text), ("assistant", "Interesting."), ("user", "Anything else?"),
                              ("assistant", "That's all.")]))
    return rows


def throughput(root: Path, n: int = 400, count: int = 100) -> dict:
    from click.testing import CliRunner

    from builder.cli import main

    sys.path.insert(0, str(REPO / "tests"))
    from conftest import make_stage_folder

    src = make_stage_folder(root / "classified", corpus(n), stage="classify")
    runs = {}
    # The caption matrix is cached by retrieval() already; the first run still loads spaCy
    # and the embedder, the second finds them loaded (process-wide caches).
    for label in ("first_run", "models_loaded"):
        out = root / f"swapped-{label}"
        t0 = time.perf_counter()
        result = CliRunner().invoke(main, ["swap", str(src), "-o", str(out), "--image-bank", str(SHARED_BANK),
                                           "--count", str(count), "--device", "cpu"])
        wall = time.perf_counter() - t0
        if result.exit_code != 0:
            raise SystemExit(result.output)
        manifest = json.loads((out / "manifest.json").read_text())
        report = manifest["report"]
        stage_s = manifest["timings"]["total_s"]
        runs[label] = {"wall_s": round(wall, 2), "stage_s": round(stage_s, 2),
                       "setup_s": round(manifest["timings"]["setup_s"], 2), "variants": report["variants"],
                       "variants_per_s": round(report["variants"] / stage_s, 2), "considered": report["considered"],
                       "reasons": report["reasons"]}
    return {"dialogues": n, "count": count, **runs}


def main() -> None:
    if not SHARED_BANK.is_dir():
        raise SystemExit(f"{SHARED_BANK} is not present; this benchmark needs the shared Flickr8k image bank")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    results = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                           "load_avg_1m": round(os.getloadavg()[0], 2)}}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MMRC_CACHE"] = str(Path(tmp) / "cache")  # cold really is cold
        results["retrieval"] = [retrieval("all-MiniLM-L6-v2")]
        from builder.models import MPNET, models_dir

        if (models_dir() / MPNET).is_dir():
            results["retrieval"].append(retrieval(MPNET))
        results["throughput"] = throughput(Path(tmp) / "t")
    out = HERE / "results" / "swap.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
