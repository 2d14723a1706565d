"""`mmrc-build swap`: add text-to-image modality-swap variants (MMRC §3)."""

from __future__ import annotations

from pathlib import Path

import click

from builder.commands.common import executor_options, executor_spec

from builder.swap.config import SwapConfig

DEFAULTS = SwapConfig()


@click.command("swap")
@click.argument("input_dir", type=click.Path(path_type=Path))
@click.option("-o", "--output", "output_dir", type=click.Path(path_type=Path), required=True,
              help="Output stage folder (e.g. work/swapped).")
@click.option("--image-bank", type=click.Path(path_type=Path), default=None,
              help="Image bank folder with captions.csv (image,caption) and the images (default: the demo bank "
                   "bundled with mmrc-build, 44 drawings: a real corpus needs a bigger one).")
@click.option("--image-source", default=DEFAULTS.image_source, show_default=True,
              help="Where images come from: bank (caption retrieval) or diffusion (text-to-image, GPU).")
@click.option("--count", type=int, default=DEFAULTS.count, show_default=True,
              help="Number of variants to make (MMRC made 100).")
@click.option("--seed", type=int, default=DEFAULTS.seed, show_default=True,
              help="Seed of the dialogue order the selection walks.")
@click.option("--threshold", type=float, default=DEFAULTS.threshold, show_default=True,
              help="Minimum retrieval score; spans with no image this good are rejected (no_matching_image).")
@click.option("--span-weight", type=float, default=DEFAULTS.span_weight, show_default=True,
              help="Weight of the span vs. its sentence in the retrieval score.")
@click.option("--top-k", type=int, default=DEFAULTS.top_k, show_default=True,
              help="Images considered per span.")
@click.option("--swaps-per-dialogue", type=int, default=DEFAULTS.swaps_per_dialogue, show_default=True,
              help="Spans swapped per variant (at most one per turn).")
@click.option("--max-candidates", type=int, default=DEFAULTS.max_candidates, show_default=True,
              help="Candidate spans tried per dialogue, most picturable first.")
@click.option("--embedder", default=DEFAULTS.embedder, show_default=True,
              help="Sentence-transformers model name (in the models folder) or path.")
@click.option("--t2i-model", type=click.Path(path_type=Path), default=None,
              help="Local diffusers pipeline folder for --image-source diffusion.")
@click.option("--t2i-steps", type=int, default=DEFAULTS.t2i_steps, show_default=True,
              help="Inference steps for --image-source diffusion.")
@click.option("--embedder-dtype", type=click.Choice(["float32", "bfloat16"]), default=None,
              help=f"Embedder precision (default: bfloat16 on CUDA, {DEFAULTS.embedder_dtype} elsewhere).")
@click.option("--embedder-batch", type=click.IntRange(min=1), default=None,
              help=f"Embedding batch size (default: 256 on CUDA, {DEFAULTS.embedder_batch} elsewhere).")
@click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda or cuda:N.")
@click.option("--force", is_flag=True, help="Rebuild even if the output folder holds another finished run.")
@executor_options
def command(input_dir, output_dir, image_bank, image_source, count, seed, threshold, span_weight, top_k,
            swaps_per_dialogue, max_candidates, embedder, t2i_model, t2i_steps, embedder_dtype, embedder_batch, device,
            force,
            executor, workers, address, cpus_per_worker, gpus_per_worker, quiet):
    """Add modality-swap variants: a named thing in a user turn becomes an image.

    Originals are kept; each variant is a new dialogue linked by variant_of. The report
    (also in OUTPUT/swap_report.json) says how many were found, swapped and rejected.
    """
    from builder.devices import worker_device
    from builder.engine import run_stage
    from builder.swap.stage import SwapStage
    from builder.swap.summary import source_line
    from classifiers.topic.embed import embedding_precision

    spec = executor_spec(executor, workers, address, cpus_per_worker, gpus_per_worker)
    embedder_dtype, embedder_batch = embedding_precision(worker_device(device, spec.gpus_per_worker), embedder_dtype,
                                                         embedder_batch, cpu_batch=DEFAULTS.embedder_batch)
    config = SwapConfig(
        count=count, seed=seed, image_source=image_source,
        image_bank=str(image_bank) if image_bank else None, threshold=threshold, span_weight=span_weight,
        top_k=top_k, embedder=embedder, swaps_per_dialogue=swaps_per_dialogue, max_candidates=max_candidates,
        t2i_model=str(t2i_model) if t2i_model else None, t2i_steps=t2i_steps, embedder_dtype=embedder_dtype,
        embedder_batch=embedder_batch,
    )
    stage = SwapStage(input_dir, config)
    manifest = run_stage(stage, input_dir, output_dir, force=force, device=device, log=click.echo, quiet=quiet,
                         executor=spec)
    report = manifest.get("report", {})
    reasons = ", ".join(f"{k} {v}" for k, v in report.get("reasons", {}).items())
    click.echo(
        f"swap: {report.get('variants', 0)} variants ({report.get('images_added', 0)} images) from "
        f"{report.get('considered', 0)} dialogues tried of {report.get('dialogues', 0)}; "
        f"{report.get('candidates', 0)} candidate spans in {report.get('with_candidates', 0)} dialogues; "
        f"by reason: {reasons} -> {output_dir}"
    )
    if report.get("image_source"):
        click.echo(f"swap: pictures from {source_line(report['image_source'])}")
    if report.get("shortfall"):
        click.echo(f"swap: {report['shortfall']}")
