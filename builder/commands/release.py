"""`mmrc-build release`: build release/<name>-vX.Y.Z, a versioned Hugging Face dataset folder."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("release")
@click.option("--version", "version", required=True, help="Semantic version of this release, e.g. 0.1.0.")
@click.option("--data", "data", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Finished stage folder to release (classified or swapped).")
@click.option("--questions", "questions", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Questions: a Parquet from `questions import`, or a CSV/JSONL annotation file.")
@click.option("--releases-dir", type=click.Path(path_type=Path, file_okay=False), default=Path("release"),
              show_default=True, help="Folder that holds every version's release folder.")
@click.option("--name", default="mmrc", show_default=True, help="Dataset name (release folder prefix).")
@click.option("--remove-ids", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Takedown list: one dialogue_id or source conversation id per line; removed from "
                   "this and every later version.")
@click.option("--allow-missing-abilities", is_flag=True,
              help="Release dialogues even if they lack some of the six abilities' questions.")
@click.option("--license", "license_id", default=None,
              help="Licence id for the dataset card (a Hub licence identifier); default: the licence every "
                   "source in --sources shares, else other.")
@click.option("--languages", default="", metavar="CODES",
              help="Release only dialogues in these languages (ISO 639-1, comma-separated, 'und' for unknown), "
                   "as detected in their text; the others are counted in the card's funnel.")
@click.option("--sources", "sources", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="YAML or JSON list of the source datasets: name (their folder under the raw folder), url, "
                   "licence; every released source needs an entry with a licence.")
@click.option("--repo-id", default=None, metavar="ORG/NAME",
              help="Hub repository the card's loading example names (publish writes it in when omitted); "
                   "without it the card says the release is a local folder.")
@click.option("--quiet", is_flag=True, help="No progress lines (errors and the summary only).")
@click.option("--only-annotated", is_flag=True,
              help="Release only the dialogues that have questions for all six abilities; the others are "
                   "counted in the card's funnel (not_annotated).")
def command(version, data, questions, releases_dir, name, remove_ids, allow_missing_abilities, license_id,
            languages, sources, repo_id, only_annotated, quiet):
    """Build RELEASES_DIR/NAME-vVERSION: Parquet shards with images, card, figures, stats,
    CHANGELOG.md, SHA256SUMS, committed in git and tagged vVERSION. Never overwrites a version."""
    from builder.release.build import ReleaseConfig, build_release

    config = ReleaseConfig(version=version, name=name, license=license_id,
                           allow_missing_abilities=allow_missing_abilities,
                           languages=tuple(sorted({c.strip().lower() for c in languages.split(",") if c.strip()})),
                           sources=str(sources) if sources else None, repo_id=repo_id,
                           only_annotated=only_annotated)
    result = build_release(data, questions, releases_dir, config, remove_ids=remove_ids,
                           log=lambda m: click.echo(m, err=True), quiet=quiet)
    click.echo(f"{result['path']} {result['tag']}: {result['rows']['out']} dialogues, "
               f"{result['configs']['questions']['rows']} questions")
    from builder.release.card import first_screen
    from builder.release.layout import CARD

    card_path = Path(result["path"]) / CARD
    click.echo(f"card: {card_path} (what the Hub page will show first:)")
    for line in first_screen(card_path.read_text()):
        click.echo(f"  | {line}".rstrip())
