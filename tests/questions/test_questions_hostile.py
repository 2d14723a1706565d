"""Annotation files that are empty, broken, nested, huge, pipes, or written twice at once: `questions
import` refuses each in one line with its exit code, and never ends in a traceback (hypothesis feeds it
random bytes, JSON records and CSV)."""

from __future__ import annotations

import csv
import json
import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from builder.cli import main
from qr_fixtures import data_folder, six_questions, write_jsonl

pytestmark = pytest.mark.timeout(300)  # a pipe opened by mistake would block: fail instead of hanging
FIELDS = ["dialogue_id", "source_id", "ability", "format", "question", "choices", "answer", "gold_items",
          "gold_images", "gold_turns", "should_refuse", "annotators", "review"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return data_folder(tmp_path_factory.mktemp("q") / "classified", n=2)


def run(qfile, folder, out):
    return CliRunner().invoke(main, ["questions", "import", str(qfile), "--data", str(folder), "-o", str(out)])


def one_line(result, code: int) -> str:
    assert result.exit_code == code, (result.output, result.exception)
    assert result.output.count("\n") == 1 and result.output.startswith("Error: "), result.output
    return result.output


def write_csv(path, questions) -> list[str]:
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        for q in questions:
            writer.writerow({f: "|".join(map(str, q[f])) if isinstance(q.get(f), list) else q.get(f, "") for f in FIELDS})
    return path.read_text().splitlines(keepends=True)


def all_questions(rows):
    return [q for r in rows for q in six_questions(r["source_id"])]


@pytest.mark.parametrize("name, content", [("q.jsonl", ""), ("q.csv", ""), ("q.csv", ",".join(FIELDS) + "\n"),
                                           ("q.jsonl", "\n\n  \n")])
def test_a_file_without_rows_is_refused(tmp_path, data, name, content):
    (tmp_path / name).write_text(content)
    assert "holds no question rows" in one_line(run(tmp_path / name, data[0], tmp_path / "q.parquet"), 3)
    assert not (tmp_path / "q.parquet").exists()


def test_an_exported_task_nobody_filled_in_is_refused(tmp_path, data):
    tasks = tmp_path / "tasks.jsonl"
    assert CliRunner().invoke(main, ["questions", "export", "--data", str(data[0]), "-o", str(tasks)]).exit_code == 0
    line = one_line(run(tasks, data[0], tmp_path / "q.parquet"), 6)
    assert "no questions to import (12 empty slot(s) nobody filled in)" in line


@pytest.mark.parametrize("damage, message", [
    (lambda line: line.replace("What was shown first?", '"What was shown first?', 1), "malformed CSV"),
    (lambda line: line.replace("What was shown first?", '"What" was shown first?', 1), "malformed CSV"),
    (lambda line: line.rstrip("\r\n") + ",extra\r\n", "the row has 14 cells but the header has 13"),
    (lambda line: ",".join(line.split(",")[:2]) + "\r\n", "the row has 2 cells but the header has 13"),
])
def test_a_broken_csv_row_is_named_not_dropped(tmp_path, data, damage, message):
    lines = write_csv(tmp_path / "q.csv", all_questions(data[1]))
    assert "What was shown first?" in lines[2]  # line 3: the first dialogue's CR question
    lines[2] = damage(lines[2])
    (tmp_path / "q.csv").write_text("".join(lines))
    line = one_line(run(tmp_path / "q.csv", data[0], tmp_path / "q.parquet"), 3)
    assert f"q.csv:3: {message}" in line


def test_a_csv_header_that_repeats_a_column_is_refused(tmp_path, data):
    lines = write_csv(tmp_path / "q.csv", all_questions(data[1]))
    (tmp_path / "q.csv").write_text(lines[0].replace("review", "question") + "".join(lines[1:]))
    assert "repeats column(s) 'question'" in one_line(run(tmp_path / "q.csv", data[0], tmp_path / "q.parquet"), 3)


def _nested(depth: int):
    value = "lemon tree"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("change, message", [
    ({"gold_items": ["roses", _nested(300)]}, "gold_items[1] is a nested list: each item must be text"),
    ({"gold_items": [{"item": "roses"}]}, "gold_items[0] is a JSON object"),
    ({"gold_items": [1990]}, 'gold_items[0] is int: each item must be text (write numbers in quotes, e.g. "1990")'),
    ({"question": ["Which", "plants?"]}, "question must be text, not a list"),
    ({"answer": {"text": "roses"}}, "answer must be text, not a JSON object"),
    ({"question": "W" * 10_000}, "question is 10,000 characters (limit 1,000); shorten it"),
    ({"answer": "r" * 2001}, "answer is 2,001 characters (limit 2,000)"),
    ({"gold_items": [f"plant {k}" for k in range(51)]}, "gold_items has 51 entries (limit 50)"),
    ({"gold_items": ["p" * 301]}, "gold_items[0] is 301 characters (limit 300)"),
    ({"source_id": "c" * 5000}, "source_id is 5,000 characters (limit 200)"),
])
def test_nesting_wrong_types_and_sizes_are_validation_errors(tmp_path, data, change, message):
    questions = all_questions(data[1])
    questions[0] = {**questions[0], **change}  # the IE question of the first dialogue
    qfile = write_jsonl(tmp_path / "q.jsonl", questions)
    line = one_line(run(qfile, data[0], tmp_path / "q.parquet"), 6)
    assert f"row 1: {message}" in line and len(line) < 2000


def test_choices_beyond_the_limit(tmp_path, data):
    questions = all_questions(data[1])
    questions[1] = {**questions[1], "choices": [f"room {k}" for k in range(11)], "answer": "room 0"}
    line = one_line(run(write_jsonl(tmp_path / "q.jsonl", questions), data[0], tmp_path / "q.parquet"), 6)
    assert "row 2: choices has 11 entries (limit 10)" in line


def test_a_second_writer_of_the_same_output_is_refused(tmp_path, data):
    from builder.locks import FolderLock

    qfile = write_jsonl(tmp_path / "q.jsonl", all_questions(data[1]))
    with FolderLock(tmp_path / "q.parquet"):
        line = one_line(run(qfile, data[0], tmp_path / "q.parquet"), 9)
    assert "is being written by another process" in line and not (tmp_path / "q.parquet").exists()
    assert run(qfile, data[0], tmp_path / "q.parquet").exit_code == 0


def test_a_pipe_is_not_a_regular_file(tmp_path, data):
    os.mkfifo(tmp_path / "q.jsonl")
    line = one_line(run(tmp_path / "q.jsonl", data[0], tmp_path / "q.parquet"), 3)
    assert "questions file" in line and "is not a regular file" in line and "does not exist" not in line


def test_an_output_path_that_is_not_utf8_is_one_line(tmp_path, data):
    qfile = write_jsonl(tmp_path / "q.jsonl", all_questions(data[1]))
    out = os.fsdecode(os.fsencode(str(tmp_path)) + b"/q\xff.parquet")
    line = one_line(run(qfile, data[0], out), 2)
    assert "q\\xff.parquet is not a valid UTF-8 path" in line


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(FIELDS + ["source", "questions", "x"]), children, max_size=6),
    max_leaves=20)
# records that name a real dialogue and a real ability, so validation runs to its deeper checks
question_records = st.fixed_dictionaries(
    {"source_id": st.sampled_from(["conv-0", "conv-1", "conv-9"]),
     "ability": st.sampled_from(["IE", "CR", "IU", "IM", "MR", "AR", "xx"]),
     "format": st.sampled_from(["open", "open", "mcq", "tf", "essay"]),
     "question": st.one_of(st.text(min_size=1, max_size=30), json_values),
     "answer": st.one_of(st.text(min_size=1, max_size=30), json_values)},
    optional={f: json_values for f in ("choices", "gold_items", "gold_images", "gold_turns", "should_refuse",
                                       "annotators", "review", "question_id")})
cells = st.text(alphabet=st.sampled_from(list('ab|[]{}",\n\r 01IEMCRopenmcqtf')), max_size=12)
files = st.one_of(
    st.tuples(st.just("q.jsonl"), st.binary(max_size=300)),
    st.tuples(st.just("q.csv"), st.binary(max_size=300)),
    st.tuples(st.just("q.jsonl"), st.lists(json_values, max_size=6).map(
        lambda records: "".join(json.dumps(r) + "\n" for r in records).encode())),
    st.tuples(st.just("q.jsonl"), st.lists(question_records, min_size=1, max_size=3).map(
        lambda records: "".join(json.dumps(r) + "\n" for r in records).encode())),
    st.tuples(st.just("q.csv"), st.tuples(st.one_of(st.just(FIELDS), st.lists(st.sampled_from(FIELDS), max_size=8)),
                                          st.lists(st.lists(cells, max_size=9), max_size=5)).map(
        lambda t: "\n".join([",".join(t[0])] + [",".join(row) for row in t[1]]).encode())),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=files)
def test_random_files_end_in_success_or_one_error_line(tmp_path_factory, data, file):
    tmp = tmp_path_factory.mktemp("fuzz")
    name, content = file
    (tmp / name).write_bytes(content)
    result = run(tmp / name, data[0], tmp / "q.parquet")
    event(f"exit {result.exit_code}")  # --hypothesis-show-statistics: how deep the files got
    if result.exit_code == 0:
        assert (tmp / "q.parquet").exists(), result.output
        return
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # never a traceback
    assert result.output.count("\n") == 1 and result.output.startswith("Error: "), result.output
    assert result.exit_code in (2, 3, 6), result.output


def test_an_export_path_that_is_not_utf8_is_one_line(tmp_path, data):
    out = os.fsdecode(os.fsencode(str(tmp_path)) + b"/t\xff.csv")
    result = CliRunner().invoke(main, ["questions", "export", "--data", str(data[0]), "-o", out])
    line = one_line(result, 2)
    assert "t\\xff.csv is not a valid UTF-8 path" in line and list(tmp_path.iterdir()) == []


def test_task_cells_a_spreadsheet_would_run_are_neutralised_and_read_back(tmp_path):
    from conftest import dialogue, make_stage_folder

    rows = [dialogue([("user", "hi, here is my kitchen"), ("assistant", "nice kitchen")], source_id="=1+cmd|' /C calc'!A0",
                     source="@logs/x.jsonl"),
            dialogue([("user", "the garden"), ("assistant", "lovely roses")], source_id="-2+3", source="+x")]
    data = make_stage_folder(tmp_path / "classified", rows)
    tasks = tmp_path / "tasks.csv"
    assert CliRunner().invoke(main, ["questions", "export", "--data", str(data), "-o", str(tasks)]).exit_code == 0
    with open(tasks, newline="", encoding="utf-8") as fh:
        exported = list(csv.DictReader(fh))
    cells = [cell for row in exported for cell in row.values()]
    assert not any(cell[:1] in ("=", "+", "-", "@") for cell in cells)
    assert {row["source_id"] for row in exported} == {"'=1+cmd|' /C calc'!A0", "'-2+3"}
    # an annotator fills one slot per dialogue; the dialogue is found by its source_id as exported
    for row in exported:
        row["dialogue_id"] = ""
        if row["ability"] == "AR":
            row.update(question="What is my street?", answer="Not said.", format="open", should_refuse="true",
                       annotators="ann1")
    with open(tasks, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(exported[0]))
        writer.writeheader()
        writer.writerows(exported)
    result = run(tasks, data, tmp_path / "q.parquet")
    assert result.exit_code == 0, result.output
    import polars as pl

    assert sorted(pl.read_parquet(tmp_path / "q.parquet")["dialogue_id"]) == sorted(r["dialogue_id"] for r in rows)


@pytest.mark.parametrize("field, cell, message", [
    ("gold_items", "[" * 5000 + "]" * 5000, "gold_items: a JSON array nested too deeply"),
    ("gold_turns", "[" + "9" * 5000 + "]", "gold_turns: a JSON array that cannot be read"),
    ("gold_turns", "9" * 5000, "gold_turns: '99999"),
    ("choices", '["a", ' + '"b", ' * 3000 + '"c"]', "choices has 3,002 entries (limit 10)"),
])
def test_a_csv_cell_built_to_hurt_is_a_short_row_error(tmp_path, data, field, cell, message):
    questions = all_questions(data[1])
    lines = write_csv(tmp_path / "q.csv", questions)
    rows = list(csv.DictReader(lines))
    rows[0][field] = cell
    with open(tmp_path / "q.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    line = one_line(run(tmp_path / "q.csv", data[0], tmp_path / "q.parquet"), 6)
    assert f"row 2: {message}" in line and len(line) < 2000


@pytest.mark.parametrize("planted", [".tasks.csv.tmp", ".q.parquet.tmp", ".q.report.json.tmp", ".q.parquet.lock"])
def test_a_link_planted_beside_the_output_never_leads_outside(tmp_path, data, planted):
    victim = tmp_path / "precious.txt"
    victim.write_text("years of work")
    out = tmp_path / "out"
    out.mkdir()
    (out / planted).symlink_to(victim)
    if planted.startswith(".tasks"):
        result = CliRunner().invoke(main, ["questions", "export", "--data", str(data[0]), "-o", str(out / "tasks.csv")])
    else:
        result = run(write_jsonl(tmp_path / "q.jsonl", all_questions(data[1])), data[0], out / "q.parquet")
    if planted.endswith(".lock"):  # a lock that is a link is not ours: refused, left alone
        assert "is a symbolic link" in one_line(result, 4)
    else:
        assert result.exit_code == 0, (result.output, repr(result.exception))
    assert victim.read_text() == "years of work"


def test_a_task_csv_of_a_long_dialogue_imports_back(tmp_path):
    from conftest import dialogue, make_stage_folder

    long = "word " * 6_000  # 30,000 characters a turn, under ingest's 32,000: 180,000 rendered
    rows = [dialogue([("user", long), ("assistant", long)] * 3, source_id="long-1")]
    data = make_stage_folder(tmp_path / "classified", rows)
    tasks = tmp_path / "tasks.csv"
    assert CliRunner().invoke(main, ["questions", "export", "--data", str(data), "-o", str(tasks)]).exit_code == 0
    limit = csv.field_size_limit(1 << 30)  # a spreadsheet takes long cells
    try:
        with open(tasks, newline="", encoding="utf-8") as fh:
            exported = list(csv.DictReader(fh))
    finally:
        csv.field_size_limit(limit)
    for row in exported:
        if row["ability"] == "AR":
            row.update(question="What is my street?", answer="Not said.", format="open", should_refuse="true")
    with open(tasks, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(exported[0]))
        writer.writeheader()
        writer.writerows(exported)
    result = run(tasks, data, tmp_path / "q.parquet")
    assert result.exit_code == 0, result.output
