"""A pool worker killed mid-shard (SIGKILL: the out-of-memory killer) ends `--executor processes` in one
line, exit 3, like Ray; the rerun keeps the shards finished before and gives the bytes of a clean run.
The classes below are found by the spawned workers through this module's import name."""

from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from builder.clean.stage import CleanStage
from builder.cli import main
from builder.errors import ConfigError, InputError
from builder.executors import ExecutorSpec, run_tasks
from conftest import dialogue, make_stage_folder

pytestmark = pytest.mark.timeout(600)
KILL_MARK = "MMRC_TEST_KILL_MARK"  # the file that says the kill already happened (set by the test only)


class KilledOnShardTwo(CleanStage):
    """Clean, except that the worker running shard 2 kills itself once, after shard 0 is marked done."""

    def process(self, df, ctx):
        mark = Path(os.environ[KILL_MARK])
        if ctx.index == 2 and not mark.exists():
            shards = ctx.work_dir.parent.parent / "_shards"
            deadline = time.time() + 120
            while not (shards / "00000.done").exists() and time.time() < deadline:
                time.sleep(0.05)
            mark.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().process(df, ctx)


class KillsItself:
    def setup(self, device):
        pass

    def __call__(self, task):
        if task == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return task


class SetupFails:
    def setup(self, device):
        raise ConfigError("no such model; run `mmrc-build models`")

    def __call__(self, task):
        return task


def _sums(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in [*sorted(folder.glob("part-*.parquet")), folder / "ledger.parquet"]}


def test_a_killed_worker_is_one_line_and_the_rerun_resumes(tmp_path, monkeypatch):
    rows = [dialogue([("user", f"Hello, question number {k} about Rome"), ("assistant", "Sure, here you go.")])
            for k in range(8)]
    data = make_stage_folder(tmp_path / "in", rows, parts=4)
    base = ["clean", str(data), "--toxicity-backend", "lexicon", "--no-pii", "--quiet"]
    assert CliRunner().invoke(main, [*base, "-o", str(tmp_path / "local")]).exit_code == 0

    monkeypatch.setenv(KILL_MARK, str(tmp_path / "killed"))
    monkeypatch.setattr("builder.clean.stage.CleanStage", KilledOnShardTwo)
    args = [*base, "-o", str(tmp_path / "out"), "--executor", "processes", "--workers", "2"]
    result = CliRunner().invoke(main, args)
    assert (tmp_path / "killed").exists()
    assert result.exit_code == 3, (result.output, result.exception)
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert result.output.startswith("Error: a worker process died") and "rerun the same command" in result.output
    partial = tmp_path / ".out.partial"
    assert (partial / "_shards" / "00000.done").exists()
    kept = (partial / "part-00000.parquet").stat().st_ino

    rerun = CliRunner().invoke(main, args)
    assert rerun.exit_code == 0, rerun.output
    assert (tmp_path / "out" / "part-00000.parquet").stat().st_ino == kept  # shard 0 was not redone
    assert _sums(tmp_path / "out") == _sums(tmp_path / "local")


def test_run_tasks_reports_a_killed_worker_and_a_failed_setup_as_themselves():
    spec = ExecutorSpec("processes", workers=2)
    with pytest.raises(InputError, match="a worker process died"):
        run_tasks(spec, KillsItself(), [0, 1, 2, 3], lambda task, result: None, "cpu")
    with pytest.raises(ConfigError, match="no such model"):  # not "the pool is broken"
        run_tasks(spec, SetupFails(), [0, 1], lambda task, result: None, "cpu")
