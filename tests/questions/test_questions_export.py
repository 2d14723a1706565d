"""`mmrc-build questions export`: readable tasks with empty slots that import back."""

from __future__ import annotations

import csv
import json

import polars as pl
from click.testing import CliRunner

from builder.cli import main
from qr_fixtures import data_folder, six_questions


def test_jsonl_tasks_render_dialogue_and_images(tmp_path):
    folder, rows = data_folder(tmp_path / "data", n=2)
    out = tmp_path / "tasks.jsonl"
    result = CliRunner().invoke(main, ["questions", "export", "--data", str(folder), "-o", str(out)])
    assert result.exit_code == 0, result.output
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert [t["dialogue_id"] for t in tasks] == sorted(r["dialogue_id"] for r in rows)
    even = next(t for t in tasks if t["source_id"] == "conv-0")
    assert "[turn 0] user: Here is my kitchen photo number 0." in even["dialogue"]
    assert "<image 1: images/" in even["dialogue"] and len(even["images"]) == 2
    assert [s["ability"] for s in even["questions"]] == ["IE", "CR", "IU", "IM", "MR", "AR"]
    assert all(s["question"] is None for s in even["questions"])


def test_filled_csv_tasks_import_back(tmp_path):
    folder, rows = data_folder(tmp_path / "data", n=1)
    tasks = tmp_path / "tasks.csv"
    assert CliRunner().invoke(main, ["questions", "export", "--data", str(folder), "-o", str(tasks)]).exit_code == 0
    with open(tasks, newline="") as fh:
        slots = list(csv.DictReader(fh))
    assert len(slots) == 6 and "[turn 3] assistant" in slots[0]["dialogue"]
    answers = {q["ability"]: q for q in six_questions(rows[0]["source_id"])}
    for slot in slots[:5]:  # leave AR empty: an unfilled slot is skipped, not an error
        q = answers[slot["ability"]]
        for key in ("format", "question", "answer"):
            slot[key] = q[key]
        for key in ("choices", "gold_items", "gold_images", "gold_turns", "annotators"):
            slot[key] = json.dumps(q.get(key, []))
    with open(tasks, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(slots[0]))
        w.writeheader()
        w.writerows(slots)
    out = tmp_path / "q.parquet"
    result = CliRunner().invoke(main, ["questions", "import", str(tasks), "--data", str(folder), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "lacks abilities AR" in result.output
    df = pl.read_parquet(out)
    assert df["question_id"].to_list()[0] == f"{rows[0]['dialogue_id'][:12]}-IE-1"
    assert json.loads((tmp_path / "q.report.json").read_text())["empty_slots_skipped"] == 1
