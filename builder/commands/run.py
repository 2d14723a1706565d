"""`mmrc-build run CONFIG.toml`: the whole pipeline from one config file."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from builder import pipeline, stages


@click.command("run")
@click.argument("config", type=click.Path(path_type=Path), required=False)
@click.option("--dry-run", is_flag=True, help="Print the stage commands without running them.")
@click.option("--stages", "list_stages", is_flag=True, help="Print the stage registry (order, command, folder, "
                                                             "columns read and written) and exit.")
def command(config, dry_run, list_stages):
    """Run the stages listed in CONFIG ([pipeline] stages) in order.

    Each stage section holds that command's options by their long names; see
    builder/pipeline.py and raw/sample/pipeline.toml for an example. The whole config is
    checked first (unknown sections, options and stages are errors that list the valid ones).
    Finished stages report "up to date"; an existing release version is skipped.
    """
    if list_stages:
        for stage in stages.STAGES:
            click.echo(f"{stage.name:<10} mmrc-build {' '.join(stage.command):<18} "
                       f"{('work/' + stage.folder) if stage.folder else '-':<17} reads {','.join(stage.reads) or '-'}"
                       f"; writes {','.join(stage.writes) or '-'}")
        return
    if config is None:
        raise click.UsageError("missing CONFIG (a pipeline TOML file), or pass --stages")
    for step in pipeline.plan(pipeline.load(config)):
        line = "mmrc-build " + shlex.join(step.argv)
        if step.done_marker is not None and step.done_marker.exists():
            click.echo(f"skip (exists: {step.done_marker}): {line}")
            continue
        click.echo(f"$ {line}")
        if not dry_run:
            stage = stages.get(step.name) if step.name in stages.BY_NAME else None
            path = len(stage.command) if stage else _command_depth(step.argv)
            command = pipeline.cli_command(stage) if stage else _resolve(step.argv[:path])
            code = command.main(step.argv[path:], prog_name="mmrc-build " + " ".join(step.argv[:path]),
                                standalone_mode=False)
            if isinstance(code, int) and code != 0:  # the stage already printed its one-line error
                raise click.exceptions.Exit(code)


def _command_depth(argv: list[str]) -> int:
    return 2 if argv[0] in ("classify", "questions", "eval") else 1


def _resolve(path: list[str]) -> click.Command:
    import importlib

    command = importlib.import_module(f"builder.commands.{path[0]}").command
    for name in path[1:]:
        command = command.commands[name]
    return command
