"""`questions export`: annotation tasks, one dialogue rendered readably with six empty slots.

Each slot has a pre-assigned ``question_id`` (``<dialogue_id[:12]>-<ABILITY>-1``), so two
annotators filling copies of the same task file produce versions of the same questions
that the importer can compare.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Iterator

import polars as pl

from builder import io
from builder.errors import ConfigError
from builder.images import MIME_EXT
from builder.locks import FolderLock
from builder.questions.schema import QUESTION_FIELDS
from builder.records import ABILITIES

FORMATS = ("csv", "jsonl")
SLOT_ID = "{dialogue}-{ability}-1"


def render(turns: list[dict]) -> tuple[str, list[dict]]:
    """Readable text of a dialogue and its image references, numbered in dialogue order."""
    lines: list[str] = []
    images: list[dict] = []
    for turn in turns:
        lines.append(f"[turn {turn['index']}] {turn['role']}: {turn['text']}")
        for ref in turn["images"] or []:
            n = len(images)
            name = f"images/{ref['sha256'][:2]}/{ref['sha256']}.{MIME_EXT.get(ref['mime'], 'bin')}" \
                if ref["sha256"] else ref["url"]
            lines.append(f"    <image {n}: {name} {ref['width']}x{ref['height']}>")
            images.append({"index": n, "turn": turn["index"], "sha256": ref["sha256"], "path": name})
    return "\n".join(lines), images


def tasks(data: Path) -> Iterator[dict]:
    io.require_finished(data, "data")
    df = (io.scan_dialogues(data).filter(pl.col("variant_of").is_null())
          .select("dialogue_id", "source", "source_id", "turns").sort("dialogue_id").collect())
    for row in df.iter_rows(named=True):
        text, images = render(row["turns"])
        slots = [{**{f: None for f in QUESTION_FIELDS},
                  "question_id": SLOT_ID.format(dialogue=row["dialogue_id"][:12], ability=ability),
                  "ability": ability} for ability in ABILITIES]
        yield {"dialogue_id": row["dialogue_id"], "source": row["source"], "source_id": row["source_id"],
               "dialogue": text, "images": images, "questions": slots}


def export_tasks(data: Path, out: Path, fmt: str | None = None) -> int:
    """Write the tasks; JSONL is one dialogue per line, CSV one slot per row. Returns dialogues."""
    out = Path(out)
    io.require_utf8_path(out, "task file")
    fmt = fmt or out.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise ConfigError(f"unknown task format {fmt!r}; available: {', '.join(FORMATS)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with FolderLock(out):  # one writer per task file: two would share the temporary file
        return _write_tasks(data, out, fmt)


def _write_tasks(data: Path, out: Path, fmt: str) -> int:
    tmp = out.with_name(f".{out.name}.tmp")
    n = 0
    with io.open_new(tmp, "w", newline="", encoding="utf-8") as fh:
        if fmt == "jsonl":
            for n, task in enumerate(tasks(data), start=1):
                fh.write(json.dumps(task, ensure_ascii=False, sort_keys=True) + "\n")
        else:
            columns = ["dialogue_id", "source", "source_id", *QUESTION_FIELDS, "dialogue", "images"]
            writer = csv.DictWriter(fh, fieldnames=columns)
            writer.writeheader()
            for n, task in enumerate(tasks(data), start=1):
                images = json.dumps(task["images"], ensure_ascii=False)
                for slot in task["questions"]:  # ids from chat logs may start like a spreadsheet formula
                    writer.writerow({k: io.spreadsheet_cell(v) for k, v in {
                        "dialogue_id": task["dialogue_id"], "source": task["source"], "source_id": task["source_id"],
                        **slot, "dialogue": task["dialogue"], "images": images}.items()})
    tmp.replace(out)
    return n
