"""The transformers backend on the smoke model: real AutoModelForImageTextToText + chat template
with several images over several turns (a random-weight model: answers mean nothing)."""

from __future__ import annotations

import pytest

from builder.errors import ConfigError, ModelError
from builder.eval import prompts
from builder.eval.backends import BackendSpec, Group, Request, make_backend
from conftest import png_bytes


def _turns(text_extra: str = ""):
    img = lambda color, size: {"sha256": str(color), "mime": "image/png",  # noqa: E731
                               "bytes": png_bytes(color=color, size=size), "url": None}
    return [
        {"index": 0, "role": "user", "text": "Look at my garden" + text_extra,
         "images": [img((10, 200, 30), (40, 30)), img((200, 10, 30), (20, 50))]},
        {"index": 1, "role": "assistant", "text": "Nice roses.", "images": []},
        {"index": 2, "role": "user", "text": "and the kitchen", "images": [img((1, 2, 250), (30, 30))]},
        {"index": 3, "role": "assistant", "text": "Light blue walls.", "images": []},
    ]


QUESTIONS = [{"question": "Which plants?", "format": "open", "choices": []},
             {"question": "Which image shows the kitchen?", "format": "open", "choices": []},
             {"question": "What first?", "format": "mcq", "choices": ["kitchen", "garden"]},
             {"question": "True or false: blue", "format": "tf", "choices": []},
             {"question": "Anything else about the second photo and the walls?", "format": "open", "choices": []}]


def _answers(model, turns=None, **spec):
    backend = make_backend(BackendSpec("transformers", str(model), device="cpu", **spec))
    turns = turns or _turns()
    groups = [Group([Request(f"q{i}", prompts.messages_for(turns, q), 20) for i, q in enumerate(QUESTIONS)],
                    prefix_len=len(turns))]
    out = {}
    backend.run(groups, lambda request, reply: out.__setitem__(request.key, reply))
    return out, backend


def test_batched_answers_equal_unbatched(smoke_model):
    reference, _ = _answers(smoke_model, batch_size=1, prefix_cache="off")
    assert all(r.status == "ok" and r.completion_tokens > 0 for r in reference.values())
    assert len({r.text for r in reference.values()}) > 1, "the smoke model must depend on its input"
    for spec in ({"batch_size": 8, "prefix_cache": "off"}, {"batch_size": 8, "prefix_cache": "on"},
                 {"batch_size": 2, "prefix_cache": "on"}):
        got, backend = _answers(smoke_model, **spec)
        assert {k: (r.text, r.prompt_tokens) for k, r in got.items()} == \
               {k: (r.text, r.prompt_tokens) for k, r in reference.items()}, spec
    assert backend.stats["prefix_groups"] == 1 and backend.stats["prefix_unstable"] == 0
    assert backend.stats["path"] == "per-dialogue-prefix"


def test_control_tokens_in_dialogue_text_are_plain_text(smoke_model):
    # A literal <image> in a chat log must not become a fake image slot (that would crash the
    # processor) nor end the turn.
    got, _ = _answers(smoke_model, turns=_turns(" <image> </s> <|assistant|>"))
    assert all(r.status == "ok" for r in got.values())


def test_context_overflow_is_recorded_not_truncated(smoke_model):
    got, _ = _answers(smoke_model, context_length=150)
    assert {r.status for r in got.values()} == {"context_overflow"}
    assert all(r.text is None and "context 150" in r.error for r in got.values())


def test_truncate_history_is_an_explicit_policy(smoke_model):
    got, _ = _answers(smoke_model, context_length=150, overflow="truncate-history")
    assert {r.status for r in got.values()} == {"ok"}
    assert {r.truncated_messages for r in got.values()} == {2}
    assert all(r.prompt_tokens + 20 <= 150 for r in got.values())


def test_pickled_weights_are_refused(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "pytorch_model.bin").write_bytes(b"\x80\x04pickle")
    with pytest.raises(ModelError, match="pickled weights are never loaded"):
        make_backend(BackendSpec("transformers", str(tmp_path)))


def test_unknown_backend_lists_the_valid_ones():
    with pytest.raises(ConfigError, match="available: openai, transformers"):
        make_backend(BackendSpec("vllm-direct", "m"))


def test_missing_model_says_how_to_get_it(tmp_path):
    with pytest.raises(ModelError, match="hf download"):
        make_backend(BackendSpec("transformers", "nobody/no-such-model"))
