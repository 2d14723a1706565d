"""Cross-dialogue batching in the transformers backend (the default path): questions of several
dialogues in one generate call, sorted by prompt length, give exactly the answers of the
per-question loop (fp32, CPU, greedy) on the smoke model."""

from __future__ import annotations

import pytest

from builder.eval import prompts
from builder.eval.backends import BackendSpec, Group, Request, batching, make_backend
from conftest import png_bytes


def _dialogue(n: int) -> list[dict]:
    """Dialogue ``n``: n+1 exchanges, an image in every other user turn, so prompts differ in length."""
    turns = []
    for i in range(n + 1):
        images = ([{"sha256": f"{n}-{i}", "mime": "image/png", "url": None,
                    "bytes": png_bytes(color=(40 * i % 256, 90, 200 - 30 * n), size=(24 + 4 * i, 20))}]
                  if i % 2 == 0 else [])
        turns.append({"index": 2 * i, "role": "user", "text": f"Dialogue {n}, step {i}: what about the bridge?",
                      "images": images})
        turns.append({"index": 2 * i + 1, "role": "assistant", "text": "A stone bridge in Texas." * (1 + i % 3),
                      "images": []})
    return turns


QUESTIONS = [{"question": "Which image shows the bridge?", "format": "open", "choices": []},
             {"question": "What first?", "format": "mcq", "choices": ["the bridge", "a cat", "a dish"]},
             {"question": "True or false: the photo was taken in Texas.", "format": "tf", "choices": []}]


def _groups() -> list[Group]:
    groups = []
    for n in range(4):
        turns = _dialogue(n)
        groups.append(Group([Request(f"d{n}/q{i}", prompts.messages_for(turns, q), 12)
                             for i, q in enumerate(QUESTIONS)], prefix_len=len(turns)))
    return groups


def _run(model, **spec):
    backend = make_backend(BackendSpec("transformers", str(model), device="cpu", dtype="float32", **spec))
    out = {}
    backend.run(_groups(), lambda request, reply: out.__setitem__(request.key, reply))
    return {k: (r.status, r.text, r.prompt_tokens, r.completion_tokens) for k, r in out.items()}, backend.stats


def test_cross_dialogue_batches_answer_as_the_per_question_loop(smoke_model):
    one, stats_one = _run(smoke_model, batch_size=1, prefix_cache="off")
    assert len(one) == 12 and {v[0] for v in one.values()} == {"ok"}
    assert len({v[1] for v in one.values()}) > 3, "the smoke model must depend on its input"
    assert len({v[2] for v in one.values()}) > 4, "prompts of several lengths, so batches are padded"
    assert stats_one["batches"] == 12 and stats_one["padding_tokens"] == 0
    many, stats = _run(smoke_model, batch_size=5, prefix_cache="off")
    assert many == one
    # 12 questions of 4 dialogues in 3 generate calls (5 + 5 + 2 rows, sorted by length): cross-dialogue
    assert stats["path"] == "cross-dialogue" and stats["batch_size"] == 5
    assert stats["batch_size_rule"] == "fixed (--batch-size)"
    assert (stats["batches"], stats["rows_max"], stats["generated"]) == (3, 5, 12)
    assert stats["prompt_tokens"] == sum(v[2] for v in one.values())
    assert stats["padding_tokens"] > 0 and stats["prefix_groups"] == 0
    assert stats["prefix_rule"] == "off"


def test_prefix_cache_auto_is_on_for_the_cpu_and_answers_the_same(smoke_model):
    one, _ = _run(smoke_model, batch_size=1, prefix_cache="off")
    auto, stats = _run(smoke_model, batch_size=5)
    assert auto == one
    # 4 dialogues of 3 questions: each dialogue's history encoded once, its questions in one call
    assert (stats["path"], stats["prefix_rule"]) == ("per-dialogue-prefix", "auto: on off CUDA (prefill-bound)")
    assert (stats["prefix_groups"], stats["batches"], stats["generated"]) == (4, 4, 12)


def test_auto_batch_size_off_cuda_is_the_fixed_cpu_size(smoke_model):
    _, stats = _run(smoke_model, prefix_cache="off")  # the default: --batch-size auto
    assert stats["batch_size"] == batching.CPU_AUTO_BATCH == 16
    assert stats["batch_size_rule"].startswith("auto: fixed 16 rows off CUDA")
    assert stats["batches"] == 1


class _Text:  # a Llama-2-7B text config's fields that size the KV cache
    num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size, intermediate_size = 32, 32, 32, 4096, 11008


def test_auto_batch_size_on_cuda_comes_from_free_memory():
    assert batching.kv_bytes_per_token(_Text, 2) == 2 * 32 * 32 * 128 * 2 == 524288
    assert batching.activation_bytes_per_token(_Text, 2) == (3 * 11008 + 4 * 4096) * 2 == 98816
    plan = batching.plan_for("auto", "cuda:0", _Text, 2, free_bytes=100 * 2**30)
    assert plan.token_budget == int(100 * 2**30 * 0.7) // (524288 + 98816) == 120625
    # 1,300-token prompts with a 256-token cap: 77 rows fit (77 x 1556 = 119,812 <= 120,625 < 121,368 = 78 x 1556)
    assert [len(b) for b in batching.batches([1300] * 100, 256, plan)] == [77, 23]
    assert "100.0 GiB free on cuda:0" in plan.rule
    assert batching.plan_for(7, "cuda:0", _Text, 2, 100 * 2**30) == batching.BatchPlan(7, None, "fixed (--batch-size)")


def test_batches_are_sorted_by_length_and_stable():
    plan = batching.BatchPlan(2)
    assert batching.batches([30, 10, 20, 10, 40], 5, plan) == [[1, 3], [2, 0], [4]]
    assert batching.batches([30, 10, 20], 5, batching.BatchPlan(8, token_budget=60)) == [[1, 2], [0]]


def test_pad_left_matches_the_processor_padding(smoke_model):
    import torch

    backend = make_backend(BackendSpec("transformers", str(smoke_model), device="cpu"))
    backend.setup()
    conversations = [g.requests[0].messages for g in _groups()[:3]]
    theirs = backend._encode(conversations)
    ours = batching.pad_left([backend._encode([c]) for c in conversations], backend.tokenizer.pad_token_id)
    assert set(ours) == set(theirs)
    for key in theirs:
        assert torch.equal(ours[key], theirs[key]), key


@pytest.mark.parametrize("value", [0, -1, "many", 2.5])
def test_batch_size_must_be_a_count_or_auto(value):
    from builder.errors import ConfigError

    with pytest.raises(ConfigError, match="--batch-size must be a whole number of at least 1 or auto"):
        BackendSpec("transformers", "m", batch_size=value).validate()
