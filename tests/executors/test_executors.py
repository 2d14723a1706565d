"""One runner, three executors: local, processes and a real local Ray cluster give byte-identical
data files, and a run interrupted on one resumes on another."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import dialogue, make_stage_folder, model_dir

pytestmark = pytest.mark.timeout(600)

NAMES = ["John Smith", "Maria Garcia", "Wei Chen", "Aisha Khan", "Lars Nilsson", "Emma Brown"]


def _rows(n: int) -> list[dict]:
    rows = []
    for k in range(n):
        name = NAMES[k % len(NAMES)]
        rows.append(dialogue([
            ("user", f"Hi, I am {name}, call me on 555-201-{1000 + k} or mail {name.split()[0].lower()}{k}@example.com."),
            ("assistant", f"Hello {name.split()[0]}! How can I help with trip number {k}?"),
            ("user", f"I want to visit Rome in May {2020 + k % 5}. What should I pack?"),
            ("assistant", "Light clothes, comfortable shoes and a jacket for the evenings."),
        ], source_id=f"conv-{k}"))
    return rows


@pytest.fixture(scope="module")
def parts_input(tmp_path_factory):
    return make_stage_folder(tmp_path_factory.mktemp("exec") / "ingested", _rows(24), parts=6)


def _clean(input_dir, out, *extra):
    return CliRunner().invoke(main, ["clean", str(input_dir), "-o", str(out), "--toxicity-backend", "lexicon",
                                     "--quiet", *extra])


def _sums(folder: Path) -> dict[str, str]:
    files = sorted(folder.glob("part-*.parquet")) + [folder / "ledger.parquet"]
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_local_and_processes_give_the_same_bytes(parts_input, tmp_path):
    local = _clean(parts_input, tmp_path / "local")
    assert local.exit_code == 0, local.output
    pool = _clean(parts_input, tmp_path / "pool", "--executor", "processes", "--workers", "2")
    assert pool.exit_code == 0, pool.output
    assert _sums(tmp_path / "local") == _sums(tmp_path / "pool") and len(_sums(tmp_path / "local")) == 7


def test_unknown_executor_and_ray_options_elsewhere_are_one_line(parts_input, tmp_path):
    bad = _clean(parts_input, tmp_path / "x", "--executor", "dask")
    assert bad.exit_code == 2 and "dask" in bad.output
    gpu = _clean(parts_input, tmp_path / "y", "--gpus-per-worker", "1")
    assert gpu.exit_code == 2 and "--executor ray" in gpu.output


@pytest.fixture(scope="module")
def ray_ready():
    pytest.importorskip("ray", reason="the Ray executor needs the [ray] extra")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"


def test_ray_gives_the_same_bytes_as_local(ray_ready, parts_input, tmp_path):
    local = _clean(parts_input, tmp_path / "local")
    assert local.exit_code == 0, local.output
    result = _clean(parts_input, tmp_path / "ray", "--executor", "ray", "--workers", "2", "--cpus-per-worker", "1")
    assert result.exit_code == 0, result.output
    assert _sums(tmp_path / "ray") == _sums(tmp_path / "local")
    import json

    manifest = json.loads((tmp_path / "ray" / "manifest.json").read_text())
    assert manifest["executor"]["name"] == "ray" and manifest["executor"]["workers"] == 2


def _done_markers(out: Path) -> int:
    partial = out.parent / f".{out.name}.partial" / "_shards"
    return len(list(partial.glob("*.done"))) if partial.exists() else 0


def _kill_actors_of(pid: int) -> bool:
    """SIGKILL the Ray actors this run started (its own local cluster's processes), never another's."""
    import psutil

    killed = False
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if "ray::_Actor" in " ".join(child.cmdline()):
                child.kill()
                killed = True
        except psutil.NoSuchProcess:
            pass
    return killed


def test_a_killed_ray_actor_then_a_local_resume_gives_the_same_bytes(ray_ready, parts_input, tmp_path):
    reference = _clean(parts_input, tmp_path / "reference")
    assert reference.exit_code == 0, reference.output
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "builder.cli", "clean", str(parts_input), "-o", str(out), "--toxicity-backend",
           "lexicon", "--quiet", "--executor", "ray", "--workers", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os.environ.copy())
    deadline = time.monotonic() + 180
    while _done_markers(out) < 1 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    killed = _kill_actors_of(proc.pid)
    output = proc.communicate(timeout=180)[0].decode()
    if proc.returncode == 0:  # every shard finished before the kill landed: nothing to resume
        pytest.skip("the run finished before an actor could be killed")
    assert killed and proc.returncode == 3, output[-2000:]
    assert "a Ray worker died" in output and "rerun" in output
    assert not (out / "_SUCCESS").exists()
    resumed = _clean(parts_input, out)  # the same command on the local executor picks up the done shards
    assert resumed.exit_code == 0, resumed.output
    assert _sums(out) == _sums(tmp_path / "reference")


def test_ray_missing_is_one_line_with_the_pip_command(monkeypatch, parts_input, tmp_path):
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    result = _clean(parts_input, tmp_path / "z", "--executor", "ray")
    assert result.exit_code == 7 and "pip install 'mmrc-build[ray]'" in result.output


def test_a_torn_shard_behind_a_done_marker_is_redone(parts_input, tmp_path):
    """Resume verifies every finished shard: a part changed after its marker is redone."""
    from builder import io
    from builder.clean.config import CleanConfig
    from builder.clean.stage import CleanStage
    from builder.engine import run_stage

    reference = _clean(parts_input, tmp_path / "reference")
    assert reference.exit_code == 0
    out = tmp_path / "torn"
    stage = CleanStage(CleanConfig(toxicity_backend="lexicon"))

    class Crash(Exception):
        pass

    calls = {"n": 0}
    original = stage.process

    def crash_after_two(df, ctx):
        calls["n"] += 1
        if calls["n"] > 2:
            raise Crash()
        return original(df, ctx)

    stage.process = crash_after_two
    with pytest.raises(Crash):
        run_stage(stage, parts_input, out, quiet=True)
    partial = out.parent / f".{out.name}.partial"
    (partial / io.PART_FMT.format(0)).write_bytes(b"torn")  # its marker still says done
    assert _clean(parts_input, out).exit_code == 0
    assert _sums(out) == _sums(tmp_path / "reference")


def _eval(release, model, out, *extra):
    return CliRunner().invoke(main, ["eval", "run", str(release), "--revision", "v0.1.0", "--model", str(model),
                                     "--device", "cpu", "--judge", "none", "--max-new-tokens", "12", "-o", str(out),
                                     "--quiet", *extra])


@pytest.mark.parametrize("executor", ["processes", "ray"])
def test_eval_predict_on_workers_gives_the_same_answers(executor, eval_release, smoke_model, tmp_path):
    if executor == "ray":
        pytest.importorskip("ray", reason="the Ray executor needs the [ray] extra")
        os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    off = ("--prefix-cache", "off")  # the cross-dialogue path (auto would reuse each history on a CPU)
    local = _eval(eval_release, smoke_model, tmp_path / "local", *off)
    assert local.exit_code == 0, local.output
    spread = _eval(eval_release, smoke_model, tmp_path / executor, *off, "--executor", executor, "--workers", "2")
    assert spread.exit_code == 0, spread.output
    here, there = model_dir(tmp_path / "local"), model_dir(tmp_path / executor)
    assert here.name == there.name  # the executor is not part of the model's identity
    for name in ("samples.jsonl", "results.json"):
        assert (there / name).read_bytes() == (here / name).read_bytes()
    texts = [json.loads(line)["prediction"]["text"] for line in (there / "samples.jsonl").open()]
    assert len(texts) == 36 and len(set(texts)) > 1  # 6 dialogues x 6 questions, answers that tell batches apart
    # 36 questions over 2 workers: shards of >= 9 questions (2 dialogues), each answered in one cross-dialogue batch
    stats = json.loads((there / "manifest.json").read_text())["backend_stats"]["model"]
    assert stats["path"] == "cross-dialogue" and stats["shard_questions"] == 9 and stats["tasks"] == 3
    assert stats["generated"] == 36 and stats["rows_max"] == 12
    if executor == "ray":  # the actor pool gives the first two shards to the two idle actors
        assert stats["workers"] == 2 and min(stats["generated_per_worker"]) >= 12


def test_eval_executor_with_a_served_model_is_refused(eval_release, tmp_path):
    result = CliRunner().invoke(main, ["eval", "run", str(eval_release), "--backend", "openai", "--base-url",
                                       "http://127.0.0.1:9/v1", "--model", "m", "--judge", "none", "--executor",
                                       "processes", "--workers", "2", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "--concurrency" in result.output
