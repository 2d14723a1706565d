"""Release build time and peak RSS at MMRC's scale: 5k dialogues, ~23k images (4.65 each).

A stage folder is generated (noise PNGs, so every image is unique and incompressible, six
questions per dialogue), then `mmrc-build release` runs as a subprocess so its peak RSS
is its own. The same is done at 1k dialogues: shards are written in bounded batches, so
peak RSS must stay about flat while the images written grow 5x. Writes
bench/results/release.json.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
WORDS = ("kitchen garden photo receipt invoice mountain ticket menu recipe chart screenshot error "
         "python table museum painting stadium dress sofa lamp").split()
IMAGE_SIZE = (96, 72)  # ~20 KB of noise per PNG


def make_stage(folder: Path, n: int, seed: int = 0) -> tuple[Path, int, int]:
    """A finished 'classify' stage folder with ``n`` dialogues; returns (questions file, images, bytes)."""
    import numpy as np
    from PIL import Image
    import io as _io

    from builder import io
    from builder.images import ImageInfo, ImageStore
    from builder.records import TOPICS, TOPIC_TO_GROUP, dialogue_id, dialogues_frame, ledger_frame

    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    out = io.OutputFolder(folder, {"bench": n}, force=True).open()
    store = ImageStore(out.partial)
    rows, questions, n_images, n_bytes = [], [], 0, 0
    for k in range(n):
        turns = []
        for t in range(rng.randint(4, 14)):
            role = "user" if t % 2 == 0 else "assistant"
            images = []
            # 4.65 images per dialogue on average, on user turns
            for _ in range((rng.random() < 0.983) * rng.randint(0, 2) if role == "user" else 0):
                buf = _io.BytesIO()
                Image.fromarray(noise.integers(0, 256, (IMAGE_SIZE[1], IMAGE_SIZE[0], 3), dtype=np.uint8)).save(
                    buf, format="PNG", compress_level=1)
                data = buf.getvalue()
                import hashlib

                info = ImageInfo(hashlib.sha256(data).hexdigest(), "image/png", *IMAGE_SIZE)
                store.put(data, info)
                images.append(info.ref())
                n_images, n_bytes = n_images + 1, n_bytes + len(data)
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 60)))
            turns.append({"index": t, "role": role, "text": f"{text} #{k}", "images": images})
        topic = rng.choice(TOPICS)
        did = dialogue_id(turns)
        rows.append({"dialogue_id": did, "source": "bench.jsonl", "source_id": f"b-{k}", "turns": turns,
                     "topic": topic, "topic_group": TOPIC_TO_GROUP[topic], "language": "en"})
        n_img = sum(len(t["images"]) for t in turns)
        for ability in ("IE", "CR", "IU", "IM", "MR", "AR"):
            questions.append({"dialogue_id": did, "ability": ability, "format": "open",
                              "question": f"{ability} question about dialogue {k}?", "answer": "an answer",
                              "gold_turns": [0], "gold_images": [0] if n_img and ability == "IM" else [],
                              "should_refuse": ability == "AR", "annotators": ["bench"]})
    df = dialogues_frame(rows)
    part = 2000
    for i in range(0, df.height, part):
        io.write_dialogues(df.slice(i, part), out.path(io.PART_FMT.format(i // part)))
    ledger = ledger_frame([{"dialogue_id": r["dialogue_id"], "stage": "classify", "decision": "kept",
                            "reason": "ok", "detail": {}} for r in rows])
    io.write_parquet_atomic(io.sort_ledger(ledger), out.path(io.LEDGER))
    out.commit({"stage": "classify", "rows": io.ledger_counts(ledger, "classify")})
    qfile = folder.parent / f"questions-{n}.jsonl"
    qfile.write_text("".join(json.dumps(q) + "\n" for q in questions))
    return qfile, n_images, n_bytes


def run_release(data: Path, questions: Path, releases: Path) -> dict:
    cmd = [sys.executable, "-m", "builder.cli", "release", "--version", "1.0.0", "--data", str(data),
           "--questions", str(questions), "--releases-dir", str(releases)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log, text=True)
        # wait4 gives this child's own peak RSS (RUSAGE_CHILDREN would be the max over all runs)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - t0
        if proc.returncode != 0:
            log.seek(0)
            raise SystemExit(f"release failed:\n{log.read()}")
    return {"seconds": round(seconds, 1), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_RELEASE_SIZES", "1000,5000").split(",")]
    results = {"image_px": list(IMAGE_SIZE), "runs": []}
    work = Path(tempfile.mkdtemp(prefix="mmrc-bench-release-"))
    try:
        for n in sorted(sizes):
            t0 = time.perf_counter()
            qfile, n_images, n_bytes = make_stage(work / f"data-{n}", n)
            gen = time.perf_counter() - t0
            run = run_release(work / f"data-{n}", qfile, work / f"rel-{n}")
            release = work / f"rel-{n}" / "mmrc-v1.0.0"
            size = sum(p.stat().st_size for p in (release / "data").rglob("*.parquet"))
            results["runs"].append({"dialogues": n, "images": n_images, "images_per_dialogue": round(n_images / n, 2),
                                    "image_mb": round(n_bytes / 2**20, 1), "questions": n * 6,
                                    "generate_s": round(gen, 1), "release_s": run["seconds"],
                                    "peak_rss_mb": run["peak_rss_mb"], "shards_mb": round(size / 2**20, 1),
                                    "shards": len(list((release / "data" / "default").glob("*.parquet")))})
            print(json.dumps(results["runs"][-1]), flush=True)
            shutil.rmtree(work / f"data-{n}")
            shutil.rmtree(work / f"rel-{n}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = HERE / "results" / "release.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
