"""`questions import`: annotation file -> validated questions Parquet + a JSON report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from builder import io
from builder.errors import ConfigError, ValidationError
from builder.questions.schema import questions_frame, read_rows
from builder.locks import FolderLock
from builder.questions.validate import DialogueIndex, Report, validate

SHOWN_ERRORS = 10


@dataclass(frozen=True)
class ImportConfig:
    strict_abilities: bool = False  # a dialogue without all six abilities is an error, not a warning


def report_path(out: Path) -> Path:
    return out.with_name(out.stem + ".report.json")


def load_questions(path: Path, index: DialogueIndex, config: ImportConfig = ImportConfig()
                   ) -> tuple[pl.DataFrame, Report]:
    """Read + validate; raise :class:`ValidationError` naming the bad rows."""
    questions, report = validate(read_rows(path), index, config.strict_abilities)
    if report.errors:
        raise ValidationError(summary(path, report.errors))
    return questions_frame(questions), report


def summary(path: Path, errors: list[str]) -> str:
    shown = "; ".join(errors[:SHOWN_ERRORS])
    more = f"; and {len(errors) - SHOWN_ERRORS} more" if len(errors) > SHOWN_ERRORS else ""
    return f"{path}: {len(errors)} invalid question row(s): {shown}{more}. Fix these rows and rerun"


def import_questions(path: Path, data: Path, out: Path, config: ImportConfig = ImportConfig()) -> dict:
    """Validate ``path`` against the dialogues of ``data``; write ``out`` + ``<out>.report.json``.

    The report is written even when validation fails, so every problem can be read there.
    """
    out = Path(out)
    io.require_utf8_path(out, "output file")
    if out.suffix != ".parquet":
        raise ConfigError(f"output {out} must end in .parquet (e.g. work/questions.parquet)")
    with FolderLock(out):  # one writer per output file (and its report): a second is refused, exit 9
        questions, report = validate(read_rows(path), DialogueIndex.from_folder(data), config.strict_abilities)
        summary_dict = report.to_dict(len(questions))
        summary_dict["input"] = {"file": Path(path).name, "sha256": io.sha256_file(Path(path))}
        io.write_text_atomic(report_path(out), json.dumps(summary_dict, indent=2, sort_keys=True) + "\n")
        if report.errors:
            raise ValidationError(summary(path, report.errors) + f" (all problems: {report_path(out)})")
        if not questions:
            raise ValidationError(f"{path}: no questions to import ({nothing_imported(report)}); fill in the "
                                  "questions, or pass the file that holds them")
        io.write_parquet_atomic(questions_frame(questions), out)
    return summary_dict


def nothing_imported(report: Report) -> str:
    """Why every row of a file was left out."""
    why = [f"{report.empty_slots} empty slot(s) nobody filled in"] if report.empty_slots else []
    if report.dropped_upstream:
        why.append(f"{sum(report.dropped_upstream.values())} about dialogue(s) an earlier stage removed: "
                   + ", ".join(f"{where} {n}" for where, n in sorted(report.dropped_upstream.items())))
    return "; ".join(why) or f"{report.rows_read} row(s) read"
