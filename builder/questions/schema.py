"""Reading annotation files (CSV or JSONL) into typed question rows.

A row names its dialogue by ``dialogue_id`` or by ``source_id`` (optionally with
``source``); the other columns are the Question schema of DESIGN.md. In CSV, list cells
hold a JSON array (``["a", "b"]``) or ``|``-separated values; booleans are
true/false/yes/no/1/0. Columns that are not in the schema (for example the rendered
``dialogue`` of an exported task) are ignored.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import polars as pl

from builder.errors import InputError
from builder.records import QUESTION

QUESTION_FIELDS: tuple[str, ...] = tuple(f.name for f in QUESTION.fields)
KEY_FIELDS = ("dialogue_id", "source", "source_id")
LIST_STR = ("choices", "gold_items", "annotators")
LIST_INT = ("gold_images", "gold_turns")
# What makes two annotators' versions of a question "the same answer".
CONTENT_FIELDS = ("format", "question", "choices", "answer", "gold_items", "gold_images", "gold_turns",
                  "should_refuse")

QUESTIONS_SCHEMA = pl.Schema({"dialogue_id": pl.String, **{f.name: f.dtype for f in QUESTION.fields}})

READERS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".parquet": "parquet"}


class RowError(Exception):
    """One cell that cannot be read; the caller adds the row number."""


def read_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """``[(row_number, raw_dict)]``; row numbers are file line numbers (CSV header = line 1)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"questions file {path} does not exist; pass a CSV or JSONL annotation file")
    kind = READERS.get(path.suffix.lower())
    if kind is None:
        raise InputError(f"unknown questions file type {path.suffix!r}; available: {', '.join(sorted(READERS))}")
    try:
        return _read(path, kind)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text (byte {exc.start}: {exc.reason}); save the annotations as "
                         "UTF-8 CSV or JSONL") from None
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"{path} cannot be read as {kind} ({type(exc).__name__}); pass a CSV, JSONL or the "
                         "Parquet that `questions import` wrote") from None


def _read(path: Path, kind: str) -> list[tuple[int, dict[str, Any]]]:
    if kind == "parquet":  # an already imported file: row numbers count from 1
        return list(enumerate(pl.read_parquet(path).to_dicts(), start=1))
    if kind == "csv":
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            return [(reader.line_num, dict(row)) for row in reader]
    rows = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{number}: not valid JSON ({exc.msg}); fix the line and rerun") from None
            except RecursionError:
                raise InputError(f"{path}:{number}: JSON nested too deeply; fix the line and rerun") from None
            except ValueError as exc:  # e.g. an integer of more than 4300 digits
                raise InputError(f"{path}:{number}: a JSON value cannot be read ({str(exc)[:100]}); fix the line "
                                 "and rerun") from None
            if not isinstance(obj, dict):
                raise InputError(f"{path}:{number}: each line must be a JSON object; fix the line and rerun")
            if isinstance(obj.get("questions"), list):  # an exported task: one dialogue, many slots
                keys = {k: obj.get(k) for k in KEY_FIELDS}
                rows.extend((number, {**keys, **slot}) for slot in obj["questions"] if isinstance(slot, dict))
            else:
                rows.append((number, obj))
    return rows


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _as_list(value: Any, field: str) -> list:
    if _blank(value):
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RowError(f"{field}: {text!r} is not a JSON array ({exc.msg})") from exc
            if not isinstance(parsed, list):
                raise RowError(f"{field}: expected a list")
            return parsed
        return [part.strip() for part in text.split("|") if part.strip()]
    return [value]


def _as_int_list(value: Any, field: str) -> list[int]:
    out = []
    for item in _as_list(value, field):
        try:
            if isinstance(item, bool) or (isinstance(item, float) and not item.is_integer()):
                raise ValueError
            out.append(int(item))
        except (TypeError, ValueError):
            raise RowError(f"{field}: {item!r} is not an integer index") from None
    return out


def _as_bool(value: Any, field: str) -> bool | None:
    if _blank(value):
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "y", "t"):
        return True
    if text in ("false", "no", "0", "n", "f"):
        return False
    raise RowError(f"{field}: {value!r} is not true/false")


def _as_str(value: Any) -> str | None:
    if _blank(value):
        return None
    return str(value).strip() if not isinstance(value, str) else value.strip()


def coerce(raw: dict[str, Any]) -> dict[str, Any]:
    """Typed question dict (keys + Question fields); raises :class:`RowError`."""
    row: dict[str, Any] = {key: _as_str(raw.get(key)) for key in KEY_FIELDS}
    for field in QUESTION_FIELDS:
        value = raw.get(field)
        if field in LIST_STR:
            row[field] = [str(v).strip() for v in _as_list(value, field)]
        elif field in LIST_INT:
            row[field] = _as_int_list(value, field)
        elif field == "should_refuse":
            row[field] = _as_bool(value, field)
        else:
            row[field] = _as_str(value)
    if row["ability"]:
        row["ability"] = row["ability"].upper()
    if row["format"]:
        row["format"] = row["format"].lower()
    return row


def questions_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    data = [{name: r.get(name) for name in QUESTIONS_SCHEMA.names()} for r in rows]
    return pl.DataFrame(data, schema=QUESTIONS_SCHEMA, orient="row") if data else pl.DataFrame(schema=QUESTIONS_SCHEMA)
