"""`mmrc-build ingest RAW_DIR -o OUT_DIR`."""

from __future__ import annotations

from pathlib import Path

import click

from builder.commands.common import executor_options, executor_spec, print_rows
from builder.ingest import IngestConfig, run_ingest
from builder.ingest.readers import READERS


@click.command("ingest")
@click.argument("raw_dir", type=click.Path(path_type=Path))
@click.option("-o", "--output", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Output stage folder (e.g. work/ingested).")
@click.option("--format", "fmt", type=click.Choice(["auto", *READERS]), default="auto", show_default=True,
              help="Force one log format for every file instead of detecting it per file.")
@click.option("--min-turns", type=int, default=4, show_default=True, help="Drop dialogues with fewer turns.")
@click.option("--max-turns", type=int, default=22, show_default=True, help="Drop dialogues with more turns.")
@click.option("--near-dup-threshold", type=float, default=0.85, show_default=True,
              help="MinHash Jaccard over user turns at which a dialogue is a near duplicate (1.0 = off).")
@click.option("--max-message-chars", type=int, default=32_000, show_default=True,
              help="Quarantine dialogues with a longer message.")
@click.option("--max-image-pixels", type=int, default=40_000_000, show_default=True,
              help="Decompression-bomb guard: refuse larger images.")
@click.option("--max-image-bytes", type=int, default=25_000_000, show_default=True,
              help="Refuse image files larger than this.")
@click.option("--user-salt-env", default="MMRC_USER_SALT", show_default=True,
              help="Name of the environment variable holding the secret salt for user-id hashing.")
@click.option("--shard-rows", type=int, default=5_000, show_default=True, help="Dialogues per output part.")
@click.option("--exclude", multiple=True, metavar="GLOB",
              help="Skip log files matching this glob (relative to RAW_DIR); RAW_DIR/.mmrcignore adds more.")
@click.option("--force", is_flag=True, help="Rebuild even if OUT_DIR holds a finished run.")
@click.option("--verbose", is_flag=True, help="One line per log file (the manifest lists them all anyway).")
@executor_options
def command(raw_dir, out_dir, fmt, min_turns, max_turns, near_dup_threshold, max_message_chars,
            max_image_pixels, max_image_bytes, user_salt_env, shard_rows, exclude, force, verbose,
            executor, workers, address, cpus_per_worker, gpus_per_worker, quiet):
    """Read chat logs under RAW_DIR into canonical dialogue rows (see raw/README.md)."""
    config = IngestConfig(format=fmt, min_turns=min_turns, max_turns=max_turns,
                          near_dup_threshold=near_dup_threshold, max_message_chars=max_message_chars,
                          max_image_pixels=max_image_pixels, max_image_bytes=max_image_bytes,
                          user_salt_env=user_salt_env, shard_rows=shard_rows)
    manifest = run_ingest(raw_dir, out_dir, config, exclude=exclude, force=force, log=click.echo, quiet=quiet,
                          verbose=verbose,
                          executor=executor_spec(executor, workers, address, cpus_per_worker, gpus_per_worker))
    print_rows("ingest", manifest)
