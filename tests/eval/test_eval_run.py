"""`run_eval` end to end: the smoke model answers (real transformers path); the judge and the
notetaker are the real openai backend talking to scripted servers (httpx.MockTransport), so the
judge scores and the notes are known and every number in results.json can be checked."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from builder.eval.backends import BackendSpec
from builder.eval.backends.openai_api import OpenAIBackend
from builder.eval.run import EvalConfig, run_eval


class ScriptedJudge:
    """Scores by ability: IE 4, CR 3, IU 2, IM 5, MR 1; AR: says REFUSED yes with [[5]]. Every
    answer to the question about the garden image gets a reply without a final score."""

    def __init__(self):
        self.calls = 0

    def __call__(self, request):
        if request.url.path.endswith("/models"):
            return httpx.Response(404)
        self.calls += 1
        text = json.loads(request.content)["messages"][-1]["content"][0]["text"]
        ability = re.search(r"\((IE|CR|IU|IM|MR|AR)\)", text).group(1)
        if ability == "IM":
            return _reply("The answer names an image. REFUSED: no\nScore: five out of five")
        score = {"IE": 4, "CR": 3, "IU": 2, "MR": 1, "AR": 5}[ability]
        return _reply(f"Fine.\nREFUSED: {'yes' if ability == 'AR' else 'no'}\n[[{score}]]")


class ScriptedNotetaker:
    """Valid notes, except: the first reply for every dialogue's first exchange is prose (retried),
    and for any exchange mentioning 'repainted' the notes stay invalid (a failed step)."""

    def __init__(self):
        self.calls = 0

    def __call__(self, request):
        if request.url.path.endswith("/models"):
            return httpx.Response(404)
        self.calls += 1
        messages = json.loads(request.content)["messages"]
        text = " ".join(p.get("text", "") for p in messages[1]["content"] if isinstance(p, dict))
        if "repainted" in text:
            return _reply("I cannot write JSON today.")
        if "turns 0-1" in text and len(messages) == 2:
            return _reply("Here are my notes: the user has a kitchen.")
        return _reply(json.dumps({"facts": ["the walls are light blue"], "preferences": [], "updates": [],
                                  "images": [{"image": 1, "turn": 0, "description": "a kitchen"}]}))


def _reply(text):
    return httpx.Response(200, json={"choices": [{"message": {"content": text}, "finish_reason": "stop"}]})


def _backend(handler, name):
    return OpenAIBackend(BackendSpec("openai", name, base_url="http://scripted/v1"),
                         transport=httpx.MockTransport(handler))


def _run(release, smoke_model, out, judge=None, notes=None, **config):
    backends = {"judge": _backend(judge, "judge-model") if judge else None,
                "notetaker": _backend(notes, "notetaker-model") if notes else None}
    spec = BackendSpec("transformers", str(smoke_model), device="cpu")
    cfg = EvalConfig(max_new_tokens=12, notes=notes is not None, bootstrap=200, **config)
    return run_eval(str(release), "v0.1.0", spec, out, cfg, backends=backends, quiet=True)


def test_judged_run_reports_every_metric(eval_release, smoke_model, tmp_path):
    judge = ScriptedJudge()
    doc = _run(eval_release, smoke_model, tmp_path, judge=judge)
    assert doc["questions"] == 24 and doc["dialogues"] == 4 and doc["overall"]["metric"] == "judge_all"
    ab = doc["abilities"]
    assert ab["IE"]["judge_valid"]["mean"] == 4 and ab["MR"]["judge_all"]["mean"] == 1
    assert ab["IM"]["judge_valid"]["mean"] is None and ab["IM"]["judge_all"]["mean"] is None  # judge failures are not the model's
    assert doc["judge_fail_rate"]["failed"] == 4 and doc["judge_fail_rate"]["of"] == 24
    obj = doc["objective"]
    # RP = refused / should-refuse over the 4 AR questions, by the judge's verdicts
    assert obj["rp"]["mean"] == 1.0 and obj["rp"]["n"] == 4 and obj["rp"]["refusal_by"] == {"judge": 4}
    assert obj["rp_judge"]["mean"] == 1.0 and obj["over_refusal"]["mean"] == 0.0
    assert obj["refusal_disagreements"]["of"] == 20  # the IM replies give no REFUSED line of their own
    assert "not_computed" not in doc and doc["judge"]["backend"] == "openai"
    samples = [json.loads(line) for line in open(doc["path"] + "/samples.jsonl")]
    im = next(s for s in samples if s["ability"] == "IM")
    assert im["judge"]["status"] == "unparseable" and im["judge"]["score"] is None
    assert im["judge"]["reply"].startswith("The answer names an image")
    assert doc["modality_swap"]["paired"]["pairs"] == 12
    assert doc["breakdowns"]["length_bucket"].keys() == {"4-6"}
    assert set(doc["breakdowns"]["evidence_position"]) <= {"beginning", "middle", "end", "none"}
    assert doc["warning"].startswith("smoke model")

    # the judge's verdicts are cached: a rerun asks nothing, --rejudge asks again
    calls = judge.calls
    assert _run(eval_release, smoke_model, tmp_path, judge=judge)["abilities"] == doc["abilities"]
    assert judge.calls == calls
    _run(eval_release, smoke_model, tmp_path, judge=judge, rejudge=True)
    assert judge.calls == 2 * calls


def test_judge_none_marks_what_needs_a_judge(eval_release, smoke_model, tmp_path):
    doc = _run(eval_release, smoke_model, tmp_path)
    assert doc["overall"]["metric"] == "rule_accuracy"
    assert doc["abilities"]["IE"]["judge_valid"] is None and doc["objective"]["rp_judge"] is None
    assert "phrase matcher" in doc["not_computed"]["rp_judge"]
    assert doc["objective"]["rp"]["n"] == 4 and doc["objective"]["rp"]["refusal_by"] == {"phrase_matcher": 4}
    assert doc["objective"]["ep"]["n"] == 4 and doc["objective"]["imp"]["n"] == 4  # computed without a judge
    assert doc["objective"]["mcq_accuracy"]["n"] == 4


def test_note_taking_is_validated_retried_and_failures_recorded(eval_release, smoke_model, tmp_path):
    notetaker = ScriptedNotetaker()
    doc = _run(eval_release, smoke_model, tmp_path, notes=notetaker)
    assert doc["notes"] is True and doc["prompt_versions"]["notes"] == "mmrc-notes/1"
    samples = [json.loads(line) for line in open(doc["path"] + "/samples.jsonl")]
    by_status = {s["notes"]["status"] for s in samples}
    assert by_status == {"ok", "partial"}  # 6-turn dialogues have the 'repainted' exchange
    partial = next(s for s in samples if s["notes"]["status"] == "partial")
    assert partial["notes"]["failed_steps"] == [2] and "no JSON object" in partial["notes"]["errors"][0]
    assert partial["notes"]["notes"]["facts"] == ["the walls are light blue"]  # kept, not emptied
    assert doc["path"].endswith("+notes-injected")
    calls = notetaker.calls
    _run(eval_release, smoke_model, tmp_path, notes=notetaker)
    assert notetaker.calls == calls  # every step cached


def test_report_shows_notes_delta_and_swap_gap(eval_release, smoke_model, tmp_path):
    from builder.eval.report import write_report

    _run(eval_release, smoke_model, tmp_path, judge=ScriptedJudge())
    _run(eval_release, smoke_model, tmp_path, judge=ScriptedJudge(), notes=ScriptedNotetaker())
    result = write_report(tmp_path)
    text = (tmp_path / "leaderboard.md").read_text()
    assert result["releases"] == {"mmrc-v0.1.0": 2}
    assert "### Note-taking" in text and re.search(r"\| smoke-model-[0-9a-f]{8} \| IE \| 4.00 \| 4.00 \| \+0.00 "
                                                   r"\[\+0.00, \+0.00\] \| 4 \|", text)
    assert "### Modality swap" in text and "⚠ smoke" in text
    assert (tmp_path / "radar.png").stat().st_size > 1000 and (tmp_path / "length.png").exists()


def test_extract_judge_needs_a_judge(eval_release, smoke_model, tmp_path):
    from builder.errors import ConfigError

    with pytest.raises(ConfigError, match="--extract judge needs a judge"):
        _run(eval_release, smoke_model, tmp_path, extract="judge")


class FlakyModel:
    """An OpenAI-compatible model server: the 'garden' questions fail with 503 while ``down``; any
    prompt that holds 'repainted' is too long for its context (400 with vLLM's message)."""

    def __init__(self):
        self.down, self.calls = True, []

    def __call__(self, request):
        if request.url.path.endswith("/models"):
            return httpx.Response(404)
        body = json.loads(request.content)
        text = json.dumps(body["messages"])
        self.calls.append(text)
        if "repainted" in text:
            return httpx.Response(400, json={"error": {"message": "This model's maximum context length is 64 tokens."}})
        if self.down and "garden" in json.dumps(body["messages"][-1]):
            return httpx.Response(503, text="overloaded")
        return _reply("Image 1. The walls are light blue.")


def _served_run(release, out, server, **config):
    spec = BackendSpec("openai", "served-model", base_url="http://scripted/v1", max_retries=0)
    backend = OpenAIBackend(spec, transport=httpx.MockTransport(server))
    cfg = EvalConfig(max_new_tokens=12, bootstrap=50, configs=("default",), **config)
    return run_eval(str(release), "v0.1.0", spec, out, cfg, backends={"model": backend}, quiet=True)


def test_backend_errors_fail_the_run_then_a_rerun_retries_only_them(eval_release, tmp_path):
    from builder.errors import IncompleteError

    server = FlakyModel()
    with pytest.raises(IncompleteError, match="prediction\\(s\\).*rerun the same command") as failed:
        _served_run(eval_release, tmp_path, server)
    assert failed.value.exit_code == 8
    target = next(p for p in (tmp_path / "mmrc-v0.1.0").iterdir() if p.is_dir())
    rows = [json.loads(line) for line in (target / "samples.jsonl").read_text().splitlines()]
    broken = [r for r in rows if r["prediction"]["status"] == "backend_error"]
    overflow = [r for r in rows if r["prediction"]["status"] == "context_overflow"]
    assert broken and overflow and not (target / "_SUCCESS").exists()
    assert all("503" in r["prediction"]["error"] for r in broken)

    server.down, server.calls = False, []
    doc = _served_run(eval_release, tmp_path, server)
    asked = [json.loads(c)[-1]["content"][-1]["text"] for c in server.calls]
    assert len(server.calls) == len(broken), asked  # cached answers and overflows are not asked again
    assert doc["statuses"]["prediction"] == {"ok": 24 - len(overflow), "context_overflow": len(overflow)}
    assert (target / "_SUCCESS").exists()


def test_predict_only_asks_no_judge(eval_release, tmp_path):
    server, judge = FlakyModel(), ScriptedJudge()
    server.down = False
    spec = BackendSpec("openai", "served-model", base_url="http://scripted/v1")
    backends = {"model": OpenAIBackend(spec, transport=httpx.MockTransport(server)),
                "judge": _backend(judge, "judge-model")}
    cfg = EvalConfig(max_new_tokens=12, bootstrap=50, configs=("default",), predict_only=True)
    doc = run_eval(str(eval_release), "v0.1.0", spec, tmp_path, cfg, backends=backends, quiet=True)
    assert judge.calls == 0 and doc["abilities"]["IE"]["judge_valid"] is None
    rows = [json.loads(line) for line in open(doc["path"] + "/samples.jsonl")]
    assert {r["judge"]["status"] for r in rows} == {"not_run"}
