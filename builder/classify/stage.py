"""The classify stage: add ``topic``, ``topic_group``, ``topic_scores`` to every dialogue.

Tag, don't drop: every dialogue keeps its 14 calibrated scores (records.TOPICS order; topics
the model was not trained on score 0). A dialogue whose best score is below the model's
abstention threshold (chosen on held-out folds at training, classifiers/topic/calibrate.py;
``--abstain-below`` overrides, 0 turns it off) gets ``topic = null`` and the ledger reason
``low_confidence`` instead of a forced label; the scores stay, so a later threshold change
needs no rescoring. A dialogue in a language the embedder was not made for (clean's
``language``; read from the text with the tool's one identifier, :mod:`builder.language`, when
no earlier stage recorded one; the model's ``languages``, English for MPNet/MiniLM) gets
``language_unsupported``, never a guess.

A model that learned records.OTHER (none of the 14: code, maths, riddles, role-play, greetings)
leaves ``topic`` null with the ledger reason ``off_taxonomy`` when Other is its best class.

A model that reads task traits (classifiers/topic/task_traits.py) takes them from clean's
``traits`` column; a folder clean never saw (no column, or a null value) gets them tagged here with
the same code, so ``traits`` is read when present and never required.

Ledger reasons (decision ``kept``: classification adds fields, it never drops):
``classified``, ``off_taxonomy``, ``low_confidence``, ``language_unsupported``, ``no_text`` (nothing to embed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from builder.engine import ShardContext, ShardResult
from builder.errors import ConfigError, ModelError
from builder.io import sha256_json
from builder.models import folder_fingerprint
from builder.records import TOPIC_TO_GROUP, TOPICS, ledger_frame
from builder.traits import column_values
from classifiers.topic.calibrate import apply_temperature
from classifiers.topic.text import TextConfig, dialogue_text

if TYPE_CHECKING:
    from classifiers.topic.embed import Embedder
    from classifiers.topic.model import TopicModel

STAGE = "classify"


@dataclass(frozen=True)
class ClassifyConfig:
    model: str  # a folder made by `classify train`
    model_hash: str  # content hash of that folder's files: a retrained model reruns the stage
    embedder: str | None = None  # override where the embedder is found (must have the trained hash)
    abstain_below: float | None = None
    batch_size: int = 32  # off CUDA; on CUDA classifiers.topic.embed.CUDA_BATCH unless given
    dtype: str = "float32"  # the embedder's precision (classifiers.topic.embed.DTYPES); bfloat16 on CUDA unless given


def model_fingerprint(folder: Path) -> dict[str, str]:
    return {k: v for k, v in folder_fingerprint(Path(folder)).items() if k != "report.json"}


def make_config(model: Path, embedder: str | None = None, abstain_below: float | None = None,
                batch_size: int | None = None, dtype: str | None = None, device: str = "cpu") -> ClassifyConfig:
    """``batch_size`` / ``dtype`` None: chosen for ``device`` (the resolved one the embedder runs on) by
    :func:`classifiers.topic.embed.embedding_precision`; the choice is part of the config (and manifest)."""
    from classifiers.topic.embed import embedding_precision

    model = Path(model)
    if not (model / "config.json").is_file():
        raise ModelError(f"{model} is not a trained topic model (no config.json); "
                         "train one with `mmrc-build classify train` and pass it to --model")
    if abstain_below is not None and not 0.0 <= abstain_below <= 1.0:
        raise ConfigError(f"--abstain-below must be between 0 and 1 (got {abstain_below})")
    if batch_size is not None and batch_size < 1:
        raise ConfigError(f"--batch-size must be at least 1 (got {batch_size})")
    dtype, batch_size = embedding_precision(device, dtype, batch_size, cpu_batch=ClassifyConfig.batch_size)
    return ClassifyConfig(str(model), sha256_json(model_fingerprint(model)), embedder, abstain_below, batch_size,
                          dtype)


# all-mpnet-base-v2 and all-MiniLM-L6-v2 are English models; a model trained with a multilingual
# embedder lists its languages in config.json ("languages").
ENGLISH_ONLY = ("en",)


def _languages(df: pl.DataFrame) -> tuple[list[str | None], list[bool]]:
    """Each dialogue's language, and whether it was read from the text here (no stage had recorded one:
    classify run straight on ingested logs)."""
    from builder import language

    recorded = df["language"].to_list() if "language" in df.columns else [None] * df.height
    missing = [i for i, code in enumerate(recorded) if not code]
    turns = df["turns"].to_list() if missing else []
    found = language.detect_many([language.dialogue_text(turns[i] or []) for i in missing]) if missing else []
    out, detected = list(recorded), [False] * df.height
    for i, code in zip(missing, found):
        out[i], detected[i] = code, code is not None
    return out, detected


class ClassifyStage:
    name = STAGE
    version = "1"
    reads = ("turns",)
    writes = ("topic", "topic_group", "topic_scores")

    def __init__(self, config: ClassifyConfig, cache_dir=True):
        self.config = config
        self.cache_dir = cache_dir
        self.model: TopicModel | None = None  # loaded by setup()
        self.embedder: Embedder | None = None  # loaded by setup()
        self._model_config = json.loads((Path(config.model) / "config.json").read_text())

    def setup(self, device: str) -> None:
        from classifiers.topic.embed import Embedder
        from classifiers.topic.model import TopicModel

        self.model = TopicModel.load(Path(self.config.model))
        where = self.config.embedder or self.model.embedder_location(Path(self.config.model))
        self.embedder = Embedder(where, device=device, cache_dir=self.cache_dir, batch_size=self.config.batch_size,
                                 dtype=self.config.dtype)
        if self.embedder.hash != self.model.embedder["hash"]:
            raise ModelError(
                f"the embedder at {self.embedder.path} (hash {self.embedder.hash[:16]}) is not the one "
                f"{self.config.model} was trained with ({self.model.embedder['name']}, hash "
                f"{self.model.embedder['hash'][:16]}); pass --embedder PATH to that exact model or retrain"
            )

    def models(self) -> list[dict]:
        emb, method = self._model_config["embedder"], self._model_config["method"]
        if method == "mlp" and (self._model_config.get("head") or {}).get("hidden") == 0:
            method = "linear"  # the "mlp" trainer without a hidden layer: a linear head
        return [
            {"name": emb["name"], "version": emb["hash"][:12], "files": emb.get("files", {})},
            {"name": f"topic-{method}", "version": self.config.model_hash[:12],
             "files": model_fingerprint(Path(self.config.model))},
        ]

    def process(self, df: pl.DataFrame, ctx: ShardContext) -> ShardResult:
        assert self.model is not None and self.embedder is not None  # setup() ran
        text_config = TextConfig.from_config(self._model_config["text"])
        texts = [dialogue_text(t, text_config) for t in df["turns"].to_list()]
        embedded = self.embedder.embed_texts(texts, text_config)
        calibration = self._model_config.get("calibration") or {}
        probs = (self.model.predict_proba(self.model.inputs(embedded.vectors, df["turns"].to_list(), column_values(df)))
                 if texts else np.zeros((0, len(self.model.labels))))  # the task traits: clean's, or tagged now
        if calibration.get("temperature") and len(probs):
            probs = apply_temperature(probs, calibration["temperature"])
        scores = self.model.topic_scores(probs) if texts else np.zeros((0, 14))
        other = self.model.other_scores(probs) if texts else np.zeros(0)
        topics, groups, rows = [], [], []
        counts: dict[str, int] = {}  # topic (or "(none)") -> dialogues
        reasons: dict[str, int] = {}
        threshold = self.config.abstain_below if self.config.abstain_below is not None else calibration.get("threshold")
        languages = set(self._model_config.get("languages") or ENGLISH_ONLY)
        codes, detected = _languages(df)
        for i, (dialogue_id, language) in enumerate(zip(df["dialogue_id"].to_list(), codes)):
            best = int(scores[i].argmax())
            score = float(scores[i][best])
            detail = {"best": TOPICS[best], "score": round(score, 4), "chunks": embedded.chunks[i],
                      "truncated_tokens": embedded.truncated_tokens[i]}
            if not texts[i]:
                topic, reason = None, "no_text"
            elif language and language not in languages and language != "und":
                # the embedder was not made for this language: no confident guess
                topic, reason = None, "language_unsupported"
                detail["language"] = language
                if detected[i]:
                    detail["language_read_from_text"] = True
            elif other[i] > score:
                topic, reason = None, "off_taxonomy"
                detail["other"] = round(float(other[i]), 4)
            elif threshold is not None and score < threshold:
                topic, reason = None, "low_confidence"
                detail["threshold"] = threshold
            else:
                topic, reason = TOPICS[best], "classified"
            topics.append(topic)
            groups.append(TOPIC_TO_GROUP.get(topic) if topic else None)
            counts[topic or "(none)"] = counts.get(topic or "(none)", 0) + 1
            reasons[reason] = reasons.get(reason, 0) + 1
            rows.append({"dialogue_id": dialogue_id, "stage": STAGE, "decision": "kept", "reason": reason,
                         "detail": detail})
        out = df.with_columns(
            pl.Series("topic", topics, dtype=pl.String),
            pl.Series("topic_group", groups, dtype=pl.String),
            pl.Series("topic_scores", [[round(float(v), 5) for v in row] for row in scores],
                      dtype=pl.List(pl.Float32)),
        )
        stats = {"topics": counts, "reasons": reasons, "chunks": sum(embedded.chunks),
                 "truncated_dialogues": sum(1 for n in embedded.truncated_tokens if n),
                 "cache_hits": embedded.stats.get("cache_hits", 0), "cache_misses": embedded.stats.get("cache_misses", 0)}
        return ShardResult(out, ledger_frame(rows), stats)

    def finalize(self, folder: Path, stats: dict) -> dict:
        from builder.classify.donut import topic_donut


        counts = {t: int(n) for t, n in stats.get("topics", {}).items()}
        labelled = {t: counts.get(t, 0) for t in TOPICS}
        groups = {g: sum(n for t, n in labelled.items() if TOPIC_TO_GROUP[t] == g) for g in ("daily_life", "professional_knowledge")}
        topic_donut(labelled, Path(folder) / "topics.png")
        return {"topics": {"counts": labelled, "groups": groups, "unlabelled": counts.get("(none)", 0),
                           "reasons": dict(sorted((stats.get("reasons") or {}).items()))},
                "figures": ["topics.png"], "model_quality": model_quality(Path(self.config.model))}


def model_quality(folder: Path) -> dict | None:
    """What the release card says of the topic model: its k-fold figures on its training labels."""
    try:
        report = json.loads((folder / "report.json").read_text())
    except (OSError, ValueError):
        return None
    cv = (report.get("cv") or {}).get(report.get("method")) or {}
    if not cv:
        return None
    seed = None
    try:
        seed = json.loads((folder / "seed.json").read_text())
    except (OSError, ValueError):
        pass
    cal = cv.get("calibration") or {}
    return {"n": report.get("n"), "label_counts": report.get("label_counts"), "folds": cv.get("folds"),
            "accuracy": cv.get("accuracy"), "accuracy_ci95": cv.get("accuracy_ci95"), "macro_f1": cv.get("macro_f1"),
            "f1": {k: v.get("f1") for k, v in (cv.get("per_class") or {}).items()},
            "threshold": cal.get("threshold"), "coverage": cal.get("coverage"),
            "accuracy_kept": cal.get("accuracy_kept"), "topical_coverage": cal.get("topical_coverage"),
            "other_recall": cal.get("other_recall"), "embedder": (report.get("embedder") or {}).get("name"),
            "head": report.get("head", "a two-layer MLP"), "trained_on": seed["file"] if seed else None}
