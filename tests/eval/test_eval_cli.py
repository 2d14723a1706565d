"""`mmrc-build eval` through the real CLI: the smoke model on a small release with --judge none,
resume after SIGKILL, the output lock, one-line errors, the report."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import model_dir

pytestmark = pytest.mark.timeout(600)


def _args(release, model, out, *extra):
    return ["eval", "run", str(release), "--revision", "v0.1.0", "--model", str(model), "--device", "cpu",
            "--judge", "none", "--max-new-tokens", "16", "-o", str(out), "--quiet", *extra]


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_run_rerun_and_report(eval_release, smoke_model, tmp_path):
    result = invoke(*_args(eval_release, smoke_model, tmp_path))
    assert result.exit_code == 0, result.output
    assert "WARNING: smoke model" in result.output and "24 questions on 4 dialogues" in result.output
    target = model_dir(tmp_path)
    rows = [json.loads(line) for line in (target / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 36 and {r["config"] for r in rows} == {"default", "modality_swap"}
    assert all(r["prediction"]["status"] == "ok" and r["judge"] == {"status": "not_run"} for r in rows)
    results = json.loads((target / "results.json").read_text())
    assert results["release"]["commit"] and results["release"]["revision"] == "v0.1.0"
    assert results["model"]["weights_sha256"] and results["generation"]["max_new_tokens"] == 16
    assert (target / "figures" / "abilities.png").exists() and (target / "manifest.json").exists()
    before = {p: (target / p).read_bytes() for p in ("samples.jsonl", "results.json")}

    again = invoke(*_args(eval_release, smoke_model, tmp_path))
    assert again.exit_code == 0, again.output
    assert {p: (target / p).read_bytes() for p in before} == before
    manifest = json.loads((target / "manifest.json").read_text())
    assert manifest["cache"]["predict"] == {"hits": 36, "misses": 0}

    report = invoke("eval", "report", str(tmp_path))
    assert report.exit_code == 0, report.output
    assert f"{target.name} ⚠ smoke" in (tmp_path / "leaderboard.md").read_text()


def _cached_predictions(db):
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return conn.execute("SELECT count(*) FROM entries WHERE kind = 'predict'").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_kill_mid_predict_then_resume_gives_the_same_samples(eval_release, smoke_model, tmp_path):
    # Every run is its own process, as a user's are: this pytest process has run other tests, and a
    # random-weight model's near-tied logits can flip with the process's numeric state.
    def cli(out):
        return [sys.executable, "-m", "builder.cli", *_args(eval_release, smoke_model, out, "--max-new-tokens", "48",
                                                            "--batch-size", "1")]

    clean = subprocess.run(cli(tmp_path / "clean"), capture_output=True, text=True, env=os.environ.copy())
    assert clean.returncode == 0, clean.stdout + clean.stderr
    out = tmp_path / "killed"
    proc = subprocess.Popen(cli(out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
    deadline = time.monotonic() + 240
    while _cached_predictions(out / "cache.sqlite") < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = _cached_predictions(out / "cache.sqlite")
    assert 3 <= done < 36, f"the kill should land mid-predict ({done} answers cached)"
    clean_target = model_dir(tmp_path / "clean")
    target = out / "mmrc-v0.1.0" / clean_target.name  # same model and settings: same slug
    assert not (target / "results.json").exists()  # nothing finished-looking after a kill

    resumed = subprocess.run(cli(out), capture_output=True, text=True, env=os.environ.copy())
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert (target / "samples.jsonl").read_bytes() == (clean_target / "samples.jsonl").read_bytes()
    assert (target / "results.json").read_bytes() == (clean_target / "results.json").read_bytes()
    hits = json.loads((target / "manifest.json").read_text())["cache"]["predict"]["hits"]
    assert hits >= done


def test_a_second_writer_is_refused_with_the_holder(eval_release, smoke_model, tmp_path):
    from builder.locks import FolderLock

    with FolderLock(tmp_path / "mmrc-v0.1.0" / "smoke-model"):
        result = invoke(*_args(eval_release, smoke_model, tmp_path, "--name", "smoke-model"))
    assert result.exit_code == 9
    assert f"pid {os.getpid()}" in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("args, code, message", [
    (["--judge", "auto"], 2, "--judge-backend NAME --judge-model MODEL"),
    (["--backend", "vllm-direct"], 2, "available: openai, transformers"),
    (["--configs", "default,bogus"], 2, "available: default, modality_swap"),
    (["--revision", "v9.9.9"], 3, "its tags: v0.1.0"),
    (["--backend", "openai"], 2, "needs --base-url"),
    (["--notes"], 2, "--notetaker-backend"),
])
def test_user_errors_are_one_line(eval_release, smoke_model, tmp_path, args, code, message):
    base = _args(eval_release, smoke_model, tmp_path)
    if "--judge" in args:
        i = base.index("--judge")
        del base[i:i + 2]
    if "--revision" in args:
        i = base.index("--revision")
        del base[i:i + 2]
    result = invoke(*base, *args)
    assert result.exit_code == code, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_missing_or_edited_release_is_refused(eval_release, smoke_model, tmp_path):
    missing = invoke(*_args(tmp_path / "nope", smoke_model, tmp_path))
    assert missing.exit_code == 3 and "neither a folder nor a Hub repo id" in missing.output
    edited = tmp_path / "edited"
    shutil.copytree(eval_release, edited)
    (edited / "README.md").write_text("tampered\n")
    args = _args(edited, smoke_model, tmp_path)
    i = args.index("--revision")
    del args[i:i + 2]
    result = invoke(*args)
    assert result.exit_code == 3 and "uncommitted changes" in result.output
    pinned = invoke(*_args(edited, smoke_model, tmp_path))  # the tag is still there, and is what runs
    assert pinned.exit_code == 0, pinned.output


def test_smoke_model_command(tmp_path):
    result = invoke("eval", "smoke-model", str(tmp_path / "m"))
    assert result.exit_code == 0 and "scores mean nothing" in result.output
    assert (tmp_path / "m" / "model.safetensors").exists() and (tmp_path / "m" / "mmrc_smoke_model.json").exists()
