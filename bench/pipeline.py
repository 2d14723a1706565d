"""End-to-end benchmark: ingest → clean → classify → swap on real WildChat dialogues.

Each stage runs as the real CLI in its own process (default executor, 2 cores), on the real
WildChat sample in ../shared/data/logs/wildchat (589 long dialogues), repeated ``--repeat`` times
under new ids (each copy's first user turn gets a marker so deduplication keeps it) to reach
real-sized work. Per stage: wall seconds, dialogues/s and turns/s, peak RSS of the stage's process
tree. From the measured rates: a projection of wall time for MMRC's 87,912 raw dialogues on this
machine, and the issue's targets (classify ≥ 10 dialogues/s, clean ≥ 250 turns/s with the lexicon
backend, whole pipeline < 6 h) with how far each is.

Writes bench/results/pipeline.json. Usage: python bench/pipeline.py [--repeat 4] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import polars as pl
import psutil

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WILDCHAT = REPO.parent / "shared" / "data" / "logs" / "wildchat"
MMRC_DIALOGUES = 87_912
TARGETS = {"classify_dialogues_per_s": 10.0, "clean_turns_per_s": 250.0, "pipeline_hours": 6.0}


class PeakRSS(threading.Thread):
    """Peak RSS of a process and its children, sampled every 50 ms."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.proc, self.peak, self.stop = psutil.Process(pid), 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                procs = [self.proc, *self.proc.children(recursive=True)]
                self.peak = max(self.peak, sum(p.memory_info().rss for p in procs if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.05)


def build_input(folder: Path, repeat: int, limit: int | None) -> int:
    """WildChat files (the first ``limit``), ``repeat`` copies; returns the number of files written."""
    folder.mkdir(parents=True)
    n = 0
    for path in sorted(WILDCHAT.glob("*.json"))[:limit]:
        original = json.loads(path.read_text(encoding="utf-8"))
        for k in range(repeat):
            copy = json.loads(json.dumps(original))
            record = copy[0] if isinstance(copy, list) and copy and isinstance(copy[0], dict) else copy
            if k and isinstance(record, dict):
                record["id"] = f"{record.get('id', path.stem)}-copy{k}"
                for message in record.get("messages", []):
                    if message.get("role") == "user" and isinstance(message.get("content"), str):
                        message["content"] += f"\n(copy {k})"
                        break
            (folder / f"{path.stem}-{k}.json").write_text(json.dumps(copy, ensure_ascii=False), encoding="utf-8")
            n += 1
    return n


def run_stage(name: str, args: list[str], env: dict) -> dict:
    started = time.perf_counter()
    proc = subprocess.Popen([str(REPO / ".venv" / "bin" / "mmrc-build"), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sampler = PeakRSS(proc.pid)
    sampler.start()
    output, _ = proc.communicate()
    sampler.stop.set()
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed ({proc.returncode}):\n{output[-3000:]}")
    print(f"{name}: {seconds:.1f} s, peak RSS {sampler.peak / 2**20:.0f} MiB", flush=True)
    return {"seconds": round(seconds, 2), "peak_rss_mib": round(sampler.peak / 2**20), "last_line":
            output.strip().splitlines()[-1][:300] if output.strip() else ""}


def rows(folder: Path) -> tuple[int, int]:
    df = pl.read_parquet(folder / "part-*.parquet", columns=["turns", "variant_of"])
    originals = df.filter(pl.col("variant_of").is_null())
    return originals.height, int(originals["turns"].list.len().sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1,
                        help="copies of the 589 WildChat dialogues (a copy differs only by a note at the end of its "
                             "first user turn: its other turns and long first windows repeat, which flatters caches)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N WildChat files (a quick check)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the stage folders here")
    opts = parser.parse_args()
    if not WILDCHAT.is_dir():
        raise SystemExit(f"{WILDCHAT} is missing: this benchmark needs ../shared/data/logs/wildchat")
    root = Path(opts.keep or tempfile.mkdtemp(prefix="mmrc-pipeline-bench-"))
    if root.exists() and opts.keep:
        shutil.rmtree(root)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "MMRC_USER_SALT": os.environ.get("MMRC_USER_SALT", "bench-salt"),
           "MMRC_MODELS": os.environ.get("MMRC_MODELS", str(Path.home() / ".cache" / "mmrc-build" / "models")),
           # a cold embedding cache: vectors left by earlier runs on the same logs would time the cache
           "MMRC_CACHE": str(root / "cache")}
    files = build_input(root / "raw", opts.repeat, opts.limit)
    # The topic model is trained beforehand (not timed): the demo's seed, as `make demo` does.
    for args in (["ingest", str(REPO / "raw" / "seed"), "-o", str(root / "seed"), "--quiet"],
                 ["classify", "train", "--data", str(root / "seed"), "-o", str(root / "topic-model")]):
        run_stage("setup: " + args[0], args, env)
    stages = {}
    plan = [
        ("ingest", ["ingest", str(root / "raw"), "-o", str(root / "ingested"), "--quiet"], "raw"),
        ("clean", ["clean", str(root / "ingested"), "-o", str(root / "clean"), "--toxicity-backend", "lexicon",
                   "--quiet"], "ingested"),
        ("classify", ["classify", "predict", str(root / "clean"), "-o", str(root / "classified"), "--model",
                      str(root / "topic-model"), "--quiet"], "clean"),
        ("classify_bfloat16", ["classify", "predict", str(root / "clean"), "-o", str(root / "classified-bf16"),
                               "--model", str(root / "topic-model"), "--dtype", "bfloat16", "--quiet"], "clean"),
        ("swap", ["swap", str(root / "classified"), "-o", str(root / "swapped"), "--image-bank",
                  str(REPO / "raw" / "image_bank"), "--count", "100", "--quiet"], "classified"),
    ]
    for name, args, source in plan:
        stages[name] = run_stage(name, args, env)
        if source != "raw":
            n, turns = rows(root / source)
            stages[name].update(dialogues_in=n, turns_in=turns,
                                dialogues_per_s=round(n / stages[name]["seconds"], 2),
                                turns_per_s=round(turns / stages[name]["seconds"], 1))
        else:
            n, turns = rows(root / "ingested")
            stages[name].update(files_in=files, dialogues_out=n, turns_out=turns,
                                dialogues_per_s=round(n / stages[name]["seconds"], 2))
    # Projection: each stage's measured rate applied to 87,912 raw dialogues (ingest's rate is
    # per dialogue written; later stages see what clean keeps — conservatively all of them).
    projection = {name: round(MMRC_DIALOGUES / s["dialogues_per_s"] / 3600, 2) for name, s in stages.items()}
    total = round(sum(v for k, v in projection.items() if k != "classify_bfloat16"), 2)
    total_bf16 = round(total - projection["classify"] + projection["classify_bfloat16"], 2)
    targets = {
        "classify_dialogues_per_s": {"target": TARGETS["classify_dialogues_per_s"],
                                     "measured": stages["classify"]["dialogues_per_s"],
                                     "ratio": round(stages["classify"]["dialogues_per_s"]
                                                    / TARGETS["classify_dialogues_per_s"], 2),
                                     "measured_bfloat16": stages["classify_bfloat16"]["dialogues_per_s"],
                                     "ratio_bfloat16": round(stages["classify_bfloat16"]["dialogues_per_s"]
                                                             / TARGETS["classify_dialogues_per_s"], 2)},
        "clean_turns_per_s": {"target": TARGETS["clean_turns_per_s"], "measured": stages["clean"]["turns_per_s"],
                              "ratio": round(stages["clean"]["turns_per_s"] / TARGETS["clean_turns_per_s"], 2)},
        "pipeline_hours_for_87912": {"target": TARGETS["pipeline_hours"], "measured": total,
                                     "ratio": round(TARGETS["pipeline_hours"] / total, 2) if total else None},
    }
    doc = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
           "input": {"source": "../shared/data/logs/wildchat", "files": files, "repeat": opts.repeat,
                     "limit": opts.limit},
           "stages": stages,
           "projection_hours_87912": {**projection, "total": total, "total_with_classify_bfloat16": total_bf16},
           "targets": targets,
           "notes": "one process per stage, default executor on 2 cores; clean uses the lexicon toxicity "
                    "backend (Detoxify weights are not reachable offline) and Presidio + spaCy PII; classify "
                    "the default embedding mode, in float32 and (classify_bfloat16, same input) with --dtype bfloat16; "
                    "swap the bundled demo bank (--count 100)."}
    out = HERE / "results" / ("pipeline.json" if opts.limit is None else "pipeline-check.json")
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(json.dumps({"projection_hours_87912": doc["projection_hours_87912"], "targets": targets}, indent=2))
    if not opts.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
