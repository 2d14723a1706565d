"""The stage contract on ingest: atomic output, resume after a crash, determinism, up-to-date."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.ingest import stage as ingest_stage
from rawlogs import build, native_line


def digest(folder):
    """Every file's bytes except manifest.json (which holds timings)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != "manifest.json"}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_two_runs_give_identical_bytes(tmp_path):
    raw = build(tmp_path / "raw")
    assert invoke("ingest", raw, "-o", tmp_path / "a").exit_code == 0
    assert invoke("ingest", raw, "-o", tmp_path / "b", "--workers", "2").exit_code == 0
    assert digest(tmp_path / "a") == digest(tmp_path / "b")


def test_many_parts_are_sorted_and_complete(tmp_path):
    import polars as pl

    raw = build(tmp_path / "raw")
    assert invoke("ingest", raw, "-o", tmp_path / "one").exit_code == 0
    assert invoke("ingest", raw, "-o", tmp_path / "many", "--shard-rows", "3").exit_code == 0
    parts = sorted((tmp_path / "many").glob("part-*.parquet"))
    assert len(parts) == 4  # 10 kept dialogues, 3 per part
    ids = [i for p in parts for i in pl.read_parquet(p)["dialogue_id"]]
    assert ids == sorted(ids) == pl.read_parquet(tmp_path / "one" / "part-00000.parquet")["dialogue_id"].to_list()


def test_crash_midway_leaves_no_success_and_resume_matches(tmp_path, monkeypatch):
    raw = build(tmp_path / "raw")
    reference = tmp_path / "ref"
    assert invoke("ingest", raw, "-o", reference).exit_code == 0

    real = ingest_stage.ingest_file
    calls = []

    def crash_on_third(idx, *args):
        calls.append(idx)
        if len(calls) == 3:
            raise KeyboardInterrupt("killed")
        return real(idx, *args)

    monkeypatch.setattr(ingest_stage, "ingest_file", crash_on_third)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        ingest_stage.run_ingest(raw, out)
    assert not out.exists()  # nothing that looks finished
    assert (tmp_path / ".out.partial" / "_shards" / "f000000.done").exists()

    calls.clear()
    monkeypatch.setattr(ingest_stage, "ingest_file", lambda idx, *a: (calls.append(idx), real(idx, *a))[1])
    assert invoke("ingest", raw, "-o", out).exit_code == 0
    assert 0 not in calls and 1 not in calls  # finished shards were not redone
    assert (out / "_SUCCESS").exists() and not (tmp_path / ".out.partial").exists()
    assert digest(out) == digest(reference)


def test_sigkill_never_leaves_a_finished_looking_folder(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    for i in range(150):
        (raw / f"log{i:03d}.jsonl").write_text(
            "\n".join(native_line(f"{i}-{j}", f"topic{i} item{j}") for j in range(20)) + "\n")
    out = tmp_path / "out"
    env = {**os.environ, "MMRC_USER_SALT": "s"}
    proc = subprocess.Popen([sys.executable, "-m", "builder.cli", "ingest", str(raw), "-o", str(out)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    partial = tmp_path / ".out.partial" / "_shards"
    deadline = time.time() + 60
    while time.time() < deadline and not (partial.exists() and any(partial.iterdir())):
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (out / "_SUCCESS").exists() or len(list(out.glob("part-*.parquet"))) > 0
    assert not out.exists(), "killed after the first shard, the target must not exist yet"
    assert invoke("ingest", raw, "-o", out).exit_code == 0
    assert invoke("ingest", raw, "-o", tmp_path / "clean").exit_code == 0
    assert digest(out) == digest(tmp_path / "clean")


def test_rerun_is_up_to_date_and_changed_config_refuses(tmp_path):
    raw = build(tmp_path / "raw")
    out = tmp_path / "out"
    assert invoke("ingest", raw, "-o", out).exit_code == 0
    again = invoke("ingest", raw, "-o", out)
    assert again.exit_code == 0 and "up to date" in again.output
    changed = invoke("ingest", raw, "-o", out, "--max-turns", "30")
    assert changed.exit_code == 4 and "--force" in changed.output
    assert invoke("ingest", raw, "-o", out, "--max-turns", "30", "--force").exit_code == 0


def test_user_errors_are_one_line(tmp_path):
    result = invoke("ingest", tmp_path / "nope", "-o", tmp_path / "out")
    assert result.exit_code == 3 and result.output.count("\n") == 1 and "does not exist" in result.output
    bad = invoke("ingest", tmp_path, "-o", tmp_path / "o", "--min-turns", "9", "--max-turns", "3")
    assert bad.exit_code == 2 and "turn range" in bad.output
