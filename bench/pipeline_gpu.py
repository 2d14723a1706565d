"""The curation pipeline on one GPU machine: ingest -> clean (--workers = the CPU count) -> classify on the GPU.

Driven by bench/pipeline_gpu.sh (which checks the prerequisites). The data folder's logs are copied
``repeat`` times into a temp raw folder, each copy renamed, its ids suffixed and every user turn prefixed
with a copy marker, so each copy is a new dialogue with new embedding windows (no cache sees through it);
``repeat`` is chosen from an untimed probe ingest so that at least N dialogues come out of ingest. Every
stage is the real CLI in its own process; per stage: wall seconds, dialogues/s, turns/s; the projection
for MMRC's 87,912 raw dialogues from those rates, against the issue's target (< 1 h).

Environment: DATA (folder of logs), N, DEVICE (cuda|cpu), WORKERS, RESULT (the JSON path), MMRC_MODELS.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MMRC_DIALOGUES = 87_912
TARGET_HOURS = 1.0
USER_ROLES = {"user", "human", "prompter"}
ID_KEYS = ("id", "conversation_id", "conversation_hash")


def mark(node, marker: str, suffix: str):
    """Prefix every user turn's text with ``marker`` and suffix the record ids, in any of the log formats."""
    if isinstance(node, list):
        return [mark(item, marker, suffix) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: mark(value, marker, suffix) for key, value in node.items()}
    role = out.get("role") or out.get("from")
    if isinstance(role, str) and role.lower() in USER_ROLES:
        for key in ("content", "text", "value"):
            value = out.get(key)
            if isinstance(value, str):
                out[key] = marker + value
                break
            if isinstance(value, list):
                part = next((p for p in value if isinstance(p, dict) and isinstance(p.get("text"), str)), None)
                if part is not None:
                    part["text"] = marker + part["text"]
                    break
    for key in ID_KEYS:
        if isinstance(out.get(key), str):
            out[key] += suffix
    return out


def copy_logs(data: Path, files: list[Path], target: Path, k: int) -> None:
    """Copy ``k`` of the logs (and whatever else the folder holds: images) under ``target/copy-k``."""
    root = target / f"copy-{k:04d}"
    shutil.copytree(data, root, ignore=lambda folder, names: [n for n in names if n.endswith((".json", ".jsonl"))])
    marker, suffix = f"[r{k}] ", f"-r{k}"
    for path in files:
        rel = path.relative_to(data)
        dest = (root / rel).with_name(f"{path.stem}-r{k}{path.suffix}")
        dest.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        if path.suffix == ".jsonl":
            out = "\n".join(_marked(line, marker, suffix) for line in text.splitlines()) + "\n"
        else:
            out = _marked(text, marker, suffix)
        dest.write_bytes(out.encode("utf-8", "surrogateescape"))


def _marked(text: str, marker: str, suffix: str) -> str:
    """A record marked as a copy; one that does not parse (a log ingest quarantines) is copied as it is."""
    try:
        record = json.loads(text)
    except ValueError:
        return text
    return json.dumps(mark(record, marker, suffix), ensure_ascii=False)


def cli(args: list[str], env: dict) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "builder.cli", *args], env=env, cwd=REPO,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"pipeline_gpu: `mmrc-build {' '.join(args[:2])}` failed ({proc.returncode}):\n"
                         f"{proc.stdout[-3000:]}")
    return seconds, proc.stdout.strip().splitlines()[-1][:300] if proc.stdout.strip() else ""


def counts(folder: Path) -> tuple[int, int]:
    import pyarrow.parquet as pq

    dialogues = turns = 0
    for part in sorted(folder.glob("part-*.parquet")):
        column = pq.read_table(part, columns=["turns"]).column("turns")
        dialogues += len(column)
        turns += sum(len(t or []) for t in column.to_pylist())
    return dialogues, turns


def device_name(device: str) -> str:
    if device == "cpu":
        return f"cpu ({os.cpu_count()} cores, {platform.processor() or platform.machine()})"
    import torch

    return torch.cuda.get_device_name(0)


def main() -> None:
    data, wanted, device = Path(os.environ["DATA"]), int(os.environ["N"]), os.environ["DEVICE"]
    workers, result = int(os.environ["WORKERS"]), Path(os.environ["RESULT"])
    root = Path(tempfile.mkdtemp(prefix="mmrc-pipeline-gpu-"))
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "MMRC_CACHE": str(root / "cache"),
           "MMRC_USER_SALT": os.environ.get("MMRC_USER_SALT", "bench-salt")}
    ingest_opts = ["--near-dup-threshold", "1.0", "--quiet"]  # the copies are near duplicates by construction
    try:
        files = sorted(p for p in data.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file())
        probe_s, _ = cli(["ingest", str(data), "-o", str(root / "probe"), *ingest_opts], env)
        per_copy = counts(root / "probe")[0]
        if not per_copy:
            raise SystemExit(f"pipeline_gpu: no dialogue in {data} survives ingest; give a folder of chat logs")
        repeat = math.ceil(wanted / per_copy)
        if repeat == 1 and per_copy > wanted and len(files) >= per_copy:  # a small check on one-dialogue files
            files = files[:max(1, math.ceil(len(files) * wanted / per_copy * 1.1))]
        t0 = time.perf_counter()
        for k in range(repeat):
            copy_logs(data, files, root / "raw", k)
        build_s = time.perf_counter() - t0
        print(f"pipeline_gpu: {repeat} cop{'y' if repeat == 1 else 'ies'} of {len(files)} files from {data} "
              f"({per_copy} dialogues per full copy) in {build_s:.0f} s", flush=True)
        plan = [
            ("ingest", ["ingest", str(root / "raw"), "-o", str(root / "ingested"), "--workers", str(workers),
                        *ingest_opts], "ingested"),
            ("clean", ["clean", str(root / "ingested"), "-o", str(root / "clean"), "--toxicity-backend", "lexicon",
                       "--workers", str(workers), "--quiet"], "ingested"),
            ("classify", ["classify", "predict", str(root / "clean"), "-o", str(root / "classified"), "--device",
                          device, "--quiet"], "clean"),
        ]
        stages = {}
        for name, args, measured in plan:
            seconds, last = cli(args, env)
            n, turns = counts(root / measured)
            stages[name] = {"seconds": round(seconds, 2), "dialogues": n, "turns": turns,
                            "dialogues_per_s": round(n / seconds, 2), "turns_per_s": round(turns / seconds, 1),
                            "last_line": last}
            print(f"{name}: {n} dialogues in {seconds:.1f} s = {n / seconds:.1f}/s", flush=True)
        manifest = json.loads((root / "classified" / "manifest.json").read_text())
        stages["classify"]["embedder"] = {k: manifest["config"][k] for k in ("dtype", "batch_size")}
        stages["classify"]["device"] = manifest["device"]
        projection = {name: round(MMRC_DIALOGUES / s["dialogues_per_s"] / 60, 1) for name, s in stages.items()}
        total_min = round(sum(projection.values()), 1)
        doc = {
            "device": device, "device_name": device_name(device), "cpus": os.cpu_count(), "workers": workers,
            "input": {"data": str(data), "files_per_copy": len(files), "copies": repeat,
                      "dialogues_per_copy": per_copy, "wanted": wanted,
                      "dialogues_ingested": stages["ingest"]["dialogues"],
                      "reached": stages["ingest"]["dialogues"] >= wanted,
                      "probe_ingest_s": round(probe_s, 2), "build_s": round(build_s, 2)},
            "stages": stages,
            "projection_minutes_87912": {**projection, "total": total_min},
            "target": {"hours": TARGET_HOURS, "projected_hours": round(total_min / 60, 2),
                       "ratio": round(TARGET_HOURS * 60 / total_min, 2) if total_min else None},
            "notes": "each copy: files renamed, ids suffixed -rK, every user turn prefixed [rK] (new dialogue ids "
                     "and embedding windows); ingest with --near-dup-threshold 1.0 (the copies are near "
                     "duplicates by construction) and --workers; clean with the lexicon toxicity backend (Detoxify "
                     "weights are not reachable offline), Presidio + spaCy PII, --workers; classify the default "
                     "topic model on DEVICE with its default embedder precision for that device, a cold embedding "
                     "cache; projection = 87,912 / each stage's dialogues/s (later stages see what ingest and "
                     "clean kept, so it is conservative for them).",
        }
        result.parent.mkdir(parents=True, exist_ok=True)
        result.write_text(json.dumps(doc, indent=2) + "\n")
        print(json.dumps({"projection_minutes_87912": doc["projection_minutes_87912"], "target": doc["target"]},
                         indent=2))
        print(f"pipeline_gpu: {result}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
