"""Ingest throughput and peak memory at 10k and 100k generated dialogues.

For each size: our `mmrc-build ingest` (a subprocess, so peak RSS is its own) and the
ceiling of just reading + json-parsing the same lines in Python. Peak RSS should stay
flat from 10k to 100k (streaming: one chunk of one file in memory, plus the signature
matrix), which is the point of this benchmark. Writes bench/results/ingest.json.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORDS = ("travel museum guitar recipe football chess kitchen budget protein laptop election salary "
         "mountain river ticket concert film director league puzzle garden oven market invoice "
         "history empire stock inflation cell gene python server policy interview resume").split()


def make_corpus(root: Path, n: int, per_file: int = 5_000, seed: int = 0) -> None:
    from PIL import Image

    rng = random.Random(seed)
    (root / "img").mkdir(parents=True)
    for i in range(20):
        Image.new("RGB", (64, 48), (i * 12 % 256, 80, 160)).save(root / "img" / f"{i}.png")
    for f in range(0, n, per_file):
        with open(root / f"logs-{f // per_file:04d}.jsonl", "w") as fh:
            for k in range(f, min(f + per_file, n)):
                turns = []
                for t in range(rng.randint(4, 12)):
                    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
                    images = [f"img/{rng.randrange(20)}.png"] if t % 2 == 0 and rng.random() < 0.3 else []
                    turns.append({"role": "user" if t % 2 == 0 else "assistant", "text": f"{k} {text}",
                                  "images": images})
                fh.write(json.dumps({"source_id": f"d{k}", "user_id": f"u{k % 997}", "turns": turns}) + "\n")


def run_ingest(raw: Path, out: Path, workers: int = 1) -> dict:
    env = {**os.environ, "MMRC_USER_SALT": "bench"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    code = ("import resource,sys; from builder.cli import main\n"
            "try:\n main(sys.argv[1:], standalone_mode=False)\n"
            "finally:\n print('PEAK_RSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, "ingest", str(raw), "-o", str(out),
                           "--workers", str(workers)],
                          env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-2000:])
    peak = int(proc.stderr.rsplit("PEAK_RSS_KB", 1)[1].split()[0])
    manifest = json.loads((out / "manifest.json").read_text())
    return {"seconds": round(elapsed, 2), "peak_rss_mb": round(peak / 1024, 1),
            "rows": manifest["rows"], "timings": manifest["timings"], "unused_before": before}


def parse_ceiling(raw: Path) -> float:
    t0 = time.perf_counter()
    n = 0
    for path in sorted(raw.glob("*.jsonl")):
        with open(path, "rb") as fh:
            for line in fh:
                json.loads(line)
                n += 1
    return time.perf_counter() - t0


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_INGEST_SIZES", "10000,100000").split(",")]
    results = {"sizes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            raw, out = Path(tmp) / f"raw{n}", Path(tmp) / f"out{n}"
            make_corpus(raw, n)
            ours = run_ingest(raw, out)
            shutil.rmtree(out)
            parallel = run_ingest(raw, out, workers=os.cpu_count() or 1)
            ceiling = parse_ceiling(raw)
            results["sizes"][str(n)] = {
                "dialogues": n,
                "ingest_seconds": ours["seconds"],
                "dialogues_per_s": round(n / ours["seconds"], 1),
                "peak_rss_mb": ours["peak_rss_mb"],
                "json_parse_only_seconds": round(ceiling, 2),
                "share_of_parse_ceiling": round(ceiling / ours["seconds"], 3),
                "workers": os.cpu_count(),
                "parallel_seconds": parallel["seconds"],
                "parallel_dialogues_per_s": round(n / parallel["seconds"], 1),
                "parallel_peak_rss_mb_main_process": parallel["peak_rss_mb"],
                "phase_timings_s": {k: round(v, 2) for k, v in ours["timings"].items()},
                "kept": ours["rows"]["kept"], "dropped": ours["rows"]["dropped"],
            }
            print(f"{n:>7} dialogues: {n / ours['seconds']:8.0f} dialogues/s, peak RSS {ours['peak_rss_mb']} MB, "
                  f"parse-only ceiling {ceiling:.1f}s vs ours {ours['seconds']:.1f}s")
            shutil.rmtree(raw)
            shutil.rmtree(out)
    if len(sizes) >= 2:
        small, big = results["sizes"][str(sizes[0])], results["sizes"][str(sizes[-1])]
        results["rss_growth_ratio"] = round(big["peak_rss_mb"] / small["peak_rss_mb"], 2)
        results["size_ratio"] = sizes[-1] / sizes[0]
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "ingest.json").write_text(json.dumps(results, indent=2))
    print(json.dumps({k: v for k, v in results.items() if k != "sizes"}))


if __name__ == "__main__":
    main()
