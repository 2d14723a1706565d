"""The labelled seed of REAL dialogues (classifiers/topic/seed_real/labels.csv), rebuilt from
``../shared/data`` at run time: the repository keeps labels, ids and hashes only, never text.

Each row of ``labels.csv`` names a dialogue in a public dataset:

* ``dataset``     ``wildchat`` | ``oasst`` | ``topical_chat`` | ``chitchat``
* ``source``      the file, relative to the shared data folder (``logs/wildchat/wildchat_<id>.json``)
* ``source_id``   the id ingest records for it (WildChat id, OASST leaf message id,
  Topical-Chat ``<conversation id>#<entity>`` unit as in :mod:`classifiers.topic.topical_chat`,
  chitchat-dataset conversation key: its ``dataset.json`` comes from the PyPI wheel
  ``chitchat-dataset==0.9.0``, found through ``$MMRC_CHITCHAT_JSON`` or the installed package)
* ``dialogue_id`` the canonical content-hash id (what ``mmrc-build ingest`` writes)
* ``text_sha256`` sha256 of the dialogue's turns (:func:`turns_sha256`): a changed upstream is detected
* ``topic``       one of records.TOPICS, or ``Other``
* ``note``        why a hard call went the way it did (optional)

:func:`load_seed` reads every referenced file with the ingest readers (the same parsing and
normalisation as ``mmrc-build ingest``), finds each row's dialogue and checks its hash. A row
whose file or dialogue is missing, or whose hash differs, is never dropped silently: it is
listed in ``SeedSet.problems`` (and ``strict=True`` raises with the list).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from builder.errors import ValidationError
from builder.records import OTHER, TOPICS

HERE = Path(__file__).resolve().parent
LABELS = HERE / "seed_real" / "labels.csv"
COLUMNS = ("dataset", "source", "source_id", "dialogue_id", "text_sha256", "topic", "note")
DATASETS = ("wildchat", "oasst", "topical_chat", "chitchat")
CHITCHAT_SOURCE = "chitchat_dataset/dataset.json"


def default_data_root() -> Path:
    """``../shared/data`` beside the repository (see SOURCES.md there)."""
    return HERE.parents[2] / "shared" / "data"


def turns_sha256(turns: list[dict]) -> str:
    """sha256 over the (role, text) pairs of the normalised turns, in order."""
    pairs = [[t["role"], t["text"]] for t in turns]
    return hashlib.sha256(json.dumps(pairs, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()


@dataclass
class SeedItem:
    dataset: str
    source: str
    source_id: str
    dialogue_id: str
    topic: str
    note: str
    turns: list[dict]


@dataclass
class SeedSet:
    items: list[SeedItem]
    problems: list[dict] = field(default_factory=list)  # {source, source_id, problem, detail}
    rows: int = 0

    def counts(self, datasets: bool = False) -> dict:
        out: dict = {}
        for t in list(TOPICS) + [OTHER]:
            mine = [i for i in self.items if i.topic == t]
            if not mine:
                continue
            if datasets:
                out[t] = {d: sum(1 for i in mine if i.dataset == d) for d in DATASETS if any(i.dataset == d for i in mine)}
                out[t]["total"] = len(mine)
            else:
                out[t] = len(mine)
        return out

    def report(self) -> dict:
        return {"rows": self.rows, "loaded": len(self.items), "problems": len(self.problems),
                "problem_rows": self.problems}


def read_labels(path: Path = LABELS) -> pl.DataFrame:
    path = Path(path)
    if not path.is_file():
        raise ValidationError(f"seed label file {path} does not exist")
    df = pl.read_csv(path, infer_schema=False)
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValidationError(f"{path}: missing column(s) {missing}; expected {', '.join(COLUMNS)}")
    bad_topic = sorted(set(df["topic"].to_list()) - set(TOPICS) - {OTHER})
    if bad_topic:
        raise ValidationError(f"{path}: unknown topic(s) {bad_topic}; use one of {', '.join(TOPICS)} or {OTHER}")
    bad_ds = sorted(set(df["dataset"].to_list()) - set(DATASETS))
    if bad_ds:
        raise ValidationError(f"{path}: unknown dataset(s) {bad_ds}; expected one of {', '.join(DATASETS)}")
    dupes = df.group_by("dataset", "source", "source_id").len().filter(pl.col("len") > 1)
    if dupes.height:
        raise ValidationError(f"{path}: {dupes.height} dialogue(s) labelled twice, e.g. {dupes.row(0)}")
    return df.with_columns(pl.col("note").fill_null(""))


class _NoImages:
    """The seed's logs carry no images; a reference to one is reported, not fetched."""

    def resolve(self, ref, base_dir):
        from builder.ingest.records import RecordError

        raise RecordError("unsupported_image", f"image reference {str(ref)[:60]!r} in a text-only seed source")


def read_log(path: Path, rel: str) -> dict[str, dict]:
    """source_id -> canonical row for every dialogue ingest would make from one log file
    (turn-count and duplicate filters aside: they do not change a dialogue)."""
    from builder.ingest.config import IngestConfig
    from builder.ingest.normalise import normalise
    from builder.ingest.readers import iter_file, resolve_format
    from builder.ingest.records import Quarantined, RecordError

    config, rows = IngestConfig(), {}
    for item in iter_file(path, resolve_format(path)):
        if isinstance(item, Quarantined):
            continue
        try:
            row, _ = normalise(item, rel, path.parent, _NoImages(), config, b"seed-loader")
        except RecordError:
            continue
        rows[row["source_id"]] = row
    return rows


def chitchat_json() -> Path | None:
    """chitchat-dataset's dataset.json: ``$MMRC_CHITCHAT_JSON``, else the installed package's."""
    import importlib.util
    import os

    env = os.environ.get("MMRC_CHITCHAT_JSON")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("chitchat_dataset")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "dataset.json"


def chitchat_dialogue(key: str, conversation: dict) -> dict:
    """One chitchat conversation as a canonical row: each sender's block of messages is one turn
    (their lines joined by newlines); the first sender speaks as ``user``, the other as ``assistant``."""
    from builder.records import dialogue_id

    turns: list[dict] = []
    first = None
    for block in conversation.get("messages") or []:
        if not block:
            continue
        sender = block[0].get("sender")
        first = sender if first is None else first
        text = "\n".join(str(m.get("text") or "").strip() for m in block if str(m.get("text") or "").strip())
        if text:
            turns.append({"index": len(turns), "role": "user" if sender == first else "assistant",
                          "text": text, "images": []})
    return {"dialogue_id": dialogue_id(turns), "source": CHITCHAT_SOURCE, "source_id": key, "turns": turns}


def _chitchat() -> dict[str, dict] | None:
    path = chitchat_json()
    if path is None or not path.is_file():
        return None
    data = json.loads(path.read_text())
    return {key: chitchat_dialogue(key, conv) for key, conv in data.items()}


def _topical_chat(root: Path) -> dict[str, dict]:
    from classifiers.topic.topical_chat import load_units

    return {u["source_id"]: u for u in load_units(root / "topics")}


def load_seed(data_root: Path | None = None, labels: Path = LABELS, strict: bool = False) -> SeedSet:
    """The labelled dialogues, verified against their hashes; problems listed, never dropped silently."""
    root = Path(data_root) if data_root is not None else default_data_root()
    if not root.is_dir():
        raise FileNotFoundError(f"{root} not present: the real seed is rebuilt from ../shared/data (see SOURCES.md)")
    df = read_labels(labels)
    cache: dict[str, dict[str, dict] | None] = {}
    items, problems = [], []
    for row in df.iter_rows(named=True):
        key = {"topical_chat": "topics", "chitchat": CHITCHAT_SOURCE}.get(row["dataset"], row["source"])
        if key not in cache:
            if row["dataset"] == "chitchat":
                cache[key] = _chitchat()
            elif row["dataset"] == "topical_chat":
                present = (root / "topics").is_dir()
                cache[key] = _topical_chat(root) if present else None
            else:
                path = root / row["source"]
                cache[key] = read_log(path, row["source"]) if path.is_file() else None
        found = cache[key]
        where = {"source": row["source"], "source_id": row["source_id"], "topic": row["topic"]}
        if found is None:
            problems.append({**where, "problem": "missing_file", "detail": f"{root / row['source']} does not exist"})
            continue
        dialogue = found.get(row["source_id"])
        if dialogue is None:
            problems.append({**where, "problem": "missing_dialogue",
                             "detail": f"no dialogue with source_id {row['source_id']} in {row['source']}"})
            continue
        digest = turns_sha256(dialogue["turns"])
        if digest != row["text_sha256"]:
            problems.append({**where, "problem": "hash_mismatch",
                             "detail": f"text sha256 {digest[:12]}… differs from the labelled {row['text_sha256'][:12]}…;"
                                       " the upstream text changed: re-read it and relabel"})
            continue
        items.append(SeedItem(row["dataset"], row["source"], row["source_id"], dialogue["dialogue_id"],
                              row["topic"], row["note"], dialogue["turns"]))
    seed = SeedSet(items, problems, df.height)
    if strict and problems:
        lines = "; ".join(f"{p['source']} {p['source_id']}: {p['problem']}" for p in problems[:5])
        raise ValidationError(f"{len(problems)} of {df.height} seed labels do not verify ({lines}"
                              f"{' …' if len(problems) > 5 else ''})")
    return seed
