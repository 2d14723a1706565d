"""`mmrc-build publish`: push a release folder and its version tag to the Hugging Face Hub."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("publish")
@click.argument("release", type=click.Path(path_type=Path, file_okay=False))
@click.option("--repo-id", required=True, help="Hub dataset repository, ORG/NAME.")
@click.option("--private", is_flag=True, help="Create the repository as private (if it does not exist yet).")
@click.option("--dry-run", is_flag=True, help="List what would be uploaded and tagged; contact nobody.")
@click.option("--endpoint", default=None, help="Hub URL (default: $HF_ENDPOINT or https://huggingface.co).")
@click.option("--rewrite-history", is_flag=True,
              help="For a takedown release: squash the Hub's main history and delete the earlier version tags "
                   "(they hold the removed dialogues).")
def command(release, repo_id, private, dry_run, endpoint, rewrite_history):
    """Upload RELEASE (a folder built by `mmrc-build release`) and create its tag on the Hub.

    The token is read from HF_TOKEN. Safe to rerun: an identical tag already on the Hub is a no-op.
    """
    from builder.publish.hub import PublishConfig, publish

    result = publish(release, PublishConfig(repo_id, private=private, dry_run=dry_run, endpoint=endpoint,
                                            rewrite_history=rewrite_history))
    if result["card_rerendered"]:
        click.echo(f"card: the loading example now names {repo_id} (README.md and SHA256SUMS differ from the "
                   f"local tag only there)", err=True)
    if dry_run:
        for f in result["files"]:
            click.echo(f"would upload {f.path} ({f.size} bytes)")
        click.echo(f"would tag {result['tag']} on {repo_id} ({'private' if private else 'public'}): "
                   f"{len(result['files'])} files, {result['bytes']} bytes")
    elif result["status"] == "unchanged":
        click.echo(f"{repo_id} already has {result['tag']} with these files; nothing to do")
    else:
        click.echo(f"published {result['tag']} to {repo_id} ({len(result['files'])} files, commit "
                   f"{result['commit'][:12]})")
        if result["deleted_tags"]:
            click.echo(f"takedown: squashed main's history and deleted {', '.join(result['deleted_tags'])} on {repo_id}")
