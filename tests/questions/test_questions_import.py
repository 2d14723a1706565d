"""`mmrc-build questions import`: validation errors by row, warnings, annotator disagreement."""

from __future__ import annotations

import csv
import json

import polars as pl
import pytest
from click.testing import CliRunner

from builder.cli import main
from qr_fixtures import data_folder, six_questions, write_jsonl


@pytest.fixture()
def data(tmp_path):
    return data_folder(tmp_path / "classified", n=2)


def run(*args):
    return CliRunner().invoke(main, ["questions", "import", *map(str, args)])


def test_jsonl_by_source_id_round_trips(tmp_path, data):
    folder, rows = data
    qfile = write_jsonl(tmp_path / "q.jsonl", [q for r in rows for q in six_questions(r["source_id"])])
    out = tmp_path / "q.parquet"
    result = run(qfile, "--data", folder, "-o", out)
    assert result.exit_code == 0, result.output
    df = pl.read_parquet(out)
    assert df.height == 12
    assert set(df["dialogue_id"]) == {r["dialogue_id"] for r in rows}
    assert df["ability"].to_list()[:6] == ["IE", "CR", "IU", "IM", "MR", "AR"]
    iu = df.filter(pl.col("ability") == "IU").row(0, named=True)
    assert iu["answer"] == "true" and iu["should_refuse"] is False and iu["gold_turns"] == [1]
    report = json.loads((tmp_path / "q.report.json").read_text())
    assert report["errors"] == [] and report["questions"] == 12


def test_csv_with_list_cells(tmp_path, data):
    folder, rows = data
    qs = [q for r in rows for q in six_questions(r["source_id"])]
    fields = ["dialogue_id", "source_id", "ability", "format", "question", "choices", "answer", "gold_items",
              "gold_images", "gold_turns", "should_refuse", "annotators", "review"]
    path = tmp_path / "q.csv"
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for q in qs:
            w.writerow({f: ("|".join(map(str, q[f])) if isinstance(q.get(f), list) else q.get(f, ""))
                        for f in fields})
    result = run(path, "--data", folder, "-o", tmp_path / "q.parquet")
    assert result.exit_code == 0, result.output
    ie = pl.read_parquet(tmp_path / "q.parquet").filter(pl.col("ability") == "IE").row(0, named=True)
    assert ie["gold_items"] == ["roses", "tulips", "lemon tree"]


BAD = {
    "unknown dialogue_id": ({"dialogue_id": "f" * 32}, "unknown dialogue_id"),
    "unknown source_id": ({"source_id": "nope"}, "unknown source_id"),
    "gold_turns": ({"gold_turns": [9]}, "gold_turns [9] out of range"),
    "gold_images": ({"gold_images": [5]}, "gold_images [5] out of range"),
    "mcq without choices": ({"format": "mcq", "choices": []}, "at least two choices"),
    "mcq answer": ({"format": "mcq", "choices": ["a", "b"], "answer": "c"}, "not one of the choices"),
    "tf answer": ({"format": "tf", "answer": "maybe"}, "must be true or false"),
    "AR refuse": ({"ability": "AR", "should_refuse": None}, "AR question without should_refuse"),
    "ability": ({"ability": "XX"}, "ability 'XX' is not one of"),
    "format": ({"format": "essay"}, "format 'essay' is not one of"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_each_validation_error_names_the_row(tmp_path, data, case):
    folder, rows = data
    qs = six_questions(rows[0]["source_id"])
    change, message = BAD[case]
    qs[2] = {**qs[2], **change}
    qfile = write_jsonl(tmp_path / "q.jsonl", qs)
    result = run(qfile, "--data", folder, "-o", tmp_path / "q.parquet")
    assert result.exit_code == 6, result.output
    assert "row 3: " in result.output and message in result.output
    assert len(result.output.strip().splitlines()) == 1  # one line, no traceback
    assert not (tmp_path / "q.parquet").exists()
    assert json.loads((tmp_path / "q.report.json").read_text())["errors"][0].startswith("row 3: ")


def test_duplicate_question_ids(tmp_path, data):
    folder, rows = data
    qs = six_questions(rows[0]["source_id"])
    qs = [{**q, "question_id": f"q{i}"} for i, q in enumerate(qs)]
    qs.append({**qs[1]})  # same annotator, same id
    result = run(write_jsonl(tmp_path / "q.jsonl", qs), "--data", folder, "-o", tmp_path / "q.parquet")
    assert result.exit_code == 6
    assert "row 7: duplicate question_id 'q1' (first at row 2)" in result.output


def test_missing_abilities_warn_or_fail_by_flag(tmp_path, data):
    folder, rows = data
    qfile = write_jsonl(tmp_path / "q.jsonl", six_questions(rows[0]["source_id"])[:4])
    ok = run(qfile, "--data", folder, "-o", tmp_path / "q.parquet")
    assert ok.exit_code == 0 and f"warning: dialogue {rows[0]['dialogue_id']} lacks abilities MR, AR" in ok.output
    strict = run(qfile, "--data", folder, "-o", tmp_path / "q2.parquet", "--strict-abilities")
    assert strict.exit_code == 6 and "lacks abilities MR, AR" in strict.output


def test_two_annotators_agree_merge_disagree_reported(tmp_path, data):
    folder, rows = data
    first = [{**q, "question_id": f"s-{q['ability']}"} for q in six_questions(rows[0]["source_id"], "alice")]
    second = [{**q, "question_id": f"s-{q['ability']}"} for q in six_questions(rows[0]["source_id"], "bob")]
    second[4]["answer"] = "dark green"  # MR
    out = tmp_path / "q.parquet"
    result = run(write_jsonl(tmp_path / "q.jsonl", first + second), "--data", folder, "-o", out)
    assert result.exit_code == 0, result.output
    assert "review: s-MR annotators alice, bob disagree on answer (rows 5 and 11)" in result.output
    df = pl.read_parquet(out)
    assert df.height == 6 and df["annotators"].to_list()[0] == ["alice", "bob"]
    assert df.filter(pl.col("review") == "needs_review")["question_id"].to_list() == ["s-MR"]
    report = json.loads((tmp_path / "q.report.json").read_text())
    assert report["disagreements"][0]["fields"] == {"answer": ["light blue", "dark green"]}


def test_unfinished_data_folder_is_a_clear_error(tmp_path):
    qfile = write_jsonl(tmp_path / "q.jsonl", six_questions("conv-0"))
    result = run(qfile, "--data", tmp_path / "nothing", "-o", tmp_path / "q.parquet")
    assert result.exit_code == 3 and "does not exist" in result.output


def test_questions_of_dialogues_dropped_upstream_are_skipped_not_errors(tmp_path):
    """A dialogue clean removed (toxic, PII coherence) keeps no questions, and that is no error."""
    import json as _json

    import polars as pl

    from builder import io
    from builder.questions.importer import import_questions
    from conftest import dialogue, make_stage_folder

    kept = dialogue([("user", "what is a good first guitar?"), ("assistant", "a nylon-string classical")])
    gone = dialogue([("user", "you are useless"), ("assistant", "I am sorry to hear that")], source_id="bad-1")
    data = make_stage_folder(tmp_path / "data", [kept])
    ledger = io.read_ledger(data)
    extra = pl.DataFrame([
        {"dialogue_id": gone["dialogue_id"], "stage": "ingest", "decision": "kept", "reason": "ingested",
         "detail": _json.dumps({"source": "a.jsonl", "source_id": "bad-1"})},
        {"dialogue_id": gone["dialogue_id"], "stage": "clean", "decision": "dropped", "reason": "toxic:insult",
         "detail": "{}"}], schema=ledger.schema)
    io.write_parquet_atomic(io.sort_ledger(pl.concat([ledger, extra])), data / "ledger.parquet")
    rows = [{"source_id": "bad-1", "ability": "MR", "format": "open", "question": "What did the user say?",
             "answer": "x", "gold_turns": [0]},
            {"dialogue_id": kept["dialogue_id"], "ability": "MR", "format": "open",
             "question": "Which guitar was suggested?", "answer": "a nylon-string classical", "gold_turns": [1]}]
    src = tmp_path / "q.jsonl"
    src.write_text("\n".join(_json.dumps(r) for r in rows) + "\n")
    report = import_questions(src, data, tmp_path / "q.parquet")
    assert report["questions"] == 1
    assert report["skipped_dialogue_dropped_upstream"] == {"clean:toxic:insult": 1}
