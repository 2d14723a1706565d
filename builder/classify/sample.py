"""`classify sample`: export a CSV of dialogues for annotators to label next.

Columns: ``dialogue_id, source, source_id, proposed_topic, score`` (model strategy),
``cluster, distance`` (clusters strategy), ``preview, topic``. ``topic`` is empty: the
annotator fills it, and the file goes straight back into ``classify train --labels``
(rows left empty are skipped there).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from builder import io
from builder.errors import ConfigError, ModelError
from builder.models import MPNET
from builder.traits import column_values, select_with_traits
from classifiers.topic.labels import listed_ids, read_label_file
from classifiers.topic.sampling import STRATEGIES, by_clusters, by_model
from classifiers.topic.text import TextConfig, dialogue_text

PREVIEW_CHARS = 200


def sample_command(data_dir: Path, out_csv: Path, *, strategy: str, model_dir: Path | None, embedder: str | None,
                   per_topic: int, clusters: int, exclude: Path | None, seed: int, device: str,
                   cache_dir) -> dict:
    from classifiers.topic.embed import Embedder

    if strategy not in STRATEGIES:
        raise ConfigError(f"unknown strategy {strategy!r}; available: {', '.join(STRATEGIES)}")
    if strategy == "model" and model_dir is None:
        raise ConfigError("--strategy model needs --model MODEL_DIR (a first model); or use --strategy clusters")
    io.require_finished(data_dir, "--data")
    data = select_with_traits(io.scan_dialogues(data_dir), ["dialogue_id", "source", "source_id", "turns", "topic"]).collect()
    labelled = set(data.filter(pl.col("topic").is_not_null())["dialogue_id"].to_list())
    if exclude is not None:
        labelled |= listed_ids(read_label_file(exclude), data)
    pool = data.filter(~pl.col("dialogue_id").is_in(list(labelled))).unique("dialogue_id").sort("dialogue_id")
    model = None
    if strategy == "model":
        from classifiers.topic.model import TopicModel

        assert model_dir is not None  # checked above
        model = TopicModel.load(model_dir)
        embedder = model.embedder_location(model_dir) if embedder is None else embedder
        text_config = model.text
    else:
        embedder = embedder or MPNET
        text_config = TextConfig()
    emb = Embedder(embedder, device=device, cache_dir=cache_dir)
    if model is not None and emb.hash != model.embedder["hash"]:
        raise ModelError(f"the embedder {emb.name} is not the one {model_dir} was trained with; "
                         "pass --embedder PATH to that exact model")
    texts = [dialogue_text(t, text_config) for t in pool["turns"].to_list()]
    rows: list[dict] = []
    if texts:
        vectors = emb.embed_texts(texts, text_config).vectors
        if model is not None:
            inputs = model.inputs(vectors, pool["turns"].to_list(), column_values(pool))
            scores = model.topic_scores(model.predict_proba(inputs))
            rows = [{"row": r, "proposed_topic": t, "score": round(s, 4), "cluster": None, "distance": None}
                    for r, t, s in by_model(scores, per_topic)]
        else:
            rows = [{"row": r, "proposed_topic": None, "score": None, "cluster": c, "distance": round(d, 4)}
                    for r, c, d in by_clusters(vectors, clusters, per_topic, seed)]
    ids, sources, source_ids = pool["dialogue_id"], pool["source"], pool["source_id"]
    out = pl.DataFrame(
        [{"dialogue_id": ids[r["row"]], "source": sources[r["row"]], "source_id": source_ids[r["row"]],
          "proposed_topic": r["proposed_topic"], "score": r["score"], "cluster": r["cluster"], "distance": r["distance"],
          "preview": " ".join(texts[r["row"]].split())[:PREVIEW_CHARS], "topic": ""} for r in rows],
        schema={"dialogue_id": pl.String, "source": pl.String, "source_id": pl.String,
                "proposed_topic": pl.String, "score": pl.Float64, "cluster": pl.Int64, "distance": pl.Float64,
                "preview": pl.String, "topic": pl.String},
        orient="row",
    )
    out_csv = Path(out_csv)
    out_csv.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_csv.with_name(f".{out_csv.name}.tmp")
    with io.named_os_errors(tmp):
        out.write_csv(tmp)
    tmp.replace(out_csv)
    return {"pool": pool.height, "excluded": len(labelled), "proposed": out.height,
            "per_topic": out.group_by("proposed_topic" if model is not None else "cluster").len().height}
