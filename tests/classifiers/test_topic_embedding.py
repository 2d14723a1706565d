"""Dialogue -> text, chunk-and-pool, and the embedding cache (all-MiniLM-L6-v2 for speed)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from builder.errors import ConfigError
from classifiers.topic.cache import EmbeddingCache
from classifiers.topic.embed import Embedder
from classifiers.topic.text import TextConfig, dialogue_text

MINILM = "all-MiniLM-L6-v2"
TURNS = [
    {"role": "system", "text": "You are helpful."},
    {"role": "user", "text": "Plan a trip to Kyoto."},
    {"role": "assistant", "text": "Day 1: temples."},
    {"role": "user", "text": "And day 2?"},
    {"role": "assistant", "text": ""},
]


def test_dialogue_text_puts_user_turns_first_and_skips_system():
    assert dialogue_text(TURNS) == "Plan a trip to Kyoto.\n\nAnd day 2?\n\nDay 1: temples."
    assert dialogue_text(TURNS, TextConfig(order="chronological")) == (
        "Plan a trip to Kyoto.\n\nDay 1: temples.\n\nAnd day 2?")
    assert dialogue_text(TURNS, TextConfig(include_assistant=False)) == "Plan a trip to Kyoto.\n\nAnd day 2?"
    with pytest.raises(ConfigError, match="available: user_first, chronological"):
        TextConfig(order="random")


def test_long_dialogues_are_chunked_at_the_model_length_and_truncation_is_counted(tmp_path):
    emb = Embedder(MINILM, cache_dir=tmp_path)
    text = " ".join(f"word{i % 50} travel" for i in range(600))
    one = emb.chunk(text, TextConfig())  # the default: one window of at most 256 tokens, the rest counted
    assert len(one.chunks) == 1 and one.tokens[0] <= 256 and one.truncated_tokens > 1000
    assert emb.chunk(text, TextConfig(window=64)).tokens == (64,)
    chunked = emb.chunk(text, TextConfig(max_chunks=16, window=None))  # the multi-window mode
    assert len(chunked.chunks) > 2 and max(chunked.tokens) <= 254 and chunked.truncated_tokens == 0
    assert one.tokens[0] + one.truncated_tokens == sum(chunked.tokens)
    capped = emb.chunk(text, TextConfig(max_chunks=2, window=None))
    assert len(capped.chunks) == 2
    assert capped.truncated_tokens == sum(chunked.tokens) - sum(capped.tokens) > 0
    # embedding long windows is slow on a shared CPU: pool over 32-token windows instead
    tokenizer, _ = emb._tokenizer_and_length()
    emb._tokenizer = (tokenizer, 34)
    out = emb.embed_texts([" ".join(text.split()[:80]), "short"], TextConfig(max_chunks=2))
    assert out.chunks == [2, 1] and out.truncated_tokens[0] > 0
    np.testing.assert_allclose(np.linalg.norm(out.vectors, axis=1), 1.0, rtol=1e-5)


def test_cache_means_a_rerun_never_embeds_or_even_loads_the_model(tmp_path):
    texts = ["Where should I eat in Lisbon?", "My laptop will not boot.", "Where should I eat in Lisbon?"]
    first = Embedder(MINILM, cache_dir=tmp_path)
    a = first.embed_texts(texts)
    assert a.stats["cache_misses"] == 2
    np.testing.assert_array_equal(a.vectors[0], a.vectors[2])
    again = Embedder(MINILM, cache_dir=tmp_path)
    b = again.embed_texts(texts)
    assert b.stats["cache_hits"] == 2 and b.stats["cache_misses"] == 0
    assert again._model is None
    np.testing.assert_array_equal(a.vectors, b.vectors)
    folder = tmp_path / first.hash[:24]
    assert not list(folder.glob("*.pkl")) and len(list(folder.glob("batch-*.npy"))) == 1


def test_cache_folder_of_another_embedder_is_refused(tmp_path):
    cache = EmbeddingCache(tmp_path, "a" * 64, "x")
    cache.put(["k"], np.ones((1, 3), dtype=np.float32))
    meta = tmp_path / ("a" * 24) / "meta.json"
    meta.write_text(json.dumps({"hash": "a" * 24 + "b" * 40}))
    with pytest.raises(ConfigError, match="belongs to embedder"):
        EmbeddingCache(tmp_path, "a" * 64, "x")
    assert EmbeddingCache(None, "a" * 64).get(["k"]) == {}


def test_bfloat16_vectors_match_float32_and_never_share_its_cache(tmp_path):
    texts = ["Plan a trip to Kyoto.", "My Python script raises a KeyError.", "Is sourdough bread healthy?"]
    fp32 = Embedder(MINILM, cache_dir=tmp_path)
    bf16 = Embedder(MINILM, cache_dir=tmp_path, dtype="bfloat16")
    a, b = fp32.embed_texts(texts).vectors, bf16.embed_texts(texts).vectors
    assert b.dtype == np.float32 and a.shape == b.shape
    assert ((a * b).sum(1) > 0.995).all() and not np.array_equal(a, b)
    assert bf16.hash == fp32.hash and bf16.cache.folder != fp32.cache.folder
    assert bf16.describe()["dtype"] == "bfloat16" and "dtype" not in fp32.describe()
    with pytest.raises(ValueError, match="dtype"):
        Embedder(MINILM, cache_dir=False, dtype="int8")
