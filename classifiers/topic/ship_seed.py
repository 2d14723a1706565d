"""Write the shipped real topic seed, ``classifiers/topic/seed_real/dialogues.jsonl``, from its
label file and the public sources (a maintainer tool; users train on the file it writes).

Every row of ``seed_real/labels.csv`` is loaded and verified by :func:`real_seed.load_seed`
(WildChat, OpenAssistant and Topical-Chat from ``../shared/data``, chitchat-dataset from its
PyPI wheel via ``$MMRC_CHITCHAT_JSON``). Then:

1. **cut to what the classifier reads**: the first ``MAX_TURNS`` turns, a user turn to
   ``USER_CHARS`` characters and an assistant turn to ``ASSISTANT_CHARS`` (cut at a space, marked
   ``[…]``); the embedder reads the user turns first and 256 tokens of them;
2. **scrubbed like a release**: the cut dialogues go through ``mmrc-build ingest`` and
   ``mmrc-build clean --toxicity-backend lexicon`` (PII replaced by placeholders, toxic dialogues
   dropped); a dialogue clean drops is left out and counted;
3. written in the ``native`` format with the label (``topic``), its one-line ``reason``, the
   ``dataset``, its ``licence`` and the ``source_id`` in the public dataset.

Run: ``MMRC_CHITCHAT_JSON=.../chitchat_dataset/dataset.json .venv/bin/python -m classifiers.topic.ship_seed``
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from classifiers.topic.real_seed import HERE, load_seed

OUT = HERE / "seed_real" / "dialogues.jsonl"
VECTORS = HERE / "seed_real" / "embeddings.npy"  # all-mpnet-base-v2 vectors of the seed's text windows
VECTORS_META = HERE / "seed_real" / "embeddings.json"  # {embedder, hash, keys: [window text sha256, ...]}
MAX_TURNS = 8
USER_CHARS = 2000
ASSISTANT_CHARS = 800
MIN_TURNS = 4  # a chitchat label on a one- or two-line chat has too little text to learn from
LICENCES = {"wildchat": "odc-by", "oasst": "apache-2.0", "topical_chat": "cdla-sharing-1.0", "chitchat": "mit"}


def cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[:limit]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip() + " […]"


def cut_turns(turns: list[dict]) -> list[dict]:
    """Consecutive turns of one speaker joined (a Topical-Chat unit keeps only the messages on its
    entity, so one agent can speak twice in a row, which ingest would quarantine), then cut."""
    joined: list[dict] = []
    for t in turns:
        if joined and joined[-1]["role"] == t["role"]:
            joined[-1]["text"] += "\n" + t["text"]
        else:
            joined.append({"role": t["role"], "text": t["text"]})
    return [{"role": t["role"], "text": cut(t["text"], USER_CHARS if t["role"] == "user" else ASSISTANT_CHARS)}
            for t in joined[:MAX_TURNS]]


def build(out: Path = OUT, log=print) -> dict:
    from click.testing import CliRunner

    import polars as pl

    from builder import io
    from builder.cli import main

    seed = load_seed(strict=True)
    rows = {f"{i.dataset}:{i.source_id}": i for i in seed.items}
    too_short = sorted(k for k, i in rows.items() if i.dataset == "chitchat" and len(i.turns) < MIN_TURNS)
    rows = {k: i for k, i in rows.items() if k not in too_short}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "raw").mkdir()
        with open(tmp / "raw" / "seed.jsonl", "w", encoding="utf-8") as fh:
            for key, item in sorted(rows.items()):
                fh.write(json.dumps({"source_id": key, "language": None, "turns": cut_turns(item.turns)},
                                    ensure_ascii=False) + "\n")
        runner = CliRunner()
        for args in (["ingest", str(tmp / "raw"), "-o", str(tmp / "ingested"), "--min-turns", "1", "--quiet"],
                     ["clean", str(tmp / "ingested"), "-o", str(tmp / "clean"), "--toxicity-backend", "lexicon",
                      "--quiet"]):
            result = runner.invoke(main, args)
            if result.exit_code != 0:
                raise SystemExit(f"{args[0]} failed: {result.output[-2000:]}")
        cleaned = pl.concat([pl.read_parquet(p) for p in io.parts(tmp / "clean")])
        ingest_ledger = pl.read_parquet(tmp / "ingested" / io.LEDGER)
        ledger = pl.read_parquet(tmp / "clean" / io.LEDGER)
    kept = {r["source_id"]: r for r in cleaned.select("source_id", "turns", "language").to_dicts()}
    written, left_out = [], {}
    for key, item in sorted(rows.items(), key=lambda kv: (kv[1].dataset, kv[1].source_id)):
        row = kept.get(key)
        if row is None:
            left_out[key] = item.topic
            continue
        written.append({"source_id": item.source_id, "topic": item.topic, "reason": item.note,
                        "dataset": item.dataset, "licence": LICENCES[item.dataset], "language": row["language"],
                        "turns": [{"role": t["role"], "text": t["text"]} for t in row["turns"]]})
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in written), encoding="utf-8")
    dropped = ledger.filter(pl.col("decision") == "dropped").group_by("reason").len().sort("reason").rows()
    ingest_dropped = (ingest_ledger.filter(pl.col("decision") != "kept").group_by("reason").len().sort("reason")
                      .rows())
    report = {"labelled": len(rows) + len(too_short), "written": len(written), "too_short": too_short,
              "left_out": left_out,
              "ingest_dropped": dict(ingest_dropped), "clean_dropped": dict(dropped)}
    log(json.dumps(report, indent=1))
    return report


# -- merging an annotation round into labels.csv --------------------------------------------
ANNOTATION = HERE / "seed_real" / "annotation"


def merge(files: list[Path], reasons: Path | None = None, relabel: dict[str, str] | None = None,
          min_turns: int = MIN_TURNS, log=print) -> dict:
    """Add the rows of annotation CSVs (``dataset,source_id,topic,reason``) to ``labels.csv`` with
    their ids and text hashes; fill ``note`` from a reasons CSV (``dataset,source_id,topic,reason``)
    for rows already there; ``relabel`` maps ``dataset:source_id`` to a corrected topic (a second
    reader's disagreement that was accepted; the note says so). Rows already labelled are not added twice."""
    import csv

    import polars as pl

    from classifiers.topic.real_seed import (CHITCHAT_SOURCE, LABELS, _chitchat, default_data_root, read_labels,
                                             read_log, turns_sha256)

    labels = read_labels(LABELS)
    have = {f"{d}:{s}" for d, s in zip(labels["dataset"], labels["source_id"])}
    chitchat = None
    added: list[dict] = []
    skipped: list[str] = []
    not_ingestable: list[str] = []
    too_short: list[str] = []
    for path in files:
        with open(path, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                key = f"{row['dataset']}:{row['source_id']}"
                if key in have:
                    skipped.append(key)
                    continue
                if row["dataset"] == "chitchat":
                    chitchat = chitchat if chitchat is not None else _chitchat()
                    if chitchat is None:
                        raise SystemExit(f"{path}: chitchat rows need chitchat-dataset's dataset.json; install the "
                                         "chitchat-dataset package or set MMRC_CHITCHAT_JSON")
                    dialogue, source = chitchat[row["source_id"]], CHITCHAT_SOURCE
                    if len(dialogue["turns"]) < min_turns:  # a one- or two-line chat: too little to learn from
                        too_short.append(key)
                        continue
                elif row["dataset"] == "wildchat":
                    source = f"logs/wildchat/{row['source_id']}.json"
                    logged = read_log(default_data_root() / source, source).get(row["source_id"])
                    if logged is None:  # ingest quarantines it (e.g. two assistant turns in a row)
                        not_ingestable.append(key)
                        continue
                    dialogue = logged
                else:
                    raise SystemExit(f"{path}: dataset {row['dataset']!r} is not merged by this tool")
                have.add(key)
                added.append({"dataset": row["dataset"], "source": source, "source_id": row["source_id"],
                              "dialogue_id": dialogue["dialogue_id"], "text_sha256": turns_sha256(dialogue["turns"]),
                              "topic": row["topic"], "note": " ".join(row["reason"].split())})
    notes = {}
    if reasons is not None:
        with open(reasons, newline="", encoding="utf-8") as fh:
            notes = {f"{r['dataset']}:{r['source_id']}": " ".join(r["reason"].split()) for r in csv.DictReader(fh)}
    relabel = relabel or {}
    rows = []
    for row in labels.iter_rows(named=True):
        key = f"{row['dataset']}:{row['source_id']}"
        row["note"] = notes.get(key) or row["note"]
        if key in relabel and relabel[key] != row["topic"]:
            row["note"] = f"relabelled {row['topic']} -> {relabel[key]} on a second reading: {row['note']}"
            row["topic"] = relabel[key]
        rows.append(row)
    merged = pl.DataFrame(rows + added, schema={c: pl.String for c in labels.columns}).sort("dataset", "source_id")
    merged.write_csv(LABELS)
    report = {"added": len(added), "already_labelled": len(skipped), "not_ingestable": not_ingestable,
              "too_short": too_short,
              "notes_filled": len(notes),
              "relabelled": sum(1 for r in rows if r["note"].startswith("relabelled ")), "rows": merged.height}
    log(json.dumps(report))
    return report


def counts_table(path: Path = OUT) -> str:
    """Markdown: dialogues per topic and dataset in the shipped file (for the README)."""
    from builder.records import OTHER, TOPICS

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    datasets = sorted({r["dataset"] for r in rows})
    lines = ["| topic | " + " | ".join(datasets) + " | total |", "|---|" + "---:|" * (len(datasets) + 1)]
    for topic in (*TOPICS, OTHER):
        mine = [r for r in rows if r["topic"] == topic]
        cells = [str(sum(1 for r in mine if r["dataset"] == d) or "–") for d in datasets]
        lines.append(f"| {topic} | " + " | ".join(cells) + f" | **{len(mine)}** |")
    lines.append("| **all** | " + " | ".join(str(sum(1 for r in rows if r["dataset"] == d)) for d in datasets)
                 + f" | **{len(rows)}** |")
    return "\n".join(lines)



def write_vectors(path: Path = OUT) -> dict:
    """Embed the shipped seed's text windows once, as training reads them (default TextConfig,
    all-mpnet-base-v2), and ship the vectors: ``mmrc-build models`` then trains without two
    minutes of embedding on a CPU. They are a cache keyed by the embedder's content hash and each
    window's text hash: any other embedder, or a changed text, is embedded afresh."""
    import numpy as np

    from builder.models import MPNET
    from classifiers.topic.embed import Embedder
    from classifiers.topic.text import TextConfig, dialogue_text

    emb = Embedder(MPNET, device="cpu")
    config = TextConfig()
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    texts = [dialogue_text([{**t, "images": []} for t in r["turns"]], config) for r in rows]
    found = emb.encode_chunks([c for t in texts for c in emb.chunk(t, config).chunks])
    keys = sorted(found)
    np.save(VECTORS, np.stack([found[k] for k in keys]).astype(np.float32), allow_pickle=False)
    VECTORS_META.write_text(json.dumps({"embedder": emb.name, "hash": emb.hash, "text": config.__dict__,
                                        "keys": keys}, indent=0) + "\n")
    return {"windows": len(keys)}


if __name__ == "__main__":
    build()
    print(write_vectors())
    print(counts_table())
    sys.exit(0)
