"""The default topic model: trained on the real labelled seed shipped with mmrc-build.

``classify predict`` without ``--model`` uses ``$MMRC_MODELS/mmrc-topics``; ``mmrc-build models``
trains it from ``classifiers/topic/seed_real/dialogues.jsonl`` (hand-labelled real dialogues, see
the README there) with the default training settings (all-mpnet-base-v2 embeddings, a linear head over the vector, its
similarity to the topic descriptions and the dialogue's task traits, 5-fold cross-validation, Other learned as a class),
offline. The model folder records the sha256 of the seed it was trained on and a digest of the
training recipe (``seed.json``): a changed seed, setting, description or trait detector makes ``models``
retrain it.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Callable

from builder.errors import ModelError
from builder.io import sha256_file
from builder.models import models_dir

NAME = "mmrc-topics"
SEED = Path(__file__).resolve().parents[2] / "classifiers" / "topic" / "seed_real" / "dialogues.jsonl"
STAMP = "seed.json"


def location(root: Path | None = None) -> Path:
    return Path(root or models_dir()) / NAME


def require(root: Path | None = None) -> Path:
    """The default model's folder, or a one-line error saying how to make it."""
    folder = location(root)
    if not (folder / "config.json").is_file():
        raise ModelError(f"no default topic model at {folder}; run `mmrc-build models` (it trains one on the "
                         "real seed bundled with mmrc-build) or pass --model FOLDER from `classify train`")
    return folder


def recipe() -> str:
    """A digest of what training does with the seed: the default settings, the descriptions and the
    trait detectors the head reads."""
    import hashlib
    from dataclasses import asdict

    from classifiers.topic.prototypes import DESCRIPTIONS
    from classifiers.topic.task_traits import recipe as traits_recipe
    from classifiers.topic.train import TrainConfig

    text = json.dumps({"config": asdict(TrainConfig()), "descriptions": DESCRIPTIONS, "traits": traits_recipe()},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def is_current(root: Path | None = None) -> bool:
    stamp = location(root) / STAMP
    try:
        seen = json.loads(stamp.read_text())
    except (OSError, ValueError):
        return False
    return seen.get("sha256") == sha256_file(SEED) and seen.get("recipe") == recipe()


def build(root: Path | None = None, device: str = "cpu", log: Callable[[str], None] = lambda m: None) -> dict:
    """Ingest the shipped seed into a temporary folder and train the default model from it."""
    from builder.classify.training import train_command
    from builder.ingest.config import IngestConfig
    from builder.ingest.stage import run_ingest
    from classifiers.topic.train import TrainConfig

    out = location(root)
    prefilled = _prefill_cache(log)
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw"
        raw.mkdir()
        (raw / SEED.name).write_bytes(SEED.read_bytes())
        run_ingest(raw, Path(tmp) / "seed", IngestConfig(min_turns=1), quiet=True)
        report = train_command(Path(tmp) / "seed", None, out, TrainConfig(), device=device, cache_dir=True,
                               force=True, log=log)
    (out / STAMP).write_text(json.dumps({"file": "classifiers/topic/seed_real/dialogues.jsonl",
                                         "sha256": sha256_file(SEED), "recipe": recipe(),
                                         "dialogues": report["n"]}, indent=1) + "\n")
    report["prefilled_windows"] = prefilled
    return report


def _prefill_cache(log: Callable[[str], None]) -> int:
    """Put the shipped seed vectors (classifiers/topic/seed_real/embeddings.npy) into the embedding
    cache when they were made by this very embedder (same content hash); else nothing, and training
    embeds the seed itself."""
    import numpy as np

    from builder.models import MPNET
    from classifiers.topic.embed import Embedder

    meta_path, vectors_path = SEED.with_name("embeddings.json"), SEED.with_name("embeddings.npy")
    if not (meta_path.is_file() and vectors_path.is_file()):
        return 0
    meta = json.loads(meta_path.read_text())
    emb = Embedder(MPNET, device="cpu")
    if meta.get("hash") != emb.hash:
        log(f"the shipped seed vectors were made by another {MPNET} (hash {str(meta.get('hash'))[:12]}); "
            "embedding the seed here")
        return 0
    vectors = np.load(vectors_path, allow_pickle=False)
    keys = list(meta["keys"])
    if vectors.shape[0] != len(keys):
        return 0
    have = emb.cache.get(keys)
    missing = [i for i, k in enumerate(keys) if k not in have]
    if missing:
        emb.cache.put([keys[i] for i in missing], vectors[missing])
    return len(missing)
