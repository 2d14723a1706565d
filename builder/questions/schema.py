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

from builder import io
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

MAX_CELL_CHARS = 64 * 1024 * 1024  # csv's own limit (131,072) is less than one long exported dialogue
READERS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".parquet": "parquet"}


class RowError(Exception):
    """One cell that cannot be read; the caller adds the row number."""


def read_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """``[(row_number, raw_dict)]``; row numbers are file line numbers (CSV header = line 1)."""
    path = io.require_regular_file(path, "questions file", "pass a CSV or JSONL annotation file")
    kind = READERS.get(path.suffix.lower())
    if kind is None:
        raise InputError(f"unknown questions file type {path.suffix!r}; available: {', '.join(sorted(READERS))}")
    try:
        rows = _read(path, kind)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text (byte {exc.start}: {exc.reason}); save the annotations as "
                         "UTF-8 CSV or JSONL") from None
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"{path} cannot be read as {kind} ({type(exc).__name__}); pass a CSV, JSONL or the "
                         "Parquet that `questions import` wrote") from None
    if not rows:
        raise InputError(f"questions file {path} holds no question rows (it is empty, or only a header); pass "
                         "the file the annotators filled in")
    return rows


def _read(path: Path, kind: str) -> list[tuple[int, dict[str, Any]]]:
    if kind == "parquet":  # an already imported file: row numbers count from 1
        return list(enumerate(pl.read_parquet(path).to_dicts(), start=1))
    if kind == "csv":
        # an exported task carries its rendered dialogue in one cell: 32,000 characters a turn, many turns
        limit = csv.field_size_limit(MAX_CELL_CHARS)
        try:
            with open(path, newline="", encoding="utf-8") as fh:
                return _csv_rows(path, csv.DictReader(fh, strict=True))
        finally:
            csv.field_size_limit(limit)
    rows: list[tuple[int, dict]] = []  # (line number, question row)
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


def _csv_rows(path: Path, reader: csv.DictReader) -> list[tuple[int, dict[str, Any]]]:
    """Rows of a CSV read strictly: a quote left open (which would swallow the rows after it) or text
    after a closing quote stops the import at that line, and so does a row of the wrong width."""
    rows, line = [], 0  # the last line read: a row that fails starts on the next one
    try:
        header = reader.fieldnames or []
        line = reader.line_num
        if len(set(header)) != len(header):
            repeated = sorted({name for name in header if header.count(name) > 1})
            raise InputError(f"{path}:1: the header repeats column(s) {', '.join(map(repr, repeated))}; name each "
                             "column once")
        for row in reader:
            if None in row or None in row.values():
                cells = len(header) + len(row.get(None) or []) - sum(v is None for v in row.values())
                raise InputError(f"{path}:{line + 1}: the row has {cells} cells but the header has {len(header)}; "
                                 "quote cells that hold a comma, and fix the line")
            rows.append((reader.line_num, dict(row)))
            line = reader.line_num
    except csv.Error as exc:
        raise InputError(f"{path}:{line + 1}: malformed CSV ({exc}): a quote opened in this row is not closed, or a "
                         "cell has text after its closing quote; fix the line and rerun") from None
    return rows


def _shown(value: Any) -> str:
    """A cell as an error message shows it: its repr, at most 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


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
                raise RowError(f"{field}: {_shown(text)} is not a JSON array ({exc.msg})") from exc
            except RecursionError:
                raise RowError(f"{field}: a JSON array nested too deeply; write a flat list") from None
            except ValueError as exc:  # e.g. an integer of more than 4300 digits
                raise RowError(f"{field}: a JSON array that cannot be read ({str(exc)[:60]})") from None
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
            raise RowError(f"{field}: {_shown(item)} is not an integer index") from None
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
    raise RowError(f"{field}: {_shown(value)} is not true/false")


def _as_str(value: Any, field: str) -> str | None:
    if _blank(value):
        return None
    if isinstance(value, (list, dict)):
        raise RowError(f"{field} must be text, not a {'list' if isinstance(value, list) else 'JSON object'}")
    return str(value).strip() if not isinstance(value, str) else value.strip()


def _as_str_list(value: Any, field: str) -> list[str]:
    items = _as_list(value, field)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            kinds: dict[type, str] = {list: "a nested list", dict: "a JSON object"}
            kind = kinds.get(type(item), type(item).__name__)
            raise RowError(f"{field}[{i}] is {kind}: each item must be text (write numbers in quotes, e.g. "
                           '"1990")')
    return [item.strip() for item in items]


def coerce(raw: dict[str, Any]) -> dict[str, Any]:
    """Typed question dict (keys + Question fields); raises :class:`RowError`."""
    # a task CSV from `questions export` neutralised ids that start like a spreadsheet formula: read them back
    row: dict[str, Any] = {key: _as_str(io.spreadsheet_text(raw.get(key)), key) for key in KEY_FIELDS}
    for field in QUESTION_FIELDS:
        value = raw.get(field)
        if field in LIST_STR:
            row[field] = _as_str_list(value, field)
        elif field in LIST_INT:
            row[field] = _as_int_list(value, field)
        elif field == "should_refuse":
            row[field] = _as_bool(value, field)
        else:
            row[field] = _as_str(value, field)
    if row["ability"]:
        row["ability"] = row["ability"].upper()
    if row["format"]:
        row["format"] = row["format"].lower()
    return row


def questions_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    data = [{name: r.get(name) for name in QUESTIONS_SCHEMA.names()} for r in rows]
    return pl.DataFrame(data, schema=QUESTIONS_SCHEMA, orient="row") if data else pl.DataFrame(schema=QUESTIONS_SCHEMA)
