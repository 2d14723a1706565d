"""`mmrc-build questions import|export`: annotation tasks out, validated questions in."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("questions")
def command():
    """Export annotation tasks and import the six-ability questions annotators wrote."""


@command.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--data", "data", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Finished stage folder holding the dialogues the questions are about.")
@click.option("-o", "--output", "out", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help="Validated questions Parquet to write; a .report.json is written beside it.")
@click.option("--strict-abilities", is_flag=True,
              help="Fail (instead of warn) when a dialogue lacks one of the six abilities.")
def import_(file, data, out, strict_abilities):
    """Validate FILE (CSV or JSONL in the Question schema) and write it as Parquet.

    Rows name their dialogue by dialogue_id, or by source_id (plus source when ambiguous).
    """
    from builder.questions.importer import ImportConfig, import_questions, report_path

    report = import_questions(file, data, out, ImportConfig(strict_abilities=strict_abilities))
    for warning in report["warnings"]:
        click.echo(f"warning: {warning}", err=True)
    for d in report["disagreements"]:
        click.echo(f"review: {d['question_id']} annotators {', '.join(d['annotators'])} disagree on "
                   f"{', '.join(d['fields'])} (rows {d['rows'][0]} and {d['rows'][1]})", err=True)
    for where, n in sorted(report["skipped_dialogue_dropped_upstream"].items()):
        click.echo(f"skipped {n} question(s) whose dialogue an earlier stage removed ({where})")
    click.echo(f"{report['questions']} questions -> {out} ({len(report['warnings'])} warnings, "
               f"{len(report['disagreements'])} for review; report: {report_path(out)})")


@command.command("export")
@click.option("--data", "data", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Finished stage folder holding the dialogues to annotate.")
@click.option("-o", "--output", "out", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help="Task file to write (.csv: one slot per row; .jsonl: one dialogue per line).")
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl"]), default=None,
              help="Task file format (default: from the output's extension).")
def export(data, out, fmt):
    """Write annotation tasks: each dialogue rendered with image references and six empty slots."""
    from builder.questions.export import export_tasks

    n = export_tasks(data, out, fmt)
    click.echo(f"{n} dialogues -> {out}")
