"""`mmrc-build run CONFIG.toml`: the whole pipeline from one config file."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from builder import pipeline


@click.command("run")
@click.argument("config", type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Print the stage commands without running them.")
def command(config, dry_run):
    """Run the stages listed in CONFIG ([pipeline] stages) in order.

    Each stage section holds that command's options by their long names; see
    builder/pipeline.py and raw/sample/pipeline.toml for an example. Finished stages
    report "up to date"; an existing release version is skipped.
    """
    from builder.cli import main

    for step in pipeline.plan(pipeline.load(config)):
        line = "mmrc-build " + shlex.join(step.argv)
        if step.done_marker is not None and step.done_marker.exists():
            click.echo(f"skip (exists: {step.done_marker}): {line}")
            continue
        click.echo(f"$ {line}")
        if not dry_run:
            code = main.main(step.argv, standalone_mode=False)
            if isinstance(code, int) and code != 0:  # the stage already printed its one-line error
                raise click.exceptions.Exit(code)
