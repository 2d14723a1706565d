"""Human re-evaluation (eval review export/import), eval compare, --sample/--abilities, generation
settings: through the real CLI against a scripted server on 127.0.0.1."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.eval.review import weighted_kappa
from builder.eval.select import stratified_sample
from scripted_server import ScriptedServer, user_text

pytestmark = pytest.mark.timeout(600)


def judge_or_answer(body: dict) -> str:
    if body["model"] == "judge":
        text = user_text(body)
        score = {"(CR)": 4, "(IU)": 2, "(MR)": 5}.get(next((a for a in ("(CR)", "(IU)", "(MR)") if a in text), ""), 3)
        return f"ok\nREFUSED: no\n[[{score}]]"
    return "B" if body["model"] == "model-b" else "A"


@pytest.fixture(scope="module")
def server():
    with ScriptedServer(judge_or_answer) as srv:
        yield srv


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def run(release, server, out, model, *extra):
    result = invoke("eval", "run", release, "--revision", "v0.1.0", "--backend", "openai", "--base-url", server.url,
                    "--model", model, "--name", model, "--judge-backend", "openai", "--judge-base-url", server.url,
                    "--judge-model", "judge", "-o", out, "--quiet", *extra)
    assert result.exit_code == 0, result.output
    return out / "mmrc-v0.1.0" / model


def fill(sheet, scores: dict[str, int], annotator="ann-1"):
    """Fill a sheet: human_score per ability, the annotator named."""
    rows = list(csv.DictReader(io.StringIO(sheet.read_text())))
    for row in rows:
        row["human_score"], row["annotator"] = str(scores[row["ability"]]), annotator
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    sheet.write_text(buf.getvalue())
    return rows


def test_review_export_fill_import_round_trip(eval_release, server, tmp_path):
    target = run(eval_release, server, tmp_path, "model-a")
    exported = invoke("eval", "review", "export", target)
    assert exported.exit_code == 0, exported.output
    sheet = target / "review-CR-IU-MR.csv"
    rows = list(csv.DictReader(io.StringIO(sheet.read_text())))
    assert len(rows) == 12 and {r["ability"] for r in rows} == {"CR", "IU", "MR"}  # 4 dialogues x 3, originals
    first = rows[0]
    assert first["human_score"] == "" and first["judge_score"] in ("2", "4", "5") and first["context"].startswith("Turn ")
    # the reviewer agrees with the judge on CR and MR, scores IU one lower (judge 2, human 1)
    fill(sheet, {"CR": 4, "IU": 1, "MR": 5})
    imported = invoke("eval", "review", "import", target, sheet)
    assert imported.exit_code == 0, imported.output
    doc = json.loads((target / "results.json").read_text())
    human = doc["human"]["abilities"]
    assert human["CR"]["human"]["mean"] == 4.0 and human["IU"]["human"]["mean"] == 1.0 and human["MR"]["human"]["n"] == 4
    assert human["IU"]["judge_on_reviewed"]["mean"] == 2.0
    assert human["IU"]["agreement"] == {"n": 4, "exact": 0.0, "within_1": 1.0, "weighted_kappa": 0.0}
    overall = doc["human"]["agreement"]  # 8 exact of 12, all within 1; kappa by hand below
    assert overall["n"] == 12 and overall["exact"] == round(8 / 12, 4) and overall["within_1"] == 1.0
    assert overall["weighted_kappa"] == weighted_kappa([(4, 4)] * 4 + [(2, 1)] * 4 + [(5, 5)] * 4)
    manifest = json.loads((target / "manifest.json").read_text())
    assert "human_review.jsonl" in manifest["files"]
    # a rerun keeps the reviews (same answers), the report shows the starred columns
    run(eval_release, server, tmp_path, "model-a")
    assert json.loads((target / "results.json").read_text())["human"]["abilities"]["IU"]["human"]["mean"] == 1.0
    assert invoke("eval", "report", tmp_path).exit_code == 0
    board = (tmp_path / "leaderboard.md").read_text()
    assert "| CR* | IU* | MR* |" in board and "### Human re-evaluation" in board and "| IU* | 1.00" in board


def test_quadratic_weighted_kappa_by_hand():
    # 2 categories used of 6: observed [[1, 0], [0, 1]] on scores 0 and 5 -> perfect agreement
    assert weighted_kappa([(0, 0), (5, 5)]) == 1.0
    # pairs (0,5), (5,0): observed off-diagonal, expected 1/4 each cell -> kappa = 1 - 1/0.5 = -1
    assert weighted_kappa([(0, 5), (5, 0)]) == -1.0
    assert weighted_kappa([(3, 3)]) is None


def test_review_import_reports_every_bad_row_and_imports_nothing(eval_release, server, tmp_path):
    target = run(eval_release, server, tmp_path, "model-a")
    assert invoke("eval", "review", "export", target, "-o", tmp_path / "s.csv").exit_code == 0
    rows = fill(tmp_path / "s.csv", {"CR": 4, "IU": 1, "MR": 5})
    rows[0]["human_score"] = "7"
    rows[1]["annotator"] = ""
    rows[2]["sample_id"] = "nope/nope"
    rows[3]["answer_sha256"] = "0" * 16
    rows.append(dict(rows[4]))  # the same question scored twice by ann-1
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (tmp_path / "s.csv").write_text(buf.getvalue())
    result = invoke("eval", "review", "import", target, tmp_path / "s.csv")
    assert result.exit_code == 6
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("Error: s.csv row 2: human_score '7' is not an integer from 0 to 5")
    assert any("row 3: annotator is empty" in line for line in lines)
    assert any("row 4: sample_id 'nope/nope' is not a question of this run" in line for line in lines)
    assert any("row 5: the model's answer changed" in line for line in lines)
    assert any("scored twice by ann-1" in line for line in lines)
    assert lines[-1].endswith("5 bad row(s), nothing imported; fix them and import again")
    assert not (target / "human_review.jsonl").exists() and json.loads((target / "results.json").read_text())["human"] is None


@pytest.mark.parametrize("content, phrase", [
    (b"\xff\xfe garbage", "is not UTF-8"),
    (b"sample_id,human_score\nx,3\n", "lacks column(s) annotator, answer_sha256, ability"),
    (b'sample_id,ability,human_score,annotator,answer_sha256\n"x,CR,3,a,b\n', "not valid CSV"),
])
def test_review_import_refuses_files_that_are_no_sheet(eval_release, server, tmp_path, content, phrase):
    target = run(eval_release, server, tmp_path, "model-a")
    (tmp_path / "bad.csv").write_bytes(content)
    result = invoke("eval", "review", "import", target, tmp_path / "bad.csv")
    assert result.exit_code == 3 and phrase in result.output and len(result.output.strip().splitlines()) == 1


def test_compare_pairs_the_shared_questions(eval_release, server, tmp_path):
    a = run(eval_release, server, tmp_path, "model-a")
    b = run(eval_release, server, tmp_path, "model-b")
    result = invoke("eval", "compare", a, b, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["metric"] == "judge_all" and out["why_not_judge"] is None and out["shared"] == 24
    assert out["overall"]["difference"] == 0.0  # one judge, same scores per ability
    assert out["abilities"]["CR"]["n"] == 4
    text = invoke("eval", "compare", a, b).output
    assert "B − A on 24 shared questions, judge_all" in text
    # under another judge prompt the runs compare on rule accuracy only, and it says why:
    # the CR mcq answer is "kitchen" (B): model-b is right on all 4, model-a on none
    results = json.loads((b / "results.json").read_text())
    results["prompt_versions"]["judge_sha256"] = "another-prompt"
    (b / "results.json").write_text(json.dumps(results))
    rule = json.loads(invoke("eval", "compare", a, b, "--json").output)
    assert rule["metric"] == "rule_accuracy" and "different judges" in rule["why_not_judge"]
    assert rule["abilities"]["CR"]["a"] == 0.0 and rule["abilities"]["CR"]["b"] == 1.0
    assert rule["abilities"]["CR"]["difference"] == 1.0


def test_sample_is_stratified_by_topic_and_reproducible(eval_release, server, tmp_path):
    target = run(eval_release, server, tmp_path, "model-a", "--sample", "2", "--seed", "3", "--abilities", "IE,MR",
                 "--configs", "default")
    rows = [json.loads(line) for line in (target / "samples.jsonl").read_text().splitlines()]
    assert {r["ability"] for r in rows} == {"IE", "MR"} and len(rows) == 4
    assert {r["topic"] for r in rows} == {"Food", "House"}  # one dialogue of each topic
    doc = json.loads((target / "results.json").read_text())
    assert doc["config"]["sample"] == 2 and doc["config"]["abilities"] == ["IE", "MR"]


def test_stratified_sample_by_hand():
    rows = [(f"a{i}", "Food") for i in range(6)] + [(f"b{i}", "House") for i in range(3)] + [("c0", None)]
    chosen = stratified_sample(rows, 5, seed=1)
    assert len(chosen) == 5 and stratified_sample(rows, 5, seed=1) == chosen
    counts = {t: sum(1 for d in chosen if d[0] == t[0].lower()) for t in ("a", "b", "c")}
    assert counts == {"a": 3, "b": 1, "c": 1}  # quotas 3.0, 1.5, 0.5 with one per topic: 3 + 1 + 1
    assert stratified_sample(rows, 50, seed=1) == {d for d, _ in rows}


def test_generation_settings_reach_the_server_and_the_results(eval_release, server, tmp_path):
    server.requests.clear()
    target = run(eval_release, server, tmp_path, "model-a", "--generation", "model-default", "--temperature", "0.7",
                 "--top-p", "0.9", "--seed", "11", "--configs", "default", "--limit", "1")
    bodies = [b for b in server.requests if b["model"] == "model-a"]
    assert bodies and all(b["temperature"] == 0.7 and b["top_p"] == 0.9 and b["seed"] == 11 for b in bodies)
    judge_bodies = [b for b in server.requests if b["model"] == "judge"]
    assert judge_bodies and all(b["temperature"] == 0 and "top_p" not in b for b in judge_bodies)  # the judge: greedy
    doc = json.loads((target / "results.json").read_text())
    assert doc["generation"]["mode"] == "model-default" and doc["generation"]["temperature"] == 0.7
    assert doc["generation"]["seed"] == 11 and doc["generation"]["judge"] == "greedy"
    server.requests.clear()
    run(eval_release, server, tmp_path, "model-a", "--configs", "default", "--limit", "1")  # greedy: a new cache key
    assert all(b["temperature"] == 0 for b in server.requests if b["model"] == "model-a")
    assert any(b["model"] == "model-a" for b in server.requests)


def test_judge_context_full_shows_the_whole_conversation(eval_release, server, tmp_path):
    server.requests.clear()
    target = run(eval_release, server, tmp_path, "model-a", "--judge-context", "full", "--configs", "default",
                 "--limit", "1")
    prompts = [user_text(b) for b in server.requests if b["model"] == "judge"]
    assert prompts and all("The conversation:\nTurn 0 (user): [Image 1] Here is my kitchen" in p for p in prompts)
    doc = json.loads((target / "results.json").read_text())
    assert doc["prompt_versions"]["judge_context"] == "full" and doc["prompt_versions"]["judge"] == "mmrc-judge/3"


def test_trust_remote_code_is_an_explicit_warned_opt_in(eval_release, smoke_model, tmp_path):
    result = CliRunner().invoke(main, ["eval", "run", str(eval_release), "--revision", "v0.1.0", "--model",
                                       str(smoke_model), "--device", "cpu", "--judge", "none", "--trust-remote-code",
                                       "--limit", "1", "--configs", "default", "--max-new-tokens", "4", "-o",
                                       str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "WARNING: --trust-remote-code runs the Python code shipped in" in result.output
    doc = json.loads(next(tmp_path.glob("mmrc-v0.1.0/*/results.json")).read_text())
    assert doc["model"]["trust_remote_code"] is True  # part of the identity: its answers are cached apart
