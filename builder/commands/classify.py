"""`mmrc-build classify train|predict|sample`: the 14-topic classifier (options -> functions)."""

from __future__ import annotations

from pathlib import Path

import click

from builder.commands.common import executor_options, executor_spec
from builder.models import MPNET
from classifiers.topic.mlp import MLPConfig

_dir = click.Path(path_type=Path, file_okay=False)
_file = click.Path(path_type=Path, dir_okay=False)


def _cache_options(fn):
    fn = click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache on disk.")(fn)
    fn = click.option("--cache", "cache_dir", type=_dir, default=None,
                      help="Embedding cache folder (default: $MMRC_CACHE/embeddings or "
                           "~/.cache/mmrc-build/embeddings); keyed by (embedder hash, text hash).")(fn)
    fn = click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda or cuda:N.")(fn)
    return fn


def _cache(cache_dir, no_cache):
    return False if no_cache else (cache_dir if cache_dir is not None else True)


@click.group("classify")
def command():
    """Label dialogues with the 14 MMRC topics: train a model, predict (the stage), sample for annotators."""


@command.command("train")
@click.option("--data", "data_dir", type=_dir, required=True, help="A finished stage folder (e.g. work/clean).")
@click.option("--labels", "labels_path", type=_file, default=None,
              help="CSV/JSONL with `topic` and `dialogue_id` (or `source_id`, optionally `source`); "
                   "default: the `topic` already in --data.")
@click.option("--also", "also", type=_dir, multiple=True,
              help="Another finished folder whose records carry their `topic` (repeatable): trained on together "
                   "with --data, e.g. the hand-written seed beside real labelled dialogues.")
@click.option("-o", "--output", "out_dir", type=_dir, required=True, help="Model folder to write.")
@click.option("--embedder", default=MPNET, show_default=True,
              help="Name in the models folder or path to a sentence-transformers folder.")
@click.option("--method", type=click.Choice(["mlp", "setfit"]), default="mlp", show_default=True,
              help="mlp: frozen embeddings + a head (see --hidden); setfit: contrastive fine-tuning first.")
@click.option("--compare", is_flag=True, help="Also cross-validate the other method on the same folds.")
@click.option("--folds", default=5, show_default=True, help="Stratified k for cross-validation.")
@click.option("--seed", default=0, show_default=True, help="Seed for folds, init, dropout and batch order.")
@click.option("--epochs", default=MLPConfig.epochs, show_default=True, help="MLP training epochs (--hidden > 0).")
@click.option("--hidden", default=MLPConfig.hidden, show_default=True,
              help="Head width: 0 = a linear head (logistic regression; generalises best to chat from other "
                   "sources, bench/classify_seed.py); 256 = MMRC's two-layer MLP.")
@click.option("--prototype-weight", default=MLPConfig.prototype_weight, show_default=True,
              help="Scale of the dialogue's similarity to each topic's description, read beside its vector "
                   "(classifiers/topic/prototypes.py); 0 = vector only.")
@click.option("--pairs", default=8, show_default=True, help="setfit: contrastive pairs per labelled dialogue.")
@click.option("--order", type=click.Choice(["user_first", "chronological"]), default="user_first",
              show_default=True, help="How turns are ordered in the embedded text.")
@click.option("--max-chunks", default=1, show_default=True,
              help="Token windows pooled per dialogue: 1 = one forward pass per dialogue (MMRC's cost); "
                   "more = the multi-window mode (slower, see bench/classify.py).")
@click.option("--languages", default="en", show_default=True,
              help="Languages the embedder reads (ISO 639-1, comma-separated; a multilingual embedder may "
                   "list several); predict gives other languages language_unsupported.")
@click.option("--window", default=256, show_default=True,
              help="Tokens per window (capped at the embedder's max length).")
@_cache_options
@click.option("--force", is_flag=True, help="Replace an existing model folder.")
def train(data_dir, labels_path, also, out_dir, embedder, method, compare, folds, seed, epochs, hidden,
          prototype_weight, pairs,
          order, max_chunks, languages, window, device, cache_dir, no_cache, force):
    """Embed the labelled dialogues, cross-validate, train on all of them and save the model."""
    from builder.classify.training import format_report, train_command
    from builder.engine import resolve_device
    from classifiers.topic.contrastive import ContrastiveConfig
    from classifiers.topic.text import TextConfig
    from classifiers.topic.train import TrainConfig

    config = TrainConfig(embedder=embedder, method=method, folds=folds, seed=seed, compare=compare,
                         text=TextConfig(order=order, max_chunks=max_chunks, window=window),
                         languages=tuple(sorted({c.strip().lower() for c in languages.split(",") if c.strip()})),
                         mlp=MLPConfig(hidden=hidden, epochs=epochs, prototype_weight=prototype_weight),
                         contrastive=ContrastiveConfig(pairs_per_item=pairs))
    report = train_command(data_dir, labels_path, out_dir, config, device=resolve_device(device),
                           cache_dir=_cache(cache_dir, no_cache), force=force, log=click.echo, also=also)
    for line in format_report(report):
        click.echo(line)
    click.echo(f"model written to {out_dir} (report.json has the full k-fold report)")


@command.command("predict")
@click.argument("input_dir", type=_dir)
@click.option("-o", "--output", "out_dir", type=_dir, required=True, help="Output stage folder (work/classified).")
@click.option("--model", "model_dir", type=_dir, default=None,
              help="A model folder made by `classify train` (default: $MMRC_MODELS/mmrc-topics, the model "
                   "`mmrc-build models` trains on the real seed bundled with mmrc-build).")
@click.option("--embedder", default=None,
              help="Where to find the embedder (default: the one named in the model); must match its hash.")
@click.option("--abstain-below", type=float, default=None,
              help="Leave topic empty (ledger: low_confidence) when the best calibrated score is below this "
                   "(default: the threshold chosen on held-out folds at training, in the model's config.json; "
                   "0 keeps every label).")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help="Embedding batch size (default: 256 on CUDA, 32 elsewhere).")
@click.option("--dtype", type=click.Choice(["float32", "bfloat16"]), default=None,
              help="Embedder precision (default: bfloat16 on CUDA, float32 elsewhere): bfloat16 is ~2.6x faster on "
                   "CPUs with native bf16 (vectors at cosine >= 0.9997 to float32), slower on others.")
@_cache_options
@click.option("--force", is_flag=True, help="Rebuild an output made from another input or config.")
@executor_options
def predict(input_dir, out_dir, model_dir, embedder, abstain_below, batch_size, dtype, device, cache_dir, no_cache,
            force, executor, workers, address, cpus_per_worker, gpus_per_worker, quiet):
    """The stage: add topic, topic_group and topic_scores; write topics.png and counts to the manifest."""
    from builder.classify.stage import ClassifyStage, make_config
    from builder.devices import worker_device
    from builder.engine import run_stage

    if model_dir is None:
        from builder.classify import default_model

        model_dir = default_model.require()
        click.echo(f"classify: the default topic model {model_dir} (trained on the bundled real seed)")
    spec = executor_spec(executor, workers, address, cpus_per_worker, gpus_per_worker)
    config = make_config(model_dir, embedder, abstain_below, batch_size, dtype,
                         device=worker_device(device, spec.gpus_per_worker))
    stage = ClassifyStage(config, _cache(cache_dir, no_cache))
    manifest = run_stage(stage, input_dir, out_dir, force=force, device=device, log=click.echo, quiet=quiet,
                         executor=spec)
    rows, topics = manifest["rows"], manifest.get("topics", {})
    why = ", ".join(f"{k} {v}" for k, v in (topics.get("reasons") or {}).items() if k != "classified")
    click.echo(f"classify: {rows['in']} dialogues, {rows['in'] - topics.get('unlabelled', 0)} with a topic, "
               f"{topics.get('unlabelled', 0)} without ({why or 'none'}) -> {out_dir}")


@command.command("sample")
@click.option("--data", "data_dir", type=_dir, required=True, help="A finished stage folder to sample from.")
@click.option("-o", "--output", "out_csv", type=_file, required=True, help="CSV to write for annotators.")
@click.option("--model", "model_dir", type=_dir, default=None, help="A first model to stratify by its predictions.")
@click.option("--strategy", type=click.Choice(["model", "clusters"]), default=None,
              help="model (needs --model) or clusters (k-means on embeddings); default: model if --model is given.")
@click.option("--embedder", default=None, help=f"Embedder for clusters (default {MPNET}) or to override the model's.")
@click.option("--per-topic", default=10, show_default=True, help="Dialogues proposed per topic (or per cluster).")
@click.option("--clusters", default=14, show_default=True, help="Number of k-means clusters.")
@click.option("--exclude", type=_file, default=None, help="A label file whose dialogues are already labelled.")
@click.option("--seed", default=0, show_default=True, help="k-means seed.")
@_cache_options
def sample(data_dir, out_csv, model_dir, strategy, embedder, per_topic, clusters, exclude, seed, device,
           cache_dir, no_cache):
    """Propose unlabelled dialogues for annotators, stratified by a first model or by clusters."""
    from builder.classify.sample import sample_command
    from builder.engine import resolve_device

    strategy = strategy or ("model" if model_dir is not None else "clusters")
    summary = sample_command(data_dir, out_csv, strategy=strategy, model_dir=model_dir, embedder=embedder,
                             per_topic=per_topic, clusters=clusters, exclude=exclude, seed=seed,
                             device=resolve_device(device), cache_dir=_cache(cache_dir, no_cache))
    click.echo(f"proposed {summary['proposed']} of {summary['pool']} unlabelled dialogues "
               f"({summary['excluded']} already labelled) -> {out_csv}")
