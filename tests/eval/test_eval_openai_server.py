"""The openai backend against a real OpenAI-compatible server: `transformers serve` on 127.0.0.1
serving the smoke model in a subprocess (multi-turn, several images as data URLs)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from builder.eval import prompts
from builder.eval.backends import BackendSpec, Group, Request, make_backend
from conftest import png_bytes

pytestmark = pytest.mark.timeout(300)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(smoke_model):
    pytest.importorskip("fastapi", reason="transformers serve needs the [serve] extra")
    port = _free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    exe = os.path.join(os.path.dirname(sys.executable), "transformers")
    proc = subprocess.Popen([exe, "serve", str(smoke_model), "--host", "127.0.0.1", "--port", str(port),
                             "--device", "cpu"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"transformers serve exited: {proc.stdout.read().decode()[-2000:]}")
        try:
            if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("transformers serve did not start within 120 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def _groups():
    img = lambda color, size: {"sha256": str(color), "mime": "image/png",  # noqa: E731
                               "bytes": png_bytes(color=color, size=size), "url": None}
    turns = [
        {"index": 0, "role": "user", "text": "Look at my garden", "images": [img((10, 200, 30), (40, 30)),
                                                                              img((200, 10, 30), (20, 50))]},
        {"index": 1, "role": "assistant", "text": "Nice roses.", "images": []},
        {"index": 2, "role": "user", "text": "and the kitchen", "images": [img((1, 2, 250), (30, 30))]},
        {"index": 3, "role": "assistant", "text": "Light blue walls.", "images": []},
    ]
    questions = ["Which plants?", "Which image shows the kitchen?", "What colour are the walls?"]
    return [Group([Request(f"q{i}", prompts.messages_for(turns, {"question": q, "format": "open", "choices": []}), 16)
                   for i, q in enumerate(questions)], prefix_len=len(turns))]


def _answers(backend):
    out = {}
    backend.run(_groups(), lambda request, reply: out.__setitem__(request.key, reply))
    return out


def test_answers_match_the_in_process_backend(server, smoke_model):
    served = _answers(make_backend(BackendSpec("openai", str(smoke_model), base_url=server, concurrency=2)))
    local = _answers(make_backend(BackendSpec("transformers", str(smoke_model), device="cpu")))
    assert {k: r.status for k, r in served.items()} == {"q0": "ok", "q1": "ok", "q2": "ok"}
    assert {k: r.text for k, r in served.items()} == {k: r.text for k, r in local.items()}
    assert [served[k].prompt_tokens for k in sorted(served)] == [local[k].prompt_tokens for k in sorted(local)]


def test_server_fingerprint_lists_the_model(server, smoke_model):
    backend = make_backend(BackendSpec("openai", str(smoke_model), base_url=server))
    assert backend.fingerprint()["server"].get("id") == str(smoke_model)


def test_cli_with_served_model_judge_and_notetaker(server, smoke_model, eval_release, tmp_path):
    """The whole CLI over a real server: model, judge and notetaker all served. The random model
    writes neither a final [[N]] nor valid JSON notes: every verdict is None (never 0) and every
    note-taking step is a recorded failure (never silently empty notes)."""
    import json

    from click.testing import CliRunner

    from builder.cli import main

    result = CliRunner().invoke(main, [
        "eval", "run", str(eval_release), "--revision", "v0.1.0", "--backend", "openai", "--base-url", server,
        "--model", str(smoke_model), "--judge-backend", "openai", "--judge-base-url", server,
        "--judge-model", str(smoke_model), "--notes", "--notetaker-backend", "openai",
        "--notetaker-base-url", server, "--notetaker-model", str(smoke_model), "--limit", "1",
        "--configs", "default", "--max-new-tokens", "8", "-o", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    target = next(p for p in (tmp_path / "mmrc-v0.1.0").glob("*+notes-*") if p.is_dir())
    doc = json.loads((target / "results.json").read_text())
    assert doc["judge_fail_rate"]["rate"] == 1.0 and doc["statuses"]["judge"] == {"unparseable": 6}
    assert doc["abilities"]["MR"]["judge_valid"]["mean"] is None and doc["abilities"]["MR"]["judge_all"]["mean"] is None
    assert doc["statuses"]["notes"] == {"failed": 6} and doc["notetaker"]["backend"] == "openai"
    rows = [json.loads(line) for line in (target / "samples.jsonl").read_text().splitlines()]
    assert all(r["notes"]["errors"] and r["judge"]["reply"] is not None for r in rows)
