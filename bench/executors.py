"""Executors benchmark: the clean stage on the real WildChat sample with local vs processes vs ray.

Measured side by side in one run (same input, same config, lexicon toxicity backend + Presidio
PII): dialogues/s, peak RSS of the driver and of each worker (pool processes or Ray actors),
and whether every executor wrote the same bytes. From the per-worker rate, a projection of
wall time for MMRC's 87,912 raw dialogues on N workers (assuming one core per worker).

Writes bench/results/executors.json. Needs ../shared/data/logs/wildchat (589 dialogues).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WILDCHAT = REPO.parent / "shared" / "data" / "logs" / "wildchat"
MMRC_DIALOGUES = 87_912


class RSSSampler(threading.Thread):
    """Peak RSS of the driver's process tree and of Ray actors, sampled every 50 ms."""

    def __init__(self, root_pid: int):
        super().__init__(daemon=True)
        self.root = psutil.Process(root_pid)
        self.driver = 0
        self.workers: dict[int, int] = {}
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                self.driver = max(self.driver, self.root.memory_info().rss)
                procs = self.root.children(recursive=True)
                procs += [p for p in psutil.process_iter(["cmdline"]) if "ray::_Actor" in " ".join(p.info["cmdline"] or [])]
                for proc in procs:
                    try:
                        name = " ".join(proc.cmdline())
                        if "ray::_Actor" in name or "multiprocessing" in name or "spawn_main" in name:
                            self.workers[proc.pid] = max(self.workers.get(proc.pid, 0), proc.memory_info().rss)
                    except psutil.Error:
                        pass
            except psutil.Error:
                pass
            time.sleep(0.05)


def sums(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.glob("part-*.parquet")) + [folder / "ledger.parquet"]:
        h.update(p.read_bytes())
    return h.hexdigest()


def run(cmd: list[str]) -> tuple[float, RSSSampler]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sampler = RSSSampler(proc.pid)
    sampler.start()
    _, err = proc.communicate()
    sampler.stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {err.decode()[-2000:]}")
    return time.perf_counter() - start, sampler


def main() -> None:
    if not WILDCHAT.is_dir():
        raise SystemExit(f"{WILDCHAT} is missing (../shared/data is only beside the development checkout)")
    os.environ.setdefault("MMRC_USER_SALT", "bench-salt")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    tmp = Path(tempfile.mkdtemp(prefix="mmrc-bench-exec-"))
    cli = [sys.executable, "-m", "builder.cli"]
    subprocess.run([*cli, "ingest", str(WILDCHAT), "-o", str(tmp / "ingested"), "--shard-rows", "50", "--quiet",
                    "--max-turns", "1000"], check=True, stdout=subprocess.DEVNULL)
    manifest = json.loads((tmp / "ingested" / "manifest.json").read_text())
    n = manifest["rows"]["out"]
    results = {"input": f"WildChat sample: {n} dialogues in {manifest['stats']['output_parts']} parts",
               "stage": "clean --toxicity-backend lexicon (Presidio PII on)", "cpu_count": os.cpu_count(), "runs": {}}
    runs = {"local": [], "processes": ["--executor", "processes", "--workers", "2"],
            "ray": ["--executor", "ray", "--workers", "2", "--cpus-per-worker", "1"]}
    digests = {}
    for name, extra in runs.items():
        out = tmp / f"clean-{name}"
        seconds, sampler = run([*cli, "clean", str(tmp / "ingested"), "-o", str(out), "--toxicity-backend", "lexicon",
                                "--quiet", *extra])
        digests[name] = sums(out)
        workers = sorted(sampler.workers.values(), reverse=True)[: 2 if name != "local" else 0]
        results["runs"][name] = {"seconds": round(seconds, 1), "dialogues_per_s": round(n / seconds, 2),
                                 "peak_rss_driver_mb": round(sampler.driver / 2**20),
                                 "peak_rss_per_worker_mb": [round(w / 2**20) for w in workers]}
        print(name, results["runs"][name], flush=True)
    results["identical_bytes"] = len(set(digests.values())) == 1
    per_worker = results["runs"]["local"]["dialogues_per_s"]
    results["projection_87912_hours"] = {f"{w}_workers": round(MMRC_DIALOGUES / (per_worker * w) / 3600, 2)
                                         for w in (1, 2, 8, 32)}
    results["projection_note"] = ("from the local (one-process) rate, assuming one core per worker and linear "
                                  "scaling across nodes; WildChat dialogues are longer than MMRC's average")
    out = HERE / "results" / "executors.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
