"""A finished run folder read back after a crash, a bad copy or a hand edit changed it: `eval report`,
`eval review export|import`, `eval compare` and a rerun of `eval run` on results.json, samples.jsonl,
human_review.jsonl and manifest.json that are truncated, garbage, nested too deeply, of the wrong types
or named pipes. Each ends in one line naming the file (exit 3; a rerun over a folder whose manifest is
damaged leaves it untouched, exit 4), never a traceback or a hang, and nothing of the run is rewritten."""

from __future__ import annotations

import csv
import io
import os

import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import copy_run
from scripted_server import ScriptedServer

pytestmark = pytest.mark.timeout(300)  # a pipe read by mistake blocks: fail instead of hanging

WRONG_TYPES = {
    "results.json": b'{"format": "mmrc-eval-results/2", "overall": "high", "questions": 3}',
    "samples.jsonl": b'{"sample_id": 7, "config": "default", "ability": "CR", "prediction": "yes"}\n',
    "human_review.jsonl": b'{"sample_id": "x", "ability": "CR", "annotator": "a", "score": "5", "answer_sha256": "0"}\n',
    "manifest.json": b"[]",
}
DAMAGE = {
    "truncated": lambda name, data: data[: len(data) // 2],
    "garbage": lambda name, data: b"\xff\xfe\x00 not json " * 20,
    "nested too deeply": lambda name, data: b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "an integer of 5000 digits": lambda name, data: b'{"n": ' + b"9" * 5000 + b"}\n",
    "wrong types": lambda name, data: WRONG_TYPES[name],
    "a pipe": None,
}
# (file, command): every reader of every file
READERS = [("results.json", "report"), ("results.json", "compare"), ("results.json", "review import"),
           ("samples.jsonl", "review export"), ("samples.jsonl", "review import"), ("samples.jsonl", "compare"),
           ("human_review.jsonl", "review import"), ("human_review.jsonl", "rerun"),
           ("manifest.json", "review import"), ("manifest.json", "rerun")]


def judge_or_answer(body: dict) -> str:
    return "Fine.\nREFUSED: no\n[[4]]" if body["model"] == "judge" else "Image 1"


@pytest.fixture(scope="module")
def server():
    with ScriptedServer(judge_or_answer) as srv:
        yield srv


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line(result, code: int) -> str:
    lines = result.output.strip().splitlines()
    assert result.exit_code == code, (result.output, repr(result.exception))
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def filled_sheet(run, path, score="4", annotator="ann-1"):
    assert invoke("eval", "review", "export", run, "-o", path).exit_code == 0
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    for row in rows:
        row["human_score"], row["annotator"] = score, annotator
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def snapshot(run) -> dict:
    return {p.name: (p.read_bytes() if p.is_file() else "not a file") for p in sorted(run.iterdir())}


@pytest.mark.parametrize("name, command", READERS)
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_run_file_is_one_line_naming_it(finished_run, eval_release, server, tmp_path, name, command, damage):
    run = copy_run(finished_run, tmp_path)
    sheet = filled_sheet(finished_run, tmp_path / "sheet.csv")
    if name == "human_review.jsonl" or command == "rerun":
        assert invoke("eval", "review", "import", run, sheet).exit_code == 0  # the run has reviews to damage
    path = run / name
    if DAMAGE[damage] is None:
        path.unlink()
        os.mkfifo(path)
    else:
        path.write_bytes(DAMAGE[damage](name, path.read_bytes()))
    before = snapshot(run)
    args = {"report": ["eval", "report", run.parent.parent],
            "compare": ["eval", "compare", finished_run, run],
            "review import": ["eval", "review", "import", run, sheet, "--replace"],
            "review export": ["eval", "review", "export", run, "-o", tmp_path / "new.csv"],
            "rerun": ["eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                      server.url, "--model", "scripted", "--name", "scripted", "--judge", "none", "-o",
                      run.parent.parent, "--quiet"]}[command]
    if (name, command) == ("manifest.json", "rerun"):  # the tool cannot tell it wrote the folder: left untouched
        assert "was not written by `mmrc-build eval run`; it was left untouched" in one_line(invoke(*args), 4)
    else:
        line = one_line(invoke(*args), 3)
        assert str(path) in line and "; " in line
    assert snapshot(run) == before  # nothing imported, nothing rewritten
    assert not (tmp_path / "new.csv").exists()
