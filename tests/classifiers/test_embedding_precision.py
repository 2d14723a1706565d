"""The embedder's precision and batch per device (classifiers.topic.embed.embedding_precision), chosen
without a GPU: bfloat16 and large batches on CUDA, float32 and the stage's batch elsewhere, what the user
gives always wins, and the choice lands in the stage config (hence the manifest)."""

from __future__ import annotations

import json

import pytest

from builder.classify.stage import make_config
from builder.devices import worker_device
from classifiers.topic.embed import CUDA_BATCH, embedding_precision


@pytest.mark.parametrize("device, expected", [
    ("cpu", ("float32", 32)),
    ("cuda", ("bfloat16", CUDA_BATCH)),
    ("cuda:3", ("bfloat16", CUDA_BATCH)),
])
def test_defaults_follow_the_device(device, expected):
    assert embedding_precision(device) == expected
    assert CUDA_BATCH == 256


def test_what_the_user_gives_wins_on_any_device():
    assert embedding_precision("cuda", "float32") == ("float32", CUDA_BATCH)
    assert embedding_precision("cuda", None, 8) == ("bfloat16", 8)
    assert embedding_precision("cpu", "bfloat16", 128) == ("bfloat16", 128)
    assert embedding_precision("cpu", cpu_batch=64) == ("float32", 64)  # swap's CPU batch


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="dtype"):
        embedding_precision("cpu", "int8")
    with pytest.raises(ValueError, match="batch"):
        embedding_precision("cuda", None, 0)


def test_ray_actors_with_gpus_embed_on_cuda_whatever_the_driver_has():
    assert worker_device("cpu", 1.0) == "cuda"
    assert worker_device("cpu", 0.0) == "cpu"


def test_the_classify_config_records_the_choice(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"method": "mlp"}))
    on_gpu = make_config(tmp_path, device="cuda")
    on_cpu = make_config(tmp_path, device="cpu")
    assert (on_gpu.dtype, on_gpu.batch_size) == ("bfloat16", CUDA_BATCH)
    assert (on_cpu.dtype, on_cpu.batch_size) == ("float32", 32)
    assert make_config(tmp_path, batch_size=64, dtype="float32", device="cuda").batch_size == 64
    assert on_gpu.model_hash == on_cpu.model_hash
