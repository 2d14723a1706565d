"""`classify train`: stage folder + label file -> cross-validated report + a model folder.

The model folder is built in ``.NAME.partial`` beside the target and renamed into place
when complete, like a stage output; ``report.json`` beside the weights holds the k-fold
report (accuracy with 95% CI, macro-F1 with CI, per-class precision/recall, confusion).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from builder import io
from builder.errors import OutputExistsError
from builder.traits import column_values, select_with_traits
from classifiers.topic.embed import Embedder
from classifiers.topic.labels import inline_labels, read_label_file, resolve_labels
from classifiers.topic.task_traits import feature_matrix
from classifiers.topic.text import dialogue_text
from classifiers.topic.train import TrainConfig, cross_validate_methods, fit_model


def load_labelled(data_dir: Path, labels_path: Path | None, config: TrainConfig):
    """(dialogue_ids, texts, topics, label report, task-trait features) for the labelled dialogues of
    ``data_dir`` (the traits from its ``traits`` column, tagged afresh where clean never ran)."""
    io.require_finished(data_dir, "--data")
    data = select_with_traits(io.scan_dialogues(data_dir), ["dialogue_id", "source", "source_id", "turns", "topic"]).collect()
    if labels_path is not None:
        labels = resolve_labels(read_label_file(labels_path), data, f"label file {labels_path}")
    else:
        labels = inline_labels(data)
    by_id = dict(zip(labels.dialogue_ids, labels.topics))
    rows = data.filter(pl.col("dialogue_id").is_in(list(by_id))).unique("dialogue_id").sort("dialogue_id")
    ids = rows["dialogue_id"].to_list()
    turns = rows["turns"].to_list()
    texts = [dialogue_text(t, config.text) for t in turns]
    features = feature_matrix(turns, config.traits, column_values(rows))
    return ids, texts, [by_id[i] for i in ids], labels.report, features


def train_command(data_dir: Path, labels_path: Path | None, out_dir: Path, config: TrainConfig, *,
                  device: str, cache_dir, force: bool, log: Callable[[str], None],
                  also: tuple[Path, ...] = ()) -> dict:
    out_dir = Path(out_dir)
    if out_dir.exists() and not force:
        raise OutputExistsError(f"{out_dir} already exists; pass --force to replace it or choose another -o")
    started = time.perf_counter()
    ids, texts, topics, label_report, features = load_labelled(data_dir, labels_path, config)
    log(f"labels: {len(ids)} labelled dialogues ({label_report.get('missing', 0)} label rows matched no dialogue)")
    if also:
        label_report = {**label_report, "also": {}}
    for extra in also:  # e.g. the hand-written seed beside real labelled dialogues: rare topics need both
        more_ids, more_texts, more_topics, _, more_features = load_labelled(Path(extra), None, config)
        seen = set(ids)
        keep = [i for i, d in enumerate(more_ids) if d not in seen]
        ids += [more_ids[i] for i in keep]
        texts += [more_texts[i] for i in keep]
        topics += [more_topics[i] for i in keep]
        features = np.vstack([features, more_features[keep]])
        label_report["also"][str(extra)] = {"dialogues": len(more_ids), "added": len(keep)}
        log(f"labels: +{len(keep)} labelled dialogues from {extra} (their own topic field)")
    embedder = Embedder(config.embedder, device=device, cache_dir=cache_dir)
    t0 = time.perf_counter()
    embedded = embedder.embed_texts(texts, config.text)
    embed_s = time.perf_counter() - t0
    cv = cross_validate_methods(texts, topics, embedder, config, device=device, log=log, features=features)
    partial = out_dir.parent / f".{out_dir.name}.partial"
    if partial.exists():
        shutil.rmtree(partial)
    partial.mkdir(parents=True)
    t0 = time.perf_counter()
    model, _ = fit_model(texts, topics, embedder, config, folder=partial, device=device, features=features)
    calibration = cv[config.method]["calibration"]
    model.extra["calibration"] = {k: calibration[k] for k in ("temperature", "threshold", "target_accuracy",
                                                              "target_met", "coverage", "accuracy_kept",
                                                              "topical_coverage", "other_recall")
                                  if k in calibration}
    log(f"calibration: temperature {calibration['temperature']} (expected calibration error out of fold "
        f"{calibration['ece']['uncalibrated']} -> {calibration['ece']['calibrated']}), "
        f"abstain below {calibration['threshold']} "
        f"(out of fold: {calibration['coverage']:.0%} kept at {calibration['accuracy_kept']:.1%} accuracy; "
        f"target {calibration['target_accuracy']:.0%}{'' if calibration['target_met'] else ' NOT reached'})")
    fit_s = time.perf_counter() - t0
    model.save(partial)
    report = {
        "method": config.method,
        "head": model.describe(),
        "embedder": {"name": embedder.name, "hash": embedder.hash},
        "data": {"path": str(data_dir), "content_hash": io.require_finished(data_dir).get("output_hash")},
        "labels": label_report,
        "n": len(ids),
        "label_counts": {t: topics.count(t) for t in model.labels},
        "chunks": {"total": sum(embedded.chunks), "truncated_dialogues": sum(1 for n in embedded.truncated_tokens if n)},
        "cv": cv,
        "timings": {"embed_s": round(embed_s, 2), "fit_s": round(fit_s, 2),
                    "total_s": round(time.perf_counter() - started, 2)},
        "cache": {"hits": embedder.cache.hits, "misses": embedder.cache.misses},
    }
    (partial / "report.json").write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    (partial / "train_ids.json").write_text(json.dumps(dict(zip(ids, topics)), indent=1, sort_keys=True) + "\n")
    if out_dir.exists():
        shutil.rmtree(out_dir)
    partial.rename(out_dir)
    return report


def format_report(report: dict) -> list[str]:
    """The human summary `classify train` prints."""
    lines = [f"trained {report['method']} on {report['n']} dialogues, "
             f"{len(report['label_counts'])} topics ({report['embedder']['name']})"]
    for method, cv in report["cv"].items():
        lo, hi = cv["accuracy_ci95"]
        flo, fhi = cv["macro_f1_ci95"]
        lines.append(f"{method:>7}: {cv['folds']}-fold accuracy {cv['accuracy']:.3f} [95% CI {lo:.3f}, {hi:.3f}]"
                     f"  macro-F1 {cv['macro_f1']:.3f} [{flo:.3f}, {fhi:.3f}]"
                     f"  fold mean {cv['fold_accuracy_mean']:.3f} +- {cv['fold_accuracy_std']:.3f}")
    cv = report["cv"][report["method"]]
    lines.append(f"{'topic':<12} {'prec':>6} {'recall':>6} {'f1':>6} {'n':>4}")
    for label, row in cv["per_class"].items():
        lines.append(f"{label:<12} {row['precision']:>6.3f} {row['recall']:>6.3f} {row['f1']:>6.3f} {row['support']:>4}")
    labels = cv["confusion"]["labels"]
    short = [name[:4] for name in labels]
    lines.append("confusion (rows = truth): " + " ".join(f"{s:>4}" for s in short))
    for label, row in zip(labels, cv["confusion"]["matrix"]):
        lines.append(f"  {label:<23} " + " ".join(f"{v:>4}" for v in row))
    return lines
