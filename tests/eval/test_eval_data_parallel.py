"""Data-parallel predict (builder/eval/parallel.py): shards of many dialogues per task, the workers' stats
merged, a worker keyed otherwise than the driver refused, and --gpus-per-worker without GPUs one line. The
2-worker runs that match a single worker byte for byte are in tests/executors/test_executors.py."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.errors import ConfigError
from builder.eval.backends import Group, Request
from builder.eval.parallel import TASK_QUESTIONS, WorkerStats, shards, task_questions


def _group(dialogue: int, questions: int) -> Group:
    return Group([Request(f"d{dialogue}q{q}", [], 8) for q in range(questions)], prefix_len=1)


def test_shards_hold_whole_dialogues_in_order_and_close_at_the_size():
    groups = [_group(d, n) for d, n in enumerate([6, 6, 3, 6, 1])]
    cut = list(shards(iter(groups), 9))
    assert [[g.requests[0].key[:2] for g in shard] for shard in cut] == [["d0", "d1"], ["d2", "d3"], ["d4"]]
    assert [g for shard in cut for g in shard] == groups


def test_task_size_reaches_every_worker_and_is_capped():
    assert task_questions(36, 2) == 9  # 36 / (2 workers x 2 shards each)
    assert task_questions(5, 8) == 1
    assert task_questions(28_720, 8) == TASK_QUESTIONS


def _result(worker: str, generated: int, rows: int, device: str = "cpu") -> dict:
    return {"worker": worker, "identity": {"device": device, "dtype": "float32"}, "replies": [],
            "stats": {"path": "cross-dialogue", "batch_size": 16, "batches": 2, "generated": generated,
                      "rows_max": rows, "prompt_tokens": 100, "padding_tokens": 10}}


def test_worker_stats_keep_each_workers_latest_and_sum_them():
    stats = WorkerStats(9, {"device": "cpu", "dtype": "float32"})
    stats.add(_result("a:1", 12, 12))
    stats.add(_result("b:2", 12, 12))
    stats.add(_result("a:1", 24, 12))  # cumulative on worker a
    merged = stats.merged()
    assert merged["workers"] == 2 and merged["tasks"] == 3 and merged["generated"] == 36
    assert merged["generated_per_worker"] == [24, 12] and merged["batches"] == 4 and merged["rows_max"] == 12
    assert merged["batch_size"] == 16 and merged["shard_questions"] == 9


def test_a_worker_keyed_otherwise_than_the_driver_is_refused():
    stats = WorkerStats(9, {"device": "cpu", "dtype": "float32"})
    with pytest.raises(ConfigError, match="device cuda"):
        stats.add(_result("a:1", 6, 6, device="cuda"))
    assert stats.tasks == 0


def test_gpus_per_worker_without_gpus_is_one_line(eval_release, smoke_model, tmp_path):
    pytest.importorskip("ray", reason="the Ray executor needs the [ray] extra")
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    result = CliRunner().invoke(main, ["eval", "run", str(eval_release), "--revision", "v0.1.0", "--model",
                                       str(smoke_model), "--judge", "none", "--max-new-tokens", "4", "-o",
                                       str(tmp_path / "out"), "--quiet", "--executor", "ray", "--workers", "2",
                                       "--gpus-per-worker", "1"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "needs 2 GPU(s)" in lines[0] and "--gpus-per-worker 0" in lines[0]
    assert "Traceback" not in result.output
